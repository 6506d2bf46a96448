import { sql, type Kysely, type UpdateObject } from "kysely";
import type { z } from "zod";
import type { DateRange } from "~/lib/dates";
import { ReconnectNeededError } from "../../auth/google-connection.server";
import { DomainError, NotFoundError } from "../../domain-errors.server";
import { createDb } from "../../db/db.server";
import type { Database } from "../../db/schema";
import { getConfig } from "../../env.server";
import { makePeriod, type Period } from "../../optimizer/data.server";
import { analysisBeat, beginAnalysis, endAnalysis } from "../../optimizer/in-flight.server";
import { queueEngineRun } from "../../optimizer/engine-job.server";
import { totalsMarker, WindowTotalsSum, writeSummedTotals, writeWindowTotals } from "../../optimizer/window-totals.server";
import { requireAdsContext } from "../context.server";
import { AdsClientError, AdsResponseError, type AdsClient } from "../client.server";
import { withStager, type Dialect, type Stager } from "./bulk-insert.server";
import { iso, SyncAccessError, syncRange } from "./state.server";
import type { QuotaPurpose } from "../quota.server";
import { canRefresh, planRefresh, type LastSync, type ReadTask, type RefreshPlan } from "./refresh.server";
import { INTERN_MAX_LENGTH } from "./row-plan.server";
import { decodeBatch } from "./batch-decoder.server";
import {
  DETAIL_STEP_COUNT,
  DETAIL_STEPS,
  DETAIL_TABLES,
  OVERVIEW_STEP_COUNT,
  OVERVIEW_STEPS,
  OVERVIEW_TABLES,
  CHANGES_LABEL,
  SAVE_LABEL,
  STEPS,
  SYNC_STEP_COUNT,
  SYNCED_TABLES,
  SYNC_STEPS,
  type AnyStep,
  type StagedTable,
  type Step,
} from "./streams.server";
import { holdWhileFlagged } from "../../test-hold.server";
import { errorMessage, log } from "../../log.server";

/**
 * The work of one sync, after the runner has claimed the account: read each
 * stream batch by batch, validate every row, stage it, and switch the
 * account's rows over in one transaction at the end (an account's first
 * sync: in two stages, each with its own transaction; see runOn). Runs in a worker thread
 * (worker.server.ts) or, with an injected client, in the caller's thread; in
 * both it uses its own database connection, so staging never holds a lock on
 * the connection the pages use.
 */

export interface SyncJob {
  userId: string;
  customerId: string;
  /** The claim this run holds in ads_sync_state. */
  runId: string;
  clock: () => Date;
  /** Defaults to a client acting as the user's Google connection. */
  client?: AdsClient;
  /** After every stream, once the progress is stored. */
  onStep?: () => Promise<void>;
  /** Tests: after the switch-over that makes the data current, before its window totals are written. */
  beforeTotals?: () => Promise<void>;
  /** Read everything, not only what can have changed (tests, the bench; otherwise the job decides). */
  full?: boolean;
  /** Whose budget the requests come out of (quota.server.ts): a scheduled refresh's, or a person's. */
  purpose?: QuotaPurpose;
}

/**
 * Runs the job on a connection of its own; resolves once the outcome (ok or
 * failed, of both stages for a first sync) is stored and, after a success
 * with every table in, the recommendations engine's job is queued
 * (optimizer/engine-job.server.ts).
 */
export async function runSyncJob(job: SyncJob): Promise<void> {
  const config = getConfig();
  const { db, dialect } = createDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    // One connection for the whole job: TEMP tables belong to the connection that made them.
    const analysisId = await db.connection().execute((conn) => runOn(conn, dialect, job));
    // Recommendations follow the data: the engine job (one per account) reads the tables this run just wrote.
    if (analysisId) await queueEngineRun(db, job.customerId, analysisId, job.clock());
  } finally {
    await db.destroy();
  }
}

class SupersededError extends Error {}

/**
 * The failure could not be written (the database failing too: "disk I/O error"): the run must not stay
 * "running", so the failure goes up to the runner, which records it (and retries) with this message.
 */
export class SyncOutcomeNotStoredError extends Error {
  name = "SyncOutcomeNotStoredError";
}
const outcomeNotStored = (message: string) => (writeError: unknown) => {
  throw new SyncOutcomeNotStoredError(`${message} (${errorMessage(writeError)} while recording it)`);
};

