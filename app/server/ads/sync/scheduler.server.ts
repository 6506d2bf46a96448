import { createHash } from "node:crypto";
import { z } from "zod";
import { getDb, type DB } from "../../db/db.server";
import { defineJob, enqueue } from "../../jobs/jobs.server";
import { getConfig } from "../../env.server";
import { log } from "../../log.server";
import { pruneOperations, quotaUsage } from "../quota.server";
import { syncAccount } from "./runner.server";
import { SYNC_STEP_COUNT } from "./streams.server";
import { STRUCTURE_EVERY_MS } from "./refresh.server";

/**
 * Refreshes on a schedule (issue 26, ADR 021): pages never start a sync; each
 * connected account (one whose first sync someone started, at the Google
 * connection or by making it active) is refreshed every SYNC_INTERVAL_MINUTES,
 * at its own minute of the interval (a hash of its id) so accounts do not all
 * start at once, as far as the install's Google Ads budget allows. An account
 * whose users have all left (no user with an active Google connection lists
 * it) is not refreshed.
 *
 * `runSyncSchedulerTick` plans (every minute, on one instance: the job queue's
 * cron) and enqueues one `sync-account` job per account due; `syncAccountJob`
 * runs one.
 */

/** A sync that reads every stream (a first sync, the day's whole re-read): one operation per stream. */
const FULL_ESTIMATE = SYNC_STEP_COUNT - 1;

export const SyncAccountData = z.object({ userId: z.string().min(1), customerId: z.string().regex(/^\d{10}$/) });
export type SyncAccountData = z.infer<typeof SyncAccountData>;

export interface SchedulerDeps {
  /** Queues the refresh; resolves null when one is queued or running already (singleton per account). */
  enqueue: (data: SyncAccountData) => Promise<unknown>;
}

export interface TickResult {
  /** Accounts due now. */
  due: number;
  /** Refreshes queued by this tick. */
  enqueued: SyncAccountData[];
  /** Why some or all due accounts wait (budget, pause); null when none had to. */
  heldBack: string | null;
}

/** The account's minute within the interval: the same on every instance, spread evenly over accounts. */
export function phaseOf(customerId: string, intervalMs: number): number {
  return createHash("sha256").update(customerId).digest().readUInt32BE(0) % intervalMs;
}

/** The start of the account's current slot: its phase plus a whole number of intervals, at or before `now`. */
export function slotStart(customerId: string, intervalMs: number, now: Date): number {
  const phase = phaseOf(customerId, intervalMs);
  return Math.floor((now.getTime() - phase) / intervalMs) * intervalMs + phase;
}

interface Candidate {
  customerId: string;
  userId: string;
  startedAt: string | null;
  status: string | null;
  detailStatus: string | null;
  heartbeatAt: string | null;
  estimate: number;
}

/**
 * Connected accounts (not managers) with the user to sync them as: one whose Google connection is
 * active, preferring one who has it open.
 */
async function candidates(db: DB, now: Date): Promise<Candidate[]> {
  const rows = await db
    .selectFrom("ads_accounts as a")
    .innerJoin("google_connections as g", "g.id", "a.connection_id")
    .innerJoin("users as u", "u.id", "a.user_id")
    .leftJoin("ads_sync_state as s", "s.customer_id", "a.customer_id")
    .select([
      "a.customer_id",
      "a.user_id",
      "u.active_customer_id",
      "s.started_at",
      "s.status",
      "s.detail_status",
      "s.heartbeat_at",
      "s.refresh_operations",
      "s.refresh_kind",
      "s.structure_read_at",
    ])
    .where("a.manager", "=", 0)
    .where("g.status", "=", "active")
    .orderBy("a.customer_id")
    .orderBy("a.user_id")
    .execute();
  const byAccount = new Map<string, Candidate & { active: boolean }>();
  for (const r of rows) {
    const active = r.active_customer_id === r.customer_id;
    // What the next sync will read: everything (first, or the day's whole re-read), or about what the last refresh read.
    const whole = r.structure_read_at === null || now.getTime() - Date.parse(r.structure_read_at) >= STRUCTURE_EVERY_MS;
    const estimate = whole ? FULL_ESTIMATE : r.refresh_kind === "incremental" && r.refresh_operations ? r.refresh_operations : FULL_ESTIMATE;
    const seen = byAccount.get(r.customer_id);
    if (seen && (seen.active || !active)) continue;
    byAccount.set(r.customer_id, {
      customerId: r.customer_id,
      userId: r.user_id,
      active,
      startedAt: r.started_at,
      status: r.status,
      detailStatus: r.detail_status,
      heartbeatAt: r.heartbeat_at,
      estimate: Math.max(1, estimate),
    });
  }
  return [...byAccount.values()];
}

