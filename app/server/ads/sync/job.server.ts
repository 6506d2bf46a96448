import { sql, type Kysely, type Updateable } from "kysely";
import type { z } from "zod";
import { addDays, type DateRange, yesterdayIn } from "~/lib/dates";
import { ReconnectNeededError } from "../../auth/google-connection.server";
import { DomainError, NotFoundError } from "../../domain-errors.server";
import { createDb } from "../../db/db.server";
import type { AdsSyncStateTable, Database } from "../../db/schema";
import { getConfig } from "../../env.server";
import { makePeriod } from "../../optimizer/data.server";
import { beginAnalysis } from "../../optimizer/in-flight.server";
import { runOptimizerAfterSync } from "../../optimizer/run.server";
import { totalsMarker, writeWindowTotals } from "../../optimizer/window-totals.server";
import { requireAdsContext } from "../context.server";
import { AdsClientError, AdsResponseError, type AdsClient } from "../client.server";
import { createStager, switchOver, type Dialect } from "./bulk-insert.server";
import { iso, SYNC_DAYS, SyncAccessError } from "./state.server";
import { NOT_FAST } from "./row-readers.server";
import { SAVE_LABEL, STEPS, SYNC_STEP_COUNT, SYNCED_TABLES, type StagedTable, type Step } from "./streams.server";
import { errorMessage, log } from "../../log.server";

/**
 * The work of one sync, after the runner has claimed the account: read each
 * stream batch by batch, validate every row, stage it, and switch the
 * account's rows over in one transaction at the end. Runs in a worker thread
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
}

/**
 * Runs the job on a connection of its own; resolves once the outcome (ok or
 * failed) is stored and, after a success, the recommendations engine has run
 * over the new data (in this same thread: never the request thread's work).
 */
export async function runSyncJob(job: SyncJob): Promise<void> {
  const config = getConfig();
  const { db, dialect } = createDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    // One connection for the whole job: TEMP tables belong to the connection that made them.
    const analysisId = await db.connection().execute((conn) => runOn(conn, dialect, job));
    // Recommendations follow the data: the engine reads the tables this run just wrote.
    if (analysisId) await runOptimizerAfterSync(job.customerId, db, job.clock(), analysisId);
  } finally {
    await db.destroy();
  }
}

class SupersededError extends Error {}

/**
 * One copy of each short string (ids, dates, enum values) per batch: JSON
 * gives every row its own copy, and daily rows repeat the same ids many times.
 */
const INTERN_MAX_LENGTH = 40;