/** Columns of ads_sync_state to set, values or SQL (data_version + 1). */
type StateUpdate = UpdateObject<Database, "ads_sync_state">;
type Update = (values: StateUpdate) => Promise<boolean>;

/**
 * When this run's data was switched in (status "ok") and is complete: the id
 * of the engine run recorded as in flight with it; otherwise null.
 *
 * An account's first sync (no successful sync before) runs in two stages
 * (ADR 013, amendment "staged first sync"): stage 1 reads every stream but
 * the three large daily ones and switches those tables in (status "ok": the
 * dashboard and the campaign list are complete); stage 2 reads the keyword,
 * ad and search-term performance and switches those in with the engine's
 * window totals. The engine runs only after stage 2. Later syncs switch
 * everything over at once.
 */
async function runOn(conn: Kysely<Database>, dialect: Dialect, job: SyncJob): Promise<string | null> {
  const { customerId, runId, clock } = job;
  // Changes made after this instant may be missing from what this run reads: the next refresh asks for them.
  const startedAt = iso(clock());
  // The step under way, for the failure message ("Loading keywords failed: …").
  const at = { label: STEPS[0].label as string };
  // Google Ads API operations this run spent, for the scheduler's estimate of the next.
  let spent = 0;
  const update: Update = async (values) => {
    const now = iso(clock());
    const done = await conn
      .updateTable("ads_sync_state")
      .set({ ...values, refresh_operations: spent, heartbeat_at: now, updated_at: now })
      .where("customer_id", "=", customerId)
      .where("run_id", "=", runId)
      .executeTakeFirst();
    return Number(done.numUpdatedRows) === 1;
  };
  try {
    const { account, client, loginCustomerId } = await requireAdsContext(job.userId, customerId, {
      db: conn,
      client: job.client,
      purpose: job.purpose ?? "interactive",
      clock,
      onRecorded: (operations) => (spent += operations),
    }).catch((error: unknown) => {
      throw error instanceof NotFoundError ? new SyncAccessError(error.message) : error;
    });
    const range = syncRange(account.time_zone, clock());
    const read: Read = (tasks, stager, afterStep, sums) =>
      readTasks(client, customerId, loginCustomerId, tasks, sums ? summing(stager, sums) : stager, (label) => (at.label = label), afterStep);
    const writeTotals: WriteTotals = async (period, sums) => {
      await job.beforeTotals?.();
      try {
        await conn.transaction().execute(async (trx) => {
          // Only over this run's data: a newer sync may have switched its own in since (it left the marker NULL).
          if (!(await claimAndSet(trx, customerId, runId, { window_totals_for: totalsMarker(period) }))) throw new SupersededError();
          if (sums?.ready()) await writeSummedTotals(trx, customerId, sums.rows(customerId));
          else await writeWindowTotals(trx, customerId, period);
        });
      } catch (error) {
        // Without them (marker NULL) the engine aggregates the daily rows itself: slower, the same figures.
        if (!(error instanceof SupersededError)) log.warn(`Sync of ${customerId}: the engine's window totals were not stored: ${errorMessage(error)}`);
      }
    };
    // SQLite: a run that reads every daily row sums the engine's window totals as they are staged (ADR 013).
    const newSums = () => (dialect === "sqlite" ? new WindowTotalsSum(makePeriod(range.from, range.to, null)) : undefined);
    const run: Run = { conn, dialect, job, range, read, writeTotals, newSums, update, at, startedAt };

    const previous = await conn
      .selectFrom("ads_sync_state")
      .select(["last_success_at", "detail_status", "data_from", "data_to", "changes_since", "structure_read_at"])
      .where("customer_id", "=", customerId)
      .where("run_id", "=", runId)
      .executeTakeFirst();
    if (!previous) throw new SupersededError();
    if (previous.last_success_at === null) return await stagedFirstSync(run);
    const last: LastSync = {
      dataFrom: previous.data_from,
      dataTo: previous.data_to,
      changesSince: previous.changes_since,
      structureReadAt: previous.structure_read_at,
    };
    // A first sync's detail import that failed, died or is being superseded left tables incomplete: only a full read fills them.
    const complete = previous.detail_status === null || previous.detail_status === "ok";
    if (!job.full && complete && canRefresh(last)) {
      at.label = CHANGES_LABEL;
      const plan = await planRefresh({
        client,
        customerId,
        loginCustomerId,
        timeZone: account.time_zone,
        now: clock(),
        range,
        last,
        lookbackDays: getConfig().SYNC_LOOKBACK_DAYS,
      });
      return await incrementalSync(run, plan);
    }
    return await fullSync(run);
  } catch (error) {
    if (error instanceof SupersededError) return null;
    const message = failureMessage(customerId, at.label, error);
    await update({ status: "failed", finished_at: iso(clock()), last_error: message, current_step: null }).catch(outcomeNotStored(message));
    return null;
  }
}

