import { getDb, type DB } from "../db/db.server";
import type { Change, ChangeSet, ChangeStatus } from "../db/schema";
import { getConfig } from "../env.server";
import { isUniqueViolation } from "../db/unique-violation.server";
import { requireAdsContext } from "../ads/context.server";
import { AdsOutcomeUnknownError, GoogleAdsApiError, type AdsClient } from "../ads/client.server";
import { assertGoogleAvailable } from "../ads/quota.server";
import { ConflictError, NotFoundError } from "../domain-errors.server";
import { COLLECTION, readChildren, readLive, type Fields, type LiveResource } from "./kinds.server";
import { storeChangeSet, type DraftChange } from "./propose.server";
import { largeMoves, moveOf } from "./large-moves.server";
import { refuseUnconfirmedRemovals } from "./removals.server";
import { applyToReadModel } from "./read-model.server";
import { markApplied } from "../optimizer/store.server";
import { trackWork } from "../lifecycle/drain.server";
import { consumeApproval, type ApprovalCapability } from "./approval.server";
import { errorMessage, log } from "../log.server";
import { asHolder, keepLease, LEASE_MS, leaseUntil, newLease, releaseLease, takeLease, type Lease } from "./lease.server";
import { enqueueSettling } from "./settle-jobs.server";

export interface ChangeSetDetail {
  set: ChangeSet;
  changes: Change[];
}

export interface ApplyOptions {
  /** The person's approval, minted from their request to the review page or the API (approval.server.ts). */
  approval: ApprovalCapability;
  /** The person saw and accepted the budget/bid moves above CHANGE_CONFIRM_PERCENT. */
  confirmLargeMoves?: boolean;
  /** The person confirmed removing campaigns, ad groups or ads, which cannot be undone (removals.server.ts). */
  confirmRemovals?: boolean;
}

interface Google {
  client: AdsClient;
  loginCustomerId: string | undefined;
  /** request-id of the last response Google sent, to record against the changes it answered for. */
  lastRequestId(): string | undefined;
}

const NOT_APPLIED = "Not applied; nothing changed at Google";

async function googleFor(db: DB, userId: string, customerId: string): Promise<Google> {
  let lastRequestId: string | undefined;
  const { client, loginCustomerId } = await requireAdsContext(userId, customerId, {
    db,
    // The client hands back only the body; the request id lives in a header.
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      lastRequestId = res.headers.get("request-id") ?? lastRequestId;
      return res;
    },
  });
  return { client, loginCustomerId, lastRequestId: () => lastRequestId };
}

async function loadSet(db: DB, userId: string | null, id: string): Promise<ChangeSetDetail> {
  let q = db.selectFrom("change_sets").selectAll().where("id", "=", id);
  if (userId !== null) q = q.where("user_id", "=", userId);
  const set = await q.executeTakeFirst();
  if (!set) throw new NotFoundError("Change set not found");
  const changes = await db.selectFrom("changes").selectAll().where("change_set_id", "=", id).orderBy("seq").execute();
  return { set, changes };
}

export function getChangeSet(userId: string, id: string): Promise<ChangeSetDetail> {
  return loadSet(getDb(), userId, id);
}

const json = (s: string | null): Fields | null => (s === null ? null : (JSON.parse(s) as Fields));

/** Changes grouped by Google service, in the order their first change was proposed. */
function groups(changes: Change[]): Array<{ collection: string; changes: Change[] }> {
  const map = new Map<string, Change[]>();
  for (const c of changes) {
    const key = COLLECTION[c.resource_kind];
    map.set(key, [...(map.get(key) ?? []), c]);
  }
  return [...map].map(([collection, list]) => ({ collection, changes: list }));
}

interface OpError {
  code: string;
  message: string;
  fieldPath: string | null;
}

