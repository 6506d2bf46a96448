import { getDb, type DB } from "../db/db.server";
import type { ImpactRecord } from "~/lib/impact";
import { log, errorMessage } from "../log.server";
import { computeRecord, loadAccountView, METHOD_VERSION, type AccountView } from "./record.server";
import { seedOf } from "./did.server";

/**
 * Impact records as the screens, the API and the assistant read them: stored
 * per subject under the key they were computed for (the account's data
 * version and synced window, the changes known, the method's version). A
 * reader gets the stored record while its key holds and a fresh one
 * otherwise (computed and stored once), so a page view never repeats the
 * work and a record never outlives the figures it was measured on. Safe with
 * several instances: two computing the same record write the same row.
 */

export function stampOf(view: AccountView): string {
  const changes = seedOf(view.touches.map((t) => `${t.subject}@${t.day}:${t.revertOf ?? ""}`).join("|"));
  return `m${METHOD_VERSION}|v${view.dataVersion}|${view.dataFrom}..${view.dataTo}|${view.detailReady ? "d" : "-"}|c${view.touches.length}.${changes}`;
}

export interface ImpactReadOptions {
  db?: DB;
  /** Only these subjects ("cs:<id>", "ext:<id>"); every measurable change of the account otherwise. */
  subjects?: string[];
  now?: Date;
}

/** The records of the account's changes (only those that exist and were applied); stale ones are computed again and stored. */
export async function impactRecords(customerId: string, opts: ImpactReadOptions = {}): Promise<Map<string, ImpactRecord>> {
  const db = opts.db ?? getDb();
  const out = new Map<string, ImpactRecord>();
  const view = await loadAccountView(db, customerId);
  if (!view) return out;
  const wanted = opts.subjects ? new Set(opts.subjects) : null;
  const touches = view.touches.filter((t) => !wanted || wanted.has(t.subject));
  if (touches.length === 0) return out;
  const stamp = stampOf(view);
  const stored = new Map<string, string>();
  for (let i = 0; i < touches.length; i += 400) {
    const rows = await db
      .selectFrom("impact_records")
      .select(["subject", "record_json"])
      .where(
        "subject",
        "in",
        touches.slice(i, i + 400).map((t) => t.subject),
      )
      .where("stamp", "=", stamp)
      .execute();
    for (const r of rows) stored.set(r.subject, r.record_json);
  }
  const computedAt = (opts.now ?? new Date()).toISOString();
  for (const touch of touches) {
    const json = stored.get(touch.subject);
    if (json) {
      out.set(touch.subject, JSON.parse(json) as ImpactRecord);
      continue;
    }
    const record: ImpactRecord = { ...(await computeRecord(db, view, touch)), computedAt };
    const row = {
      customer_id: customerId,
      kind: touch.kind,
      change_set_id: touch.changeSetId,
      stamp,
      verdict: record.verdict,
      record_json: JSON.stringify(record),
      computed_at: computedAt,
    };
    await db
      .insertInto("impact_records")
      .values({ subject: touch.subject, ...row })
      .onConflict((oc) => oc.column("subject").doUpdateSet(row))
      .execute();
    out.set(touch.subject, record);
  }
  return out;
}

/** One change set's record, or null when it has none (not applied, or nothing it changed is measurable). */
export async function changeSetImpact(customerId: string, changeSetId: string, opts: Omit<ImpactReadOptions, "subjects"> = {}): Promise<ImpactRecord | null> {
  const subject = `cs:${changeSetId}`;
  return (await impactRecords(customerId, { ...opts, subjects: [subject] })).get(subject) ?? null;
}

/** The same, for a page that must render even if measuring fails: the failure is logged and the page shows no verdict. */
export async function impactRecordsOrNone(customerId: string, subjects: string[]): Promise<Map<string, ImpactRecord>> {
  if (subjects.length === 0) return new Map();
  try {
    return await impactRecords(customerId, { subjects });
  } catch (error) {
    log.warn(`Impact records of ${customerId}: ${errorMessage(error)}`);
    return new Map();
  }
}
