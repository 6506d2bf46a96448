import fs from "node:fs";

/**
 * DATA_DIR holds the database, the generated secrets and the demo emulator's
 * state: readable by the server's own user only. A directory we create is
 * 0700; the files in it are 0600 (an existing directory is left as the
 * operator made it, since DATA_DIR may point at a shared mount).
 */
export function ensurePrivateDir(dir: string) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Creates the file empty if missing, then makes it 0600 (a file from an older version included). */
export function ensurePrivateFile(file: string) {
  fs.closeSync(fs.openSync(file, "a", 0o600));
  fs.chmodSync(file, 0o600);
}