/** partialFailureError.details[].errors → the error per operation index. */
function partialFailures(raw: unknown): { byIndex: Map<number, OpError>; requestId?: string } {
  const byIndex = new Map<number, OpError>();
  let requestId: string | undefined;
  if (!raw || typeof raw !== "object") return { byIndex };
  const details = (raw as { details?: unknown }).details;
  for (const d of Array.isArray(details) ? details : []) {
    if (typeof d?.requestId === "string") requestId = d.requestId;
    for (const e of Array.isArray(d?.errors) ? d.errors : []) {
      const elements: Array<{ fieldName?: string; index?: number }> = e?.location?.fieldPathElements ?? [];
      const index = elements[0]?.index;
      const code = e?.errorCode && typeof e.errorCode === "object" ? Object.entries(e.errorCode as Record<string, string>)[0] : undefined;
      const fieldPath = elements.map((el) => `${el.fieldName}${typeof el.index === "number" ? `[${el.index}]` : ""}`).join(".");
      if (typeof index === "number" && !byIndex.has(index)) {
        byIndex.set(index, {
          code: code ? `${code[0]}.${code[1]}` : "UNKNOWN",
          message: String(e?.message ?? "Google refused this change"),
          fieldPath: fieldPath || null,
        });
      }
    }
  }
  return { byIndex, requestId };
}

function apiFailures(error: GoogleAdsApiError): Map<number, OpError> {
  const out = new Map<number, OpError>();
  for (const e of error.errors) {
    const m = /^(?:mutate_?[oO]perations|operations)\[(\d+)\]/.exec(e.fieldPath ?? "");
    if (m && !out.has(Number(m[1]))) out.set(Number(m[1]), { code: e.code, message: e.message, fieldPath: e.fieldPath ?? null });
  }
  return out;
}

type ChangePatch = Partial<Omit<Change, "id" | "change_set_id">>;

async function setChange(db: DB, id: string, patch: ChangePatch) {
  await db.updateTable("changes").set(patch).where("id", "=", id).execute();
}

/** An outcome of a change in flight: written only while it is still "applying" (call inside asHolder). */
async function settleChange(trx: DB, id: string, patch: ChangePatch & { status: "applied" | "failed" }) {
  await trx.updateTable("changes").set(patch).where("id", "=", id).where("status", "=", "applying").execute();
}

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === "number" || typeof b === "number") return a !== null && b !== null && a !== undefined && b !== undefined && Number(a) === Number(b);
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

// ---- validate

/**
 * Re-reads "before" from Google, then sends every change with validateOnly.
 * Google's verdict per change is stored; a refusal is final (never retried).
 */
export async function validateChangeSet(userId: string, id: string): Promise<ChangeSetDetail> {
  const db = getDb();
  const { set, changes } = await loadSet(db, userId, id);
  if (!["proposed", "validated", "invalid"].includes(set.status)) throw new ConflictError(`This change set is already ${set.status.replace("_", " ")}`);
  const g = await googleFor(db, userId, set.customer_id);
  const existing = changes.filter((c) => c.operation !== "create" && c.resource_name);
  const live = existing.length
    ? await readLive(
        g.client,
        set.customer_id,
        existing.map((c) => ({ collection: COLLECTION[c.resource_kind], resourceName: c.resource_name! })),
        g.loginCustomerId,
      )
    : new Map<string, LiveResource>();

  const verdict = new Map<string, { status: ChangeStatus } & Partial<OpError>>();
  for (const c of existing) {
    const now = live.get(c.resource_name!);
    if (!now || now.fields.status === "REMOVED") {
      verdict.set(c.id, { status: "invalid", code: "NOT_FOUND", message: "This item no longer exists at Google", fieldPath: null });
      continue;
    }
    const before = json(c.before_json) ?? {};
    const after = json(c.after_json) ?? {};
    for (const key of Object.keys(c.operation === "update" ? after : { status: 1 })) before[key] = now.fields[key] ?? null;
    c.before_json = JSON.stringify(before);
  }
  // From the live values just read (or the value in force where an item has none of its own).
  const large = (await largeMoves(db, set.customer_id, changes.map(moveOf))).some(Boolean);

  for (const group of groups(changes)) {
    const sendable = group.changes.filter((c) => !verdict.has(c.id));
    if (sendable.length === 0) continue;
    let failures = new Map<number, OpError>();
    try {
      const res = await g.client.mutate(
        set.customer_id,
        `${group.collection}:mutate`,
        { operations: sendable.map((c) => JSON.parse(c.operation_json)), partialFailure: true },
        { validateOnly: true, loginCustomerId: g.loginCustomerId },
      );
      failures = partialFailures(res.partialFailureError).byIndex;
    } catch (error) {
      if (!(error instanceof GoogleAdsApiError) || error.kind !== "invalidRequest") throw error;
      failures = apiFailures(error);
      if (failures.size === 0) {
        for (const [i] of sendable.entries()) failures.set(i, { code: error.errors[0]?.code ?? "INVALID", message: error.userMessage, fieldPath: null });
      }
    }
    sendable.forEach((c, i) => verdict.set(c.id, failures.has(i) ? { status: "invalid", ...failures.get(i)! } : { status: "valid" }));
  }

  const now = new Date().toISOString();
  const invalid = [...verdict.values()].some((v) => v.status === "invalid");
  await db.transaction().execute(async (trx) => {
    for (const c of changes) {
      const v = verdict.get(c.id)!;
      await setChange(trx, c.id, {
        status: v.status,
        before_json: c.before_json,
        error_code: v.code ?? null,
        error_message: v.message ?? null,
        field_path: v.fieldPath ?? null,
      });
    }
    await trx
      .updateTable("change_sets")
      .set({
        status: invalid ? "invalid" : "validated",
        validated_at: now,
        needs_confirmation: large ? 1 : 0,
        error: invalid ? "Google refused some changes; see each change" : null,
      })
      .where("id", "=", id)
      .execute();
  });
  return loadSet(db, userId, id);
}