/** When this run's data was switched in (status "ok"): the id of the engine run recorded as in flight with it; otherwise null. */
async function runOn(conn: Kysely<Database>, dialect: Dialect, job: SyncJob): Promise<string | null> {
  const { customerId, runId, clock } = job;
  const update = async (values: Updateable<AdsSyncStateTable>) => {
    const now = iso(clock());
    await conn
      .updateTable("ads_sync_state")
      .set({ ...values, heartbeat_at: now, updated_at: now })
      .where("customer_id", "=", customerId)
      .where("run_id", "=", runId)
      .execute();
  };

  let currentLabel: string = STEPS[0].label;
  try {
    const { account, client, loginCustomerId } = await requireAdsContext(job.userId, customerId, { db: conn, client: job.client }).catch((error: unknown) => {
      throw error instanceof NotFoundError ? new SyncAccessError(error.message) : error;
    });
    const to = yesterdayIn(account.time_zone, clock());
    const range: DateRange = { from: addDays(to, -(SYNC_DAYS - 1)), to };

    const stager = await createStager(conn, dialect, SYNCED_TABLES);
    for (let i = 0; i < STEPS.length; i++) {
      const s = STEPS[i] as Step<z.ZodType, StagedTable>;
      currentLabel = s.label;
      let columns: readonly string[] | undefined;
      let rowIndex = 0;
      await client.searchStreamEach(
        customerId,
        s.query(range),
        async (batch) => {
          const rows = stageBatch(s, batch, rowIndex, customerId, (names) => (columns ??= names));
          rowIndex += batch.length;
          await stager.append(s.table, columns!, rows);
        },
        {
          loginCustomerId,
          onRestart: async () => {
            rowIndex = 0;
            await stager.reset(s.table);
          },
        },
      );
      await update({ progress_done: i + 1, current_step: STEPS[i + 1]?.label ?? SAVE_LABEL });
      await job.onStep?.();
    }

    currentLabel = SAVE_LABEL;
    const rowCounts = stager.counts();
    const finishedAt = iso(clock());
    const period = makePeriod(range.from, range.to, finishedAt);
    let analysisId: string | null = null;
    const switched = await switchOver(
      conn,
      SYNCED_TABLES,
      customerId,
      async (trx) => {
        // Checked first, inside the transaction: a run that was declared dead and
        // replaced must not overwrite the newer run's data.
        const done = await trx
          .updateTable("ads_sync_state")
          .set({
            status: "ok",
            finished_at: finishedAt,
            heartbeat_at: finishedAt,
            last_success_at: finishedAt,
            last_error: null,
            progress_done: SYNC_STEP_COUNT,
            current_step: null,
            data_from: range.from,
            data_to: range.to,
            row_counts: JSON.stringify(rowCounts),
            window_totals_for: totalsMarker(period),
            // New data for the report cache's keys, committed with the data itself.
            data_version: sql<number>`data_version + 1`,
            updated_at: finishedAt,
          })
          .where("customer_id", "=", customerId)
          .where("run_id", "=", runId)
          .executeTakeFirst();
        return Number(done.numUpdatedRows) === 1;
      },
      async (trx) => {
        // The engine's window totals, from the rows just switched in (ADR 010, amendment).
        await writeWindowTotals(trx, customerId, period);
        // The engine run that follows, recorded in flight in the same commit as status "ok": no reader
        // sees the new data without it and says "No analysis yet" (the wall clock: readers compare with theirs).
        analysisId = await beginAnalysis(trx, customerId, "sync");
      },
    );
    if (!switched) throw new SupersededError();
    await refreshPlannerStatistics(conn, dialect);
    return analysisId;
  } catch (error) {
    if (error instanceof SupersededError) return null;
    const message = `${currentLabel} failed: ${describeFailure(error)}`;
    log.warn(`Sync of ${customerId}: ${message}${error instanceof Error && !(error instanceof AdsClientError) ? ` (${error.stack ?? error.message})` : ""}`);
    const finishedAt = iso(clock());
    await update({ status: "failed", finished_at: finishedAt, last_error: message, current_step: null }).catch(() => undefined);
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
  const fast = s.fast;
  for (let i = 0; i < batch.length; i++) {
    let values: unknown[] | undefined;
    if (fast) {
      try {
        values = fast(batch[i] as Record<string, unknown>, customerId);
      } catch (error) {
        if (error !== NOT_FAST) throw error;
      }
    }
    if (values) columnsOf(s.columns!);
    else {
      // The schema's way: rows the fast reader left alone, and every row of the small streams.
      const row = s.toRow(parseRow(s, batch[i], rowOffset + i), customerId) as Record<string, unknown>;
      const columns = columnsOf(s.columns ?? Object.keys(row));
      values = new Array<unknown>(columns.length);
      for (let c = 0; c < columns.length; c++) values[c] = row[columns[c]] ?? null;
    }
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
async function refreshPlannerStatistics(conn: Kysely<Database>, dialect: Dialect) {
  if (dialect !== "postgres") return;
  try {
    for (const table of SYNCED_TABLES) await sql.raw(`ANALYZE "${table}"`).execute(conn);
  } catch (error) {
    log.warn(`ANALYZE after sync failed: ${errorMessage(error)}`);
  }
}