/** Reads `tasks` into the stager; `sums`: also counted into the engine's window totals. */
type Read = (tasks: readonly ReadTask[], stager: Stager, afterStep: (i: number) => Promise<void>, sums?: WindowTotalsSum) => Promise<void>;

/** What a run's ways of syncing share. */
interface Run {
  conn: Kysely<Database>;
  dialect: Dialect;
  job: SyncJob;
  /** The 90-day window this run leaves in the tables. */
  range: DateRange;
  read: Read;
  writeTotals: WriteTotals;
  newSums: () => WindowTotalsSum | undefined;
  update: Update;
  at: { label: string };
  startedAt: string;
}

/** Every step over the whole window, tasks as readTasks takes them. */
const wholeWindow = (steps: readonly AnyStep[], range: DateRange): ReadTask[] => steps.map((step) => ({ step, range }));

/** What a sync that read every entity table whole leaves for the next refresh (0120). */
const readEverything = (startedAt: string): StateUpdate => ({ changes_since: startedAt, structure_read_at: startedAt, refresh_kind: "full" });

/** Every stream over the whole window, switched over at once (a later sync that cannot be incremental). */
async function fullSync(run: Run): Promise<string | null> {
  const { conn, dialect, job, range, update, at } = run;
  const { customerId, runId, clock } = job;
  const sums = run.newSums();
  const analysisId = await withStager<string | null>(conn, dialect, SYNCED_TABLES, async (stager) => {
    await run.read(
      wholeWindow(SYNC_STEPS, range),
      stager,
      async (i) => {
        await update({ progress_done: i + 1, current_step: STEPS[i + 1]?.label ?? SAVE_LABEL });
        await job.onStep?.();
      },
      sums,
    );

    at.label = SAVE_LABEL;
    const finishedAt = iso(clock());
    const period = makePeriod(range.from, range.to, finishedAt);
    let inFlight: string | null = null;
    const switched = await stager.switchOver(
      customerId,
      (trx) =>
        claimAndSet(trx, customerId, runId, {
          ...succeeded(finishedAt, range, SYNC_STEP_COUNT, stager.counts()),
          ...readEverything(run.startedAt),
          // The totals of the previous data no longer fit: none until writeTotals, just after.
          window_totals_for: null,
          ...DETAIL_COMPLETE,
        }),
      async (trx) => {
        // The engine run that follows, recorded in flight in the same commit as status "ok": no reader
        // sees the new data without it and says "No analysis yet" (the wall clock: readers compare with theirs).
        inFlight = await beginAnalysis(trx, customerId, "sync");
      },
    );
    if (!switched) throw new SupersededError();
    // The engine's window totals, from the rows just switched in (ADR 010 and 013, amendments).
    await run.writeTotals(period, sums);
    return inFlight;
  });
  await refreshPlannerStatistics(conn, dialect, SYNCED_TABLES);
  return analysisId;
}

/**
 * A refresh (refresh.server.ts): the days still moving and the entities that changed, merged into the
 * stored data in one switch-over; the window totals are aggregated from the tables afterwards.
 */
