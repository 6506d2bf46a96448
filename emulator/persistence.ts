import fs from "node:fs";
import path from "node:path";
import type { MutateCall } from "./ads";
import type { OAuthSnapshot } from "./oauth/state";

/**
 * The mounted demo emulator's memory on disk (DATA_DIR/emulator), so a
 * restart keeps what Google would keep: the demo account's changes and the
 * grants, refresh tokens and consents it issued. Without this, history said
 * "applied" while the restarted emulator showed the original values, and every
 * stored refresh token died with the process.
 *
 * - oauth.json: a snapshot of the OAuth state, rewritten (atomically) on change.
 * - ads-mutations.jsonl: every mutate that changed the store, replayed in
 *   order at start over the freshly generated (deterministic) demo account,
 *   with the clock set to when it first ran.
 */
export function prepareStateDir(dir: string) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

export function fileOAuthPersistence(dir: string) {
  const file = path.join(dir, "oauth.json");
  return {
    load(): OAuthSnapshot | undefined {
      try {
        return JSON.parse(fs.readFileSync(file, "utf8")) as OAuthSnapshot;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        console.warn(`emulator: ignoring unreadable ${file}: ${(error as Error).message}`);
        return undefined;
      }
    },
    save(snapshot: OAuthSnapshot) {
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(snapshot), { mode: 0o600 });
      fs.renameSync(tmp, file);
    },
  };
}

interface JournalEntry {
  at: number;
  call: MutateCall;
}

type MutateFn = (call: MutateCall) => Record<string, unknown>;

/**
 * Wraps the store's mutate handler: replays the journal once, then appends
 * every call that changed something. `setNow` pins the handler's clock during
 * the replay so change events keep their original times.
 */
export function journaledMutate(dir: string, mutate: MutateFn, setNow: (at: Date | undefined) => void): MutateFn {
  const file = path.join(dir, "ads-mutations.jsonl");
  let lines: string[] = [];
  try {
    lines = fs.readFileSync(file, "utf8").split("\n").filter(Boolean);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  for (const line of lines) {
    let entry: JournalEntry;
    try {
      entry = JSON.parse(line) as JournalEntry;
    } catch {
      continue; // a line cut short by a crash was never answered as applied
    }
    setNow(new Date(entry.at));
    try {
      mutate(entry.call);
    } catch (error) {
      console.warn(`emulator: replaying a recorded change failed: ${(error as Error).message}`);
    } finally {
      setNow(undefined);
    }
  }
  return (call) => {
    const at = Date.now();
    const result = mutate(call);
    const body = call.body as { validateOnly?: unknown; validate_only?: unknown };
    if (body.validateOnly !== true && body.validate_only !== true) {
      const { version, customerId, collection, userEmail, requestId } = call;
      const entry: JournalEntry = { at, call: { version, customerId, collection, body: call.body, userEmail, requestId } };
      fs.appendFileSync(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    }
    return result;
  };
}