// ---- apply

/**
 * The values the person reviewed must still be Google's live values: a set
 * validated (or a revert proposed) before someone else changed the same
 * budget, bid or status would otherwise silently overwrite that change. Runs
 * on the claimed set (a crash here leaves "applying" changes that reconcile
 * finds unchanged at Google, so they settle as failed). On a mismatch nothing
 * is sent; the set goes back to "proposed" so validating it
 * again shows the current values, and the caller gets a 409 naming the change.
 */
async function refuseIfChangedSinceReview(db: DB, g: Google, set: ChangeSet, changes: Change[], lease: Lease) {
  const existing = changes.filter((c) => c.status === "applying" && c.operation !== "create" && c.resource_name);
  if (existing.length === 0) return;
  const live = await readLive(
    g.client,
    set.customer_id,
    existing.map((c) => ({ collection: COLLECTION[c.resource_kind], resourceName: c.resource_name! })),
    g.loginCustomerId,
  );
  const stale = existing.filter((c) => {
    const before = json(c.before_json) ?? {};
    const now = live.get(c.resource_name!);
    // Gone at Google: nothing to overwrite; Google refuses that change with its own reason.
    if (!now || now.fields.status === "REMOVED") return false;
    const keys = c.operation === "update" ? Object.keys(json(c.after_json) ?? {}) : ["status"];
    return keys.some((k) => k in before && !sameValue(now.fields[k] ?? null, before[k]));
  });
  if (stale.length === 0) return;
  const names =
    stale
      .slice(0, 3)
      .map((c) => `"${c.label}"`)
      .join(", ") + (stale.length > 3 ? ` and ${stale.length - 3} more` : "");
  const message = `Not applied: ${names} changed at Google since this was reviewed. Nothing was sent; validate again to review the change against the current values.`;
  await asHolder(db, lease, async (trx) => {
    await trx
      .updateTable("change_sets")
      .set({ status: "proposed", approved_at: null, error: message, lease_holder: null, lease_expires_at: null })
      .where("id", "=", set.id)
      .where("status", "=", "applying")
      .execute();
    await trx.updateTable("changes").set({ status: "pending" }).where("change_set_id", "=", set.id).where("status", "=", "applying").execute();
  });
  throw new ConflictError(message);
}