async function incrementalSync(run: Run, plan: RefreshPlan): Promise<string | null> {
  const { conn, dialect, job, range, update, at } = run;
  const { customerId, runId, clock } = job;
  // Checking for changes was the first step; then each stream, then saving.
  const total = plan.tasks.length + 2;
  await update({ progress_done: 1, progress_total: total, current_step: plan.tasks[0]?.step.label ?? SAVE_LABEL });
  await job.onStep?.();
  const analysisId = await withStager<string | null>(conn, dialect, plan.tables, async (stager) => {
    await run.read(plan.tasks, stager, async (i) => {
      await update({ progress_done: i + 2, current_step: plan.tasks[i + 1]?.step.label ?? SAVE_LABEL });
      await job.onStep?.();
    });
    at.label = SAVE_LABEL;
    const finishedAt = iso(clock());
    const period = makePeriod(range.from, range.to, finishedAt);
    let inFlight: string | null = null;
    const switched = await stager.switchOver(
      customerId,
      (trx) =>
        claimAndSet(trx, customerId, runId, {
          ...succeeded(finishedAt, range, total, stager.counts()),
          changes_since: run.startedAt,
          ...(plan.structural ? { structure_read_at: run.startedAt } : {}),
          refresh_kind: "incremental",
          window_totals_for: null,
        }),
      async (trx) => {
        inFlight = await beginAnalysis(trx, customerId, "sync");
      },
      plan.scopes,
    );
    if (!switched) throw new SupersededError();
    // Only part of the daily rows was read: the totals come from the tables.
    await run.writeTotals(period);
    return inFlight;
  });
  await refreshPlannerStatistics(conn, dialect, plan.tables);
  return analysisId;
}

/**
 * Writes the engine's window totals for `period` (ADR 010, amendment) in a transaction of their
 * own, right after the switch-over that made the data they sum current, with the marker that
 * vouches for them (ADR 013, amendment "totals after the switch-over").
 */
type WriteTotals = (period: Period, sums?: WindowTotalsSum) => Promise<void>;

/** The stager, with every staged (or dropped) batch also counted into the window totals. */
function summing(stager: Stager, sums: WindowTotalsSum): Stager {
  return {
    append(table, columns, rows) {
      sums.add(table, columns, rows);
      return stager.append(table, columns, rows);
    },
    reset(table) {
      sums.reset(table);
      return stager.reset(table);
    },
    counts: () => stager.counts(),
    switchOver: (customerId, claim, derive, scopes) => stager.switchOver(customerId, claim, derive, scopes),
    dispose: () => stager.dispose(),
  };
}

/** Reads `tasks` into the stager, one stream after the other; `afterStep(i)` once task i is staged. */
async function readTasks(
  client: AdsClient,
  customerId: string,
  loginCustomerId: string | undefined,
  tasks: readonly ReadTask[],
  stager: Stager,
  onLabel: (label: string) => void,
  afterStep: (i: number) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < tasks.length; i++) {
    const { step: s, range, filter } = tasks[i];
    onLabel(s.label);
    let columns: readonly string[] | undefined;
    let rowIndex = 0;
    const plan = s.compiled;
    await client.searchStreamEach(
      customerId,
      s.query(range, filter),
      async (batch) => {
        const rows = stageBatch(s, batch, rowIndex, customerId, (names) => (columns ??= names));
        rowIndex += batch.length;
        await stager.append(s.table, columns!, rows);
      },
      {
        loginCustomerId,
        // The large streams' plain batches, read straight from their bytes.
        decoder: plan && {
          decode: (bytes) => decodeBatch(plan, bytes, customerId),
          onDecoded: async (rows) => {
            columns ??= plan.columns;
            rowIndex += rows.length;
            await stager.append(s.table, columns, rows as unknown[][]);
          },
        },
        onRestart: async () => {
          rowIndex = 0;
          await stager.reset(s.table);
        },
      },
    );
    await afterStep(i);
  }
}

/** What a switch-over that makes the data "ok" writes. */
function succeeded(finishedAt: string, range: DateRange, steps: number, rowCounts: Record<string, number>): StateUpdate {
  return {
    status: "ok",
    finished_at: finishedAt,
    heartbeat_at: finishedAt,
    last_success_at: finishedAt,
    last_error: null,
    progress_done: steps,
    current_step: null,
    data_from: range.from,
    data_to: range.to,
    row_counts: JSON.stringify(rowCounts),
    // New data for the report cache's keys (ADR 018), committed with the data itself.
    data_version: sql<number>`data_version + 1`,
    updated_at: finishedAt,
  };
}

const DETAIL_COMPLETE = { detail_status: "ok", detail_step: null, detail_done: DETAIL_STEP_COUNT, detail_error: null } as const;