const STALE_MS = 15 * 60_000;
const running = (c: Candidate, now: Date) =>
  (c.status === "running" || c.detailStatus === "running") && c.heartbeatAt !== null && now.getTime() - Date.parse(c.heartbeatAt) < STALE_MS;

/**
 * Plans this minute: which accounts are due (their slot began since their last sync started, and
 * at least half an interval ago), most overdue first, as many as fit in what scheduled refreshes
 * may still spend of the 24-hour budget; queues them.
 */
export async function runSyncSchedulerTick(now: Date = new Date(), deps: SchedulerDeps = jobQueue, db: DB = getDb()): Promise<TickResult> {
  const intervalMs = getConfig().SYNC_INTERVAL_MINUTES * 60_000;
  await pruneOperations(db, now);
  const all = await candidates(db, now);
  const due = all
    .filter((c) => !running(c, now))
    .filter((c) => {
      // Refreshes keep up accounts someone opened (the first sync runs when a person makes one active);
      // a manager may list hundreds nobody looks at, which are not imported in the background.
      if (c.startedAt === null) return false;
      const started = Date.parse(c.startedAt);
      return started < slotStart(c.customerId, intervalMs, now) && now.getTime() - started >= intervalMs / 2;
    })
    .sort((a, b) => a.startedAt!.localeCompare(b.startedAt!));
  if (due.length === 0) return { due: 0, enqueued: [], heldBack: null };

  const usage = await quotaUsage(db, now);
  const pausedUntil = usage.pausedUntil ?? usage.backgroundHeldUntil;
  if (pausedUntil)
    return { due: due.length, enqueued: [], heldBack: `Google Ads calls are paused until ${pausedUntil}: ${usage.pauseReason ?? "rate limited"}` };
  // After short-term rate limiting: one refresh at a time.
  const busy = all.filter((c) => running(c, now)).length;
  const slots = usage.slowDown ? Math.max(0, 1 - busy) : Number.POSITIVE_INFINITY;
  let room = usage.backgroundBudget - usage.used;
  const enqueued: SyncAccountData[] = [];
  let heldBack: string | null = null;
  for (const c of due) {
    if (enqueued.length >= slots) {
      heldBack = "Google Ads is rate limiting this install: one refresh at a time";
      break;
    }
    if (c.estimate > room) {
      heldBack = `The Google Ads budget for scheduled refreshes is spent: ${usage.used} of ${usage.budget} operations in the last 24 hours`;
      break;
    }
    room -= c.estimate;
    const data = { userId: c.userId, customerId: c.customerId };
    await deps.enqueue(data);
    enqueued.push(data);
  }
  return { due: due.length, enqueued, heldBack };
}

/** The `sync-account` job: one scheduled refresh. Its outcome (failures included, with why) is the account's sync state. */
export async function syncAccountJob(data: SyncAccountData, opts: { now?: () => Date; runId?: string } = {}): Promise<void> {
  const { userId, customerId } = SyncAccountData.parse(data);
  const state = await syncAccount(userId, customerId, { purpose: "background", now: opts.now, runId: opts.runId });
  if (state.status === "failed") log.warn(`Scheduled refresh of ${customerId} failed: ${state.lastError}`);
}

const jobQueue: SchedulerDeps = { enqueue: (data) => enqueue("sync-account", data) };

// The jobs (app/server/jobs): one refresh per account at a time across every instance (its job id is
// the sync's claim, so a retry after its instance died takes the claim over); the tick once a minute
// across the install (the queue's cron).
defineJob("sync-account", {
  schema: SyncAccountData,
  singletonKey: (d) => d.customerId,
  handler: (data, ctx) => syncAccountJob(data, { runId: ctx.jobId }),
});
defineJob("sync-scheduler-tick", {
  schema: z.object({}),
  handler: async () => {
    const r = await runSyncSchedulerTick(new Date(), jobQueue);
    if (r.heldBack) log.info(`Sync scheduler: ${r.enqueued.length} of ${r.due} due refreshes queued; ${r.heldBack}`);
  },
});