/** The set's outcome once none of its changes is in flight, written by the lease's holder, which lets the lease go. */
async function finishSet(db: DB, lease: Lease) {
  await asHolder(db, lease, async (trx) => {
    const changes = await trx.selectFrom("changes").select(["status", "error_message"]).where("change_set_id", "=", lease.setId).execute();
    if (changes.some((c) => c.status === "applying")) return;
    const applied = changes.filter((c) => c.status === "applied").length;
    const status = applied === changes.length ? "applied" : applied === 0 ? "failed" : "partially_applied";
    const firstError = changes.find((c) => c.status === "failed")?.error_message ?? null;
    await trx
      .updateTable("change_sets")
      .set({ status, applied_at: new Date().toISOString(), error: status === "applied" ? null : firstError, lease_holder: null, lease_expires_at: null })
      .where("id", "=", lease.setId)
      .where("status", "=", "applying")
      .execute();
    // A recommendation's change set applied: the recommendation reads as applied from now on, in every list and count.
    if (status !== "failed") {
      const set = await trx.selectFrom("change_sets").select(["customer_id", "recommendation_id"]).where("id", "=", lease.setId).executeTakeFirst();
      if (set?.recommendation_id) await markApplied(trx, set.customer_id);
    }
  });
}

/**
 * The person's approval: sends the validated changes, one request per Google
 * service. The intent is committed first, with this worker's lease and a
 * settle job for later, so a crash at any point leaves "applying" rows that
 * another worker settles once the lease runs out, rather than a lost or
 * doubled write.
 */
export function applyChangeSet(userId: string, id: string, opts: ApplyOptions): Promise<ChangeSetDetail> {
  // First, before any read: no approval, no apply (whoever the caller is).
  try {
    consumeApproval(opts?.approval, userId, id);
  } catch (error) {
    return Promise.reject(error);
  }
  // Shutdown waits for an apply in progress (bounded): finishing beats leaving it to reconcile.
  return trackWork(() => applyNow(userId, id, opts));
}

async function applyNow(userId: string, id: string, opts: ApplyOptions): Promise<ChangeSetDetail> {
  const db = getDb();
  let { set, changes: proposed } = await loadSet(db, userId, id);
  // While Google Ads calls are paused (the install's budget is spent) a clear 503 now, nothing marked as applying.
  await assertGoogleAvailable(db);
  if (set.status === "proposed") ({ set, changes: proposed } = await validateChangeSet(userId, id));
  if (set.status === "invalid") throw new ConflictError("Google refused some of these changes; fix them and propose again");
  if (set.status !== "validated") throw new ConflictError(`This change set is already ${set.status.replace("_", " ")}`);
  if (set.needs_confirmation && !opts.confirmLargeMoves) {
    const message = `This moves a budget or bid by more than ${getConfig().CHANGE_CONFIRM_PERCENT}%; confirm the large change to apply it`;
    throw new ConflictError(message, { confirmLargeMoves: message });
  }
  refuseUnconfirmedRemovals(proposed, opts.confirmRemovals);
  const g = await googleFor(db, userId, set.customer_id);

  const nowMs = Date.now();
  const lease = newLease(id, "apply");
  const claimed = await db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable("change_sets")
      .set({ status: "applying", approved_at: new Date(nowMs).toISOString(), lease_holder: lease.holder, lease_expires_at: leaseUntil(nowMs) })
      .where("id", "=", id)
      .where("status", "=", "validated")
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await trx.updateTable("changes").set({ status: "applying" }).where("change_set_id", "=", id).where("status", "=", "valid").execute();
    // If this worker dies mid-apply, the set is settled by whichever instance runs this job once the lease has run out.
    await enqueueSettling(trx, id, new Date(nowMs + Math.max(LEASE_MS, RECONCILE_SETTLE_MS) + 1_000));
    return true;
  });
  if (!claimed) throw new ConflictError("This change set is already being applied");
  const beat = keepLease(db, lease);
  try {
    return await sendClaimed(db, g, userId, set, lease);
  } finally {
    beat.stop();
  }
}

