import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { getConfig } from "../env.server";

/**
 * AES-256-GCM for secrets at rest (Google refresh and access tokens).
 * Format: "enc:v<key version>:<base64url(iv ‖ tag ‖ ciphertext)>". The version
 * lets keys rotate: new data uses the current key, old data still decrypts
 * with a retired key listed in ENCRYPTION_OLD_KEYS until it is rewritten.
 * `context` is bound as additional authenticated data, so a ciphertext copied
 * into another row or column fails to decrypt.
 */
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class DecryptionError extends Error {
  name = "DecryptionError";
}

export interface KeyRing {
  current: number;
  keys: Map<number, Buffer>;
}

function defaultKeyRing(): KeyRing {
  const config = getConfig();
  return { current: config.ENCRYPTION_KEY_VERSION, keys: config.encryptionKeys };
}

export function encryptSecret(plaintext: string, context: string, ring: KeyRing = defaultKeyRing()): string {
  const key = ring.keys.get(ring.current);
  if (!key) throw new Error(`No encryption key for version ${ring.current}`);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return `enc:v${ring.current}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

export function decryptSecret(payload: string, context: string, ring: KeyRing = defaultKeyRing()): string {
  const match = /^enc:v(\d{1,3}):([A-Za-z0-9_-]+)$/.exec(payload);
  if (!match) throw new DecryptionError("Not an encrypted value");
  const key = ring.keys.get(Number(match[1]));
  if (!key) throw new DecryptionError(`No key for version ${match[1]}; add it to ENCRYPTION_OLD_KEYS`);
  const raw = Buffer.from(match[2], "base64url");
  if (raw.length < IV_BYTES + TAG_BYTES) throw new DecryptionError("Ciphertext too short");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new DecryptionError("Ciphertext failed authentication (tampered, or the wrong key)");
  }
}

/** True when the value was written with a key other than the current one and should be re-encrypted. */
export function needsReencryption(payload: string, ring: KeyRing = defaultKeyRing()) {
  return !payload.startsWith(`enc:v${ring.current}:`);
}
