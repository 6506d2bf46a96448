import { LRUCache } from "lru-cache";
import { getDb, type DB } from "../db/db.server";

/**
 * What the report pages read from an account's synced tables, kept under the
 * account's data version (ads_sync_state.data_version, 0095) it was read at.
 *
 * Those tables change only in a sync's switch-over and in the read model after
 * an apply, and both raise the version (the switch-over in its own transaction,
 * the read model after its writes); every page reads the version before its
 * reports (the freshness check), so new data is a new key, in every process.
 * A read that raced a write can only have stored newer rows under the older
 * key, which nobody asks for again. Concurrent identical reads share one query.
 */

const MAX_ENTRIES = 500;

// Per database handle: tests (and a process that opened another database) never share entries.
const caches = new WeakMap<DB, LRUCache<string, Promise<unknown>>>();

export function cachedRead<T>(
  scope: { customerId: string; dataVersion: number },
  what: string,
  args: readonly unknown[],
  read: () => Promise<T>,
  db: DB = getDb(),
): Promise<T> {
  let entries = caches.get(db);
  if (!entries) caches.set(db, (entries = new LRUCache({ max: MAX_ENTRIES })));
  const key = `${scope.customerId}\u0000${scope.dataVersion}\u0000${what}\u0000${JSON.stringify(args)}`;
  const hit = entries.get(key) as Promise<T> | undefined;
  if (hit) return hit;
  const pending = read();
  entries.set(key, pending);
  // Only this read's own entry: a later read under the same key (after an eviction) stays.
  pending.catch(() => entries.peek(key) === pending && entries.delete(key));
  return pending;
}