/** The claimed set's changes, sent group by group while this worker holds its lease. */
async function sendClaimed(db: DB, g: Google, userId: string, set: ChangeSet, lease: Lease): Promise<ChangeSetDetail> {
  const id = set.id;
  const { changes } = await loadSet(db, userId, id);
  // After the claim, so a second Apply cannot slip in between the check and the send.
  await refuseIfChangedSinceReview(db, g, set, changes, lease);
  const atomic = set.atomic === 1;
  let stopReason: string | null = null;
  let unknown = false;
  for (const group of groups(changes.filter((c) => c.status === "applying"))) {
    if (stopReason) {
      const reason = stopReason;
      await asHolder(db, lease, async (trx) => {
        for (const c of group.changes) await settleChange(trx, c.id, { status: "failed", error_code: "NOT_SENT", error_message: reason });
      });
      continue;
    }
    // Nothing is sent unless the lease is still this worker's (and now renewed for the request's time).
    await asHolder(db, lease, async () => {});
    try {
      const res = await g.client.mutate<{ results?: Array<{ resourceName?: string }>; partialFailureError?: unknown }>(
        set.customer_id,
        `${group.collection}:mutate`,
        { operations: group.changes.map((c) => JSON.parse(c.operation_json)), ...(atomic ? {} : { partialFailure: true }) },
        { loginCustomerId: g.loginCustomerId },
      );
      const { byIndex, requestId } = partialFailures(res.partialFailureError);
      const at = new Date().toISOString();
      await asHolder(db, lease, async (trx) => {
        for (const [i, c] of group.changes.entries()) {
          const failure = byIndex.get(i);
          const rn = res.results?.[i]?.resourceName;
          if (failure || !rn) {
            await settleChange(trx, c.id, {
              status: "failed",
              error_code: failure?.code ?? "UNKNOWN",
              error_message: failure?.message ?? "Google did not apply this change",
              field_path: failure?.fieldPath ?? null,
              request_id: requestId ?? g.lastRequestId() ?? null,
            });
          } else {
            await settleChange(trx, c.id, { status: "applied", result_resource_name: rn, request_id: g.lastRequestId() ?? null, applied_at: at });
          }
        }
      });
    } catch (error) {
      if (error instanceof AdsOutcomeUnknownError) {
        // Left "applying": only Google's live state can say what happened.
        unknown = true;
        if (atomic) stopReason = "Not sent: an earlier part of this change set has an unknown outcome";
        continue;
      }
      const byIndex = error instanceof GoogleAdsApiError ? apiFailures(error) : new Map<number, OpError>();
      const message = error instanceof GoogleAdsApiError ? error.userMessage : error instanceof Error ? error.message : String(error);
      const requestId = error instanceof GoogleAdsApiError ? (error.requestId ?? null) : null;
      await asHolder(db, lease, async (trx) => {
        for (const [i, c] of group.changes.entries()) {
          const own = byIndex.get(i);
          await settleChange(trx, c.id, {
            status: "failed",
            error_code: own?.code ?? (error instanceof GoogleAdsApiError ? (error.errors[0]?.code ?? "FAILED") : "FAILED"),
            error_message: own?.message ?? (byIndex.size > 0 ? "Not applied: another change in the same request was refused" : message),
            field_path: own?.fieldPath ?? null,
            request_id: requestId,
          });
        }
      });
      if (atomic) stopReason = `Not sent: an earlier part of this change set failed (${message})`;
    }
  }
  if (unknown) {
    try {
      await reconcileSet(db, lease);
    } catch (error) {
      // Google is not answering even reads: the set stays "applying" ("Settling with
      // Google…" on its page); its settle job (queued with the claim) takes it from here.
      log.warn(`Settling change set ${id} right after apply failed, retrying in the background: ${errorMessage(error)}`);
      await releaseLease(db, lease);
      await enqueueSettling(db, id, new Date(Date.now() + RECONCILE_SETTLE_MS));
    }
  } else {
    await finishSet(db, lease);
  }
  const detail = await loadSet(db, userId, id);
  await applyToReadModel(db, set.customer_id, detail.changes);
  return detail;
}

// ---- reconcile