/**
 * Inside a switch-over's transaction, first: a run that was declared dead and
 * replaced, or superseded by a newer sync, must not overwrite the newer run's
 * data. Sets `values` when this run still holds the claim.
 */
async function claimAndSet(trx: Kysely<Database>, customerId: string, runId: string, values: StateUpdate): Promise<boolean> {
  const done = await trx.updateTable("ads_sync_state").set(values).where("customer_id", "=", customerId).where("run_id", "=", runId).executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

async function stagedFirstSync(run: Run): Promise<string | null> {
  const { conn, dialect, job, range, read, writeTotals, update, at } = run;
  const { customerId, runId, clock } = job;
  const sums = run.newSums();

  // Stage 1: everything but the detail tables, switched in like a full sync (status "ok").
  const { overviewCounts, period, analysisId } = await withStager(conn, dialect, OVERVIEW_TABLES, async (overview) => {
    await read(
      wholeWindow(OVERVIEW_STEPS, range),
      overview,
      async (i) => {
        await update({ progress_done: i + 1, current_step: OVERVIEW_STEPS[i + 1]?.label ?? SAVE_LABEL });
        await job.onStep?.();
      },
      sums,
    );
    at.label = SAVE_LABEL;
    const finishedAt = iso(clock());
    const period = makePeriod(range.from, range.to, finishedAt);
    const overviewCounts = overview.counts();
    let analysisId: string | null = null;
    const switched = await overview.switchOver(
      customerId,
      (trx) =>
        claimAndSet(trx, customerId, runId, {
          ...succeeded(finishedAt, range, OVERVIEW_STEP_COUNT, overviewCounts),
          ...readEverything(run.startedAt),
          // No window totals until the detail rows they sum are in.
          window_totals_for: null,
          detail_status: "running",
          detail_step: DETAIL_STEPS[0].label,
          detail_done: 0,
          detail_error: null,
        }),
      async (trx) => {
        // The detail tables hold nothing of this account yet, or rows no sync vouches for: none until stage 2.
        for (const table of DETAIL_TABLES) await sql`DELETE FROM ${sql.table(table)} WHERE customer_id = ${customerId}`.execute(trx);
        await trx.deleteFrom("ads_window_totals").where("customer_id", "=", customerId).execute();
        // The engine runs after stage 2; recorded in flight now, so the screens say "Analysing your data…" in between.
        analysisId = await beginAnalysis(trx, customerId, "sync");
      },
    );
    if (!switched) throw new SupersededError();
    return { overviewCounts, period, analysisId: analysisId as string | null };
  });
  await refreshPlannerStatistics(conn, dialect, OVERVIEW_TABLES);
  const inFlightId: string = analysisId!;

  // Stage 2: the keyword, ad and search-term performance. From here a failure keeps stage 1's data
  // (status stays "ok") and says so in the detail state; a newer sync (Sync now) takes the claim over.
  const beat = async () => {
    if (!(await update({}))) throw new SupersededError();
    await analysisBeat(conn, inFlightId);
  };
  at.label = DETAIL_STEPS[0].label;
  try {
    // Stage 1 is in: its progress is reported like a step's.
    await job.onStep?.();
    await holdWhileFlagged("TEST_HOLD_DETAIL_DIR", customerId, beat);
    await withStager(conn, dialect, DETAIL_TABLES, async (detail) => {
      await read(
        wholeWindow(DETAIL_STEPS, range),
        detail,
        async (i) => {
          // The claim checked at every step: a superseded import stops here rather than at its switch-over.
          if (!(await update({ detail_done: i + 1, detail_step: DETAIL_STEPS[i + 1]?.label ?? SAVE_LABEL }))) throw new SupersededError();
          await analysisBeat(conn, inFlightId);
          await job.onStep?.();
        },
        sums,
      );
      at.label = SAVE_LABEL;
      const doneAt = iso(clock());
      const done = await detail.switchOver(customerId, (trx) =>
        claimAndSet(trx, customerId, runId, {
          ...DETAIL_COMPLETE,
          row_counts: JSON.stringify({ ...overviewCounts, ...detail.counts() }),
          window_totals_for: null,
          // The detail tabs' cached reads (ADR 018) were of the empty tables: new data, new keys.
          data_version: sql<number>`data_version + 1`,
          heartbeat_at: doneAt,
          updated_at: doneAt,
        }),
      );
      if (!done) throw new SupersededError();
      // The engine's window totals, now that every table they sum is in.
      await writeTotals(period, sums);
    });
    await refreshPlannerStatistics(conn, dialect, DETAIL_TABLES);
    return inFlightId;
  } catch (error) {
    // The engine will not run on stage 1's data alone: its in-flight record goes now.
    await endAnalysis(conn, customerId, inFlightId).catch(() => undefined);
    if (error instanceof SupersededError) return null;
    const message = failureMessage(customerId, at.label, error);
    await update({ detail_status: "failed", detail_step: null, detail_error: message, finished_at: iso(clock()) }).catch(outcomeNotStored(message));
    return null;
  }
}

/** Validates and converts one batch into value arrays; `rowOffset` numbers rows across the stream for messages. */
function stageBatch(
  s: Step<z.ZodType, StagedTable>,
  batch: unknown[],
  rowOffset: number,
  customerId: string,
  columnsOf: (names: readonly string[]) => readonly string[],
): unknown[][] {
  const strings = new Map<string, string>();
  const out: unknown[][] = new Array(batch.length);
  for (let i = 0; i < batch.length; i++) {
    // The schema's way: every row of the small streams, and the rare batch of a large one the batch
    // decoder left alone (its plan's reader of parsed rows was removed: it no longer paid, ADR 021).
    const row = s.toRow(parseRow(s, batch[i], rowOffset + i), customerId) as Record<string, unknown>;
    const columns = columnsOf(s.columns ?? Object.keys(row));
    const values = new Array<unknown>(columns.length);
    for (let c = 0; c < columns.length; c++) values[c] = row[columns[c]] ?? null;
    for (let c = 0; c < values.length; c++) {
      const v = values[c];
      if (v === undefined) values[c] = null;
      else if (typeof v === "string" && v.length <= INTERN_MAX_LENGTH) {
        const shared = strings.get(v);
        if (shared === undefined) strings.set(v, v);
        else values[c] = shared;
      }
    }
    out[i] = values;
  }
  return out;
}

function parseRow(s: Step<z.ZodType, StagedTable>, row: unknown, index: number): unknown {
  const result = s.schema.safeParse(row);
  if (result.success) return result.data;
  // Which row, which field, what was wrong.
  const issue = result.error.issues[0];
  const path = issue?.path.map(String).join(".") || "(row)";
  throw new AdsResponseError(`row ${index} of ${s.label.replace(/^Loading /, "")} does not match the expected shape: ${path}: ${issue?.message}`);
}

/** "<step> failed: <why>", logged with the stack of an unexpected error. */
function failureMessage(customerId: string, label: string, error: unknown): string {
  const message = `${label} failed: ${describeFailure(error)}`;
  log.warn(`Sync of ${customerId}: ${message}${error instanceof Error && !(error instanceof AdsClientError) ? ` (${error.stack ?? error.message})` : ""}`);
  return message;
}

function describeFailure(error: unknown): string {
  // The detail says which row and field; without it "unexpected format" can't be acted on.
  if (error instanceof AdsResponseError) return error.message;
  if (error instanceof AdsClientError) return error.userMessage;
  if (error instanceof ReconnectNeededError || error instanceof DomainError) return error.message;
  return "an internal error stopped the sync. It has been logged.";
}

/**
 * PostgreSQL plans from statistics that autovacuum refreshes only a while
 * after a bulk load; until then it takes the just-loaded tables for nearly
 * empty and joins them with nested loops (measured: 2 s instead of 80 ms for a
 * 10,000-campaign list). ANALYZE samples, so it stays cheap on big tables.
 * SQLite plans these queries well without statistics, and its ANALYZE would
 * read every index in full, so it is skipped there.
 */
async function refreshPlannerStatistics(conn: Kysely<Database>, dialect: Dialect, tables: readonly string[]) {
  if (dialect !== "postgres") return;
  try {
    for (const table of tables) await sql.raw(`ANALYZE "${table}"`).execute(conn);
  } catch (error) {
    log.warn(`ANALYZE after sync failed: ${errorMessage(error)}`);
  }
}