function matchesCreate(c: Change, r: LiveResource): boolean {
  const after = json(c.after_json) ?? {};
  if (r.fields.status === "REMOVED") return false;
  if (c.resource_kind === "ad") {
    return r.fields.adGroup === after.adGroup && JSON.stringify(r.fields.headlines) === JSON.stringify(after.headlines);
  }
  const parentKey = c.resource_kind === "campaign_negative_keyword" ? "campaign" : "adGroup";
  return (
    r.fields[parentKey] === after[parentKey] &&
    String(r.fields.text).toLowerCase() === String(after.text).toLowerCase() &&
    r.fields.matchType === after.matchType &&
    (c.resource_kind === "campaign_negative_keyword" || (r.fields.negative === true) === (c.resource_kind === "negative_keyword"))
  );
}

/** Settles one set's "applying" changes from Google's live state, as the holder of its lease; never sends a write. */
async function reconcileSet(db: DB, lease: Lease): Promise<{ applied: number; failed: number }> {
  const { set, changes } = await loadSet(db, null, lease.setId);
  const inFlight = changes.filter((c) => c.status === "applying");
  if (inFlight.length === 0) {
    await finishSet(db, lease);
    return { applied: 0, failed: 0 };
  }
  const g = await googleFor(db, set.user_id, set.customer_id);
  const existing = inFlight.filter((c) => c.operation !== "create");
  const live = existing.length
    ? await readLive(
        g.client,
        set.customer_id,
        existing.map((c) => ({ collection: COLLECTION[c.resource_kind], resourceName: c.resource_name! })),
        g.loginCustomerId,
      )
    : new Map<string, LiveResource>();

  // Resources our recorded creates already account for cannot be claimed twice.
  const claimed = new Set(
    (
      await db.selectFrom("changes").select("result_resource_name").where("result_resource_name", "is not", null).where("operation", "=", "create").execute()
    ).map((r) => r.result_resource_name),
  );
  const creates = inFlight.filter((c) => c.operation === "create");
  const candidates = new Map<string, LiveResource[]>();
  for (const collection of ["adGroupCriteria", "campaignCriteria", "adGroupAds"] as const) {
    const mine = creates.filter((c) => COLLECTION[c.resource_kind] === collection);
    if (mine.length === 0) continue;
    const parentKey = collection === "campaignCriteria" ? "campaign" : "adGroup";
    const parents = mine.map((c) => String(json(c.after_json)?.[parentKey]));
    const field = collection === "campaignCriteria" ? "campaign" : "ad_group";
    candidates.set(collection, await readChildren(g.client, set.customer_id, collection, field, parents, g.loginCustomerId));
  }

  let applied = 0;
  let failed = 0;
  const at = new Date().toISOString();
  const verdicts: Array<{ id: string; patch: ChangePatch & { status: "applied" | "failed" } }> = [];
  for (const c of inFlight) {
    let result: string | null = null;
    if (c.operation === "create") {
      const found = (candidates.get(COLLECTION[c.resource_kind]) ?? []).find((r) => !claimed.has(r.resourceName) && matchesCreate(c, r));
      if (found) {
        claimed.add(found.resourceName);
        result = found.resourceName;
      }
    } else {
      const now = live.get(c.resource_name!);
      const after = json(c.after_json) ?? {};
      const done =
        c.operation === "remove" ? !now || now.fields.status === "REMOVED" : !!now && Object.keys(after).every((k) => sameValue(now.fields[k], after[k]));
      if (done) result = c.resource_name;
    }
    if (result) {
      applied += 1;
      verdicts.push({ id: c.id, patch: { status: "applied", result_resource_name: result, applied_at: at, error_code: null, error_message: null } });
    } else {
      failed += 1;
      verdicts.push({ id: c.id, patch: { status: "failed", error_code: "NOT_APPLIED", error_message: NOT_APPLIED } });
    }
  }
  await asHolder(db, lease, async (trx) => {
    for (const v of verdicts) await settleChange(trx, v.id, v.patch);
  });
  await finishSet(db, lease);
  return { applied, failed };
}

/**
 * A request the crashed process had sent may still be running at Google when
 * the server restarts; judging it before it lands would call an applied change
 * failed. Intents younger than this are waited for before they are judged.
 */
export const RECONCILE_SETTLE_MS = 30_000;

export interface ReconcileOptions {
  db?: DB;
  settleMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** What settling one set came to: done (or nothing to do), or not yet (its holder's lease, or the settle delay, lasts until `at`). */
export type SettleResult = { settled: true; applied: number; failed: number } | { settled: false; at: Date };

/**
 * Settles one change set left "applying" (a crash, an unknown outcome)
 * against Google's live state: applied or failed, never re-sent. Only once
 * nobody holds its lease and `settleMs` have passed since its approval (a
 * request the last holder sent may still be landing at Google); until then it
 * says when to come back. Throws when Google cannot be read (the set stays
 * "applying" and its lease is let go, for the next try).
 */
export async function settleInFlightSet(id: string, opts: Omit<ReconcileOptions, "sleep"> = {}): Promise<SettleResult> {
  const db = opts.db ?? getDb();
  const now = (opts.now ?? Date.now)();
  const row = await db.selectFrom("change_sets").select(["status", "approved_at", "lease_expires_at"]).where("id", "=", id).executeTakeFirst();
  if (!row || row.status !== "applying") return { settled: true, applied: 0, failed: 0 };
  const notBefore = Math.max(
    (row.approved_at ? Date.parse(row.approved_at) : 0) + (opts.settleMs ?? RECONCILE_SETTLE_MS),
    row.lease_expires_at ? Date.parse(row.lease_expires_at) : 0,
  );
  const lease = newLease(id, "settle");
  if (notBefore > now || !(await takeLease(db, lease, now))) {
    const again = await db.selectFrom("change_sets").select(["status", "lease_expires_at"]).where("id", "=", id).executeTakeFirst();
    if (!again || again.status !== "applying") return { settled: true, applied: 0, failed: 0 };
    return { settled: false, at: new Date(Math.max(notBefore, again.lease_expires_at ? Date.parse(again.lease_expires_at) : 0, now) + 1_000) };
  }
  const beat = keepLease(db, lease);
  try {
    return { settled: true, ...(await reconcileSet(db, lease)) };
  } catch (error) {
    await releaseLease(db, lease).catch(() => undefined);
    throw error;
  } finally {
    beat.stop();
  }
}

/**
 * Every change set left "applying" whose holder is gone, settled now, one
 * after the other (waiting for each one's settle delay and lease). What a
 * restarted single instance does; the settle jobs do the same per set.
 */
export async function reconcileInFlight(opts: ReconcileOptions = {}): Promise<{ sets: number; applied: number; failed: number; errors: string[] }> {
  const db = opts.db ?? getDb();
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const sets = await db.selectFrom("change_sets").select("id").where("status", "=", "applying").orderBy("approved_at").execute();
  const total = { sets: sets.length, applied: 0, failed: 0, errors: [] as string[] };
  for (const { id } of sets) {
    try {
      let r = await settleInFlightSet(id, { ...opts, db, now });
      // A live holder (another instance's apply) is waited for once; it settles the set itself.
      if (!r.settled) {
        await sleep(Math.max(0, r.at.getTime() - now()));
        r = await settleInFlightSet(id, { ...opts, db, now });
      }
      if (r.settled) {
        total.applied += r.applied;
        total.failed += r.failed;
      }
    } catch (error) {
      // One account's outage must not block the others; the set stays "applying" for the next try.
      total.errors.push(`${id}: ${errorMessage(error)}`);
    }
  }
  return total;
}

// ---- revert

function inverse(c: Change): DraftChange | null {
  const before = json(c.before_json);
  const after = json(c.after_json);
  const rn = c.result_resource_name ?? c.resource_name;
  if (!rn) return null;
  if (c.operation === "create") {
    return {
      kind: c.resource_kind,
      operation: "remove",
      resourceName: rn,
      label: `Undo: ${c.label}`,
      before: after,
      after: { status: "REMOVED" },
      op: { remove: rn },
    };
  }
  if (c.operation === "update" && before && after) {
    const fields: Record<string, unknown> = {};
    for (const k of Object.keys(after)) fields[k] = before[k];
    // A bid that was unset cannot be restored by a value: clearing it is Google's way back.
    const wire: Record<string, unknown> = { resourceName: rn };
    for (const [k, v] of Object.entries(fields)) if (v !== null && v !== undefined) wire[k] = typeof v === "number" ? String(v) : v;
    return {
      kind: c.resource_kind,
      operation: "update",
      resourceName: rn,
      label: `Undo: ${c.label}`,
      before: after,
      after: fields,
      op: { update: wire, updateMask: Object.keys(fields).join(",") },
    };
  }
  if (c.operation === "remove" && before && ["keyword", "negative_keyword", "campaign_negative_keyword"].includes(c.resource_kind)) {
    // Google cannot un-remove; an equal new criterion is the inverse.
    const create: Record<string, unknown> =
      c.resource_kind === "campaign_negative_keyword"
        ? { campaign: before.campaign, negative: true, keyword: { text: before.text, matchType: before.matchType } }
        : {
            adGroup: before.adGroup,
            status: before.status === "PAUSED" ? "PAUSED" : "ENABLED",
            keyword: { text: before.text, matchType: before.matchType },
            ...(before.negative ? { negative: true } : {}),
            ...(!before.negative && typeof before.cpcBidMicros === "number" ? { cpcBidMicros: String(before.cpcBidMicros) } : {}),
          };
    return {
      kind: c.resource_kind,
      operation: "create",
      resourceName: null,
      label: `Undo: ${c.label}`,
      before: null,
      after: { ...before, status: create.status ?? "ENABLED" },
      op: { create },
    };
  }
  return null;
}

export function isRevertable(set: Pick<ChangeSet, "status">, changes: Change[], alreadyReverted: boolean): boolean {
  if (alreadyReverted || !["applied", "partially_applied"].includes(set.status)) return false;
  return changes.some((c) => c.status === "applied" && inverse(c) !== null);
}

/** A new proposed change set undoing the applied changes of `changeSetId`; it goes through the same review. */
/** A revert of this set is already open (waiting for review or being applied): one at a time. */
export class OpenRevertError extends ConflictError {
  constructor(readonly changeSetId: string | null) {
    super(`A revert of this change set is already open${changeSetId ? ` (change set ${changeSetId})` : ""}: review or discard it first`);
  }
}

/** Revert sets that are open (unique per reverted set, see 0010_one_open_revert). */
const OPEN_REVERT: ChangeSet["status"][] = ["proposed", "validated", "invalid", "applying"];

async function openRevertOf(db: DB, changeSetId: string) {
  return db.selectFrom("change_sets").select("id").where("revert_of", "=", changeSetId).where("status", "in", OPEN_REVERT).executeTakeFirst();
}

export async function proposeRevert(userId: string, changeSetId: string): Promise<string> {
  const db = getDb();
  const { set, changes } = await loadSet(db, userId, changeSetId);
  const open = await openRevertOf(db, changeSetId);
  if (open) throw new OpenRevertError(open.id);
  const reverted = await db
    .selectFrom("change_sets")
    .select("id")
    .where("revert_of", "=", changeSetId)
    .where("status", "in", ["applied", "partially_applied", "applying"])
    .executeTakeFirst();
  if (!isRevertable(set, changes, !!reverted))
    throw new ConflictError(reverted ? "This change set was already reverted" : "Nothing in this change set can be reverted");
  const drafts = changes
    .filter((c) => c.status === "applied")
    .map(inverse)
    .filter((d): d is DraftChange => d !== null)
    .reverse();
  try {
    return await storeChangeSet(db, userId, set.customer_id, drafts, { title: `Revert: ${set.title}`, revertOf: changeSetId, atomic: set.atomic === 1 });
  } catch (error) {
    // A concurrent Revert won the race for the unique index.
    if (isUniqueViolation(error)) throw new OpenRevertError((await openRevertOf(db, changeSetId))?.id ?? null);
    throw error;
  }
}
