// @vitest-environment node
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_SMALL_CUSTOMER_ID } from "../../../../emulator/ads";
import { setupTestEnvironment, type TestContext } from "../../../../tests/setup/test-db";
import { drainJobs } from "../../../../tests/support/jobs";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../../tests/support/emulator-harness";
import { getConnection } from "../../auth/google-connection.server";
import { getAnalysisState } from "../../optimizer/in-flight.server";
import { syncView } from "../../sync-status.server";
import { adsClientFor } from "../accounts.server";
import type { AdsClient } from "../client.server";
import { DETAIL_STEP_COUNT, DETAIL_TABLES, OVERVIEW_STEP_COUNT, STALE_RUNNING_MS, SYNC_STEP_COUNT, getSyncState, syncAccount } from "../sync.server";

// The staged first sync (ADR 013, amendment): what happens when its second
// stage (keyword, ad and search-term performance) fails, is superseded by a
// newer sync, or dies. The small demo account keeps these quick; the rich
// account's happy path (stage order, both switch-overs, the engine after
// stage 2) is in ../sync.server.test.ts. Clients are injected, so the job runs
// in this thread and a test can stop it at a chosen stream.

const SMALL = DEMO_SMALL_CUSTOMER_ID;
const TODAY = "2026-11-22";
const NOW = new Date(`${TODAY}T15:00:00Z`);
const clock = () => NOW;

let emu: RunningEmulator;
let ctx: TestContext;
let userId: string;
let direct: AdsClient;

beforeAll(async () => {
  emu = await startEmulator({ storeOptions: { today: TODAY } });
  ctx = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  direct = adsClientFor((await getConnection(userId))!);
});

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

// Every test starts from an account that was never synced.
beforeEach(async () => {
  await ctx.db.deleteFrom("ads_sync_state").where("customer_id", "=", SMALL).execute();
  for (const table of ["ads_campaigns", "ads_ad_groups", "ads_keywords", ...DETAIL_TABLES] as const) {
    await sql`DELETE FROM ${sql.table(table)} WHERE customer_id = ${SMALL}`.execute(ctx.db);
  }
  await ctx.db.deleteFrom("recommendations").where("customer_id", "=", SMALL).execute();
  await ctx.db.deleteFrom("optimizer_runs").where("customer_id", "=", SMALL).execute();
  await ctx.db.deleteFrom("optimizer_in_flight").where("customer_id", "=", SMALL).execute();
});

async function rows(table: string): Promise<number> {
  const row = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${sql.table(table)} WHERE customer_id = ${SMALL}`.execute(ctx.db);
  return Number(row.rows[0].n);
}

/** Engine runs stored for the account, once the engine jobs the syncs queued have run. */
async function engineRuns(): Promise<number> {
  await drainJobs(ctx.db, ["engine-run"]);
  const row = await ctx.db
    .selectFrom("optimizer_runs")
    .select(sql<number>`COUNT(*)`.as("n"))
    .where("customer_id", "=", SMALL)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const isKeywordDaily = (query: string) => /FROM keyword_view WHERE/.test(query);

/**
 * The emulator's client; `before` may hold (or fail) a stream before it is read. With `oneRowOfDetail`,
 * the detail streams deliver one row per batch: rows that would show if that run's data were switched in.
 */
function clientWith(before: (query: string) => Promise<void> | undefined, oneRowOfDetail = false): AdsClient {
  return {
    ...direct,
    async searchStreamEach(customerId, query, onRows, opts) {
      const wait = before(query);
      if (wait) await wait;
      const detail = /FROM (keyword_view|search_term_view|ad_group_ad) WHERE/.test(query);
      const slice = oneRowOfDetail && detail;
      // Sliced batches go the general way (no batch decoder), so every one passes through here.
      await direct.searchStreamEach(customerId, query, (batch) => onRows(slice ? batch.slice(0, 1) : batch), slice ? { ...opts, decoder: undefined } : opts);
    },
  };
}

describe("a first sync whose detail import fails", () => {
  it("keeps stage 1's data as ok, says which step failed, never runs the engine; the next sync is a full one that fixes it", async () => {
    const failing = clientWith((query) => (/FROM search_term_view/.test(query) ? Promise.reject(new Error("boom")) : undefined));
    const state = await syncAccount(userId, SMALL, { client: failing, now: clock });
    expect(state).toMatchObject({ status: "ok", lastError: null, lastSuccessAt: NOW.toISOString(), progressTotal: OVERVIEW_STEP_COUNT });
    expect(state.detail).toEqual({
      status: "failed",
      currentStep: null,
      lastError: "Loading search terms failed: an internal error stopped the sync. It has been logged.",
      // Keyword and ad performance were read; their rows are not switched in without the search terms.
      progressDone: 2,
      progressTotal: DETAIL_STEP_COUNT,
    });
    // What the status document (GET /sync, the JSON API) says.
    expect(syncView(state)).toMatchObject({ status: "ok", lastError: null, detail: { status: "failed", lastError: state.detail.lastError } });
    expect(await rows("ads_campaigns")).toBeGreaterThan(0);
    expect(await rows("ads_keywords")).toBeGreaterThan(0);
    for (const table of DETAIL_TABLES) expect(await rows(table), table).toBe(0);
    expect(await engineRuns()).toBe(0);
    expect((await getAnalysisState(ctx.db, SMALL)).status).toBe("idle");

    // The next sync (scheduled, or Sync now) is not a refresh of what changed but a full one.
    const seen: string[] = [];
    const fixed = await syncAccount(userId, SMALL, {
      client: direct,
      // Until it is done, the detail reads as being imported (by that full sync).
      onProgress: (s) => void seen.push(`${s.status}/${s.detail.status}/${s.progressTotal}`),
    });
    expect(seen[0]).toBe(`running/running/${SYNC_STEP_COUNT}`);
    expect(fixed).toMatchObject({ status: "ok", detail: { status: "ok", lastError: null } });
    expect((await ctx.db.selectFrom("ads_sync_state").select("refresh_kind").where("customer_id", "=", SMALL).executeTakeFirstOrThrow()).refresh_kind).toBe(
      "full",
    );
    for (const table of DETAIL_TABLES) expect(await rows(table), table).toBeGreaterThan(0);
    expect(await engineRuns()).toBe(1);
  }, 60_000);
});

describe("a newer sync during the detail import", () => {
  it("supersedes it: the old run stops at its next step, the newer one switches everything in and runs the engine", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const atDetail = new Promise<void>((resolve) => (reached = resolve));
    const held = clientWith((query) => {
      if (!isKeywordDaily(query)) return undefined;
      reached();
      return gate;
    }, true);
    const first = syncAccount(userId, SMALL, { client: held, now: clock });
    await atDetail;
    const between = await getSyncState(SMALL, ctx.db, NOW);
    expect(between).toMatchObject({ status: "ok", detail: { status: "running", currentStep: "Loading keyword performance", progressDone: 0 } });
    expect((await getAnalysisState(ctx.db, SMALL)).status).toBe("running");

    // "Sync now" while the detail imports: a new full sync, not a join.
    const streams: string[] = [];
    const later = new Date(NOW.getTime() + 60_000);
    const newer = syncAccount(userId, SMALL, {
      client: clientWith((query) => {
        streams.push(query);
        return undefined;
      }),
      now: () => later,
    });
    const done = await newer;
    // One stream per table (Performance Max's three included).
    expect(streams).toHaveLength(14);
    expect(done).toMatchObject({ status: "ok", lastSuccessAt: later.toISOString(), detail: { status: "ok" } });
    const detailRows = await Promise.all(DETAIL_TABLES.map(rows));
    expect(detailRows.every((n) => n > 0)).toBe(true);
    expect(await engineRuns()).toBe(1);

    // The old run goes on, finds its claim gone at the end of the stream, and writes nothing.
    release();
    const old = await first;
    expect(old).toMatchObject({ status: "ok", lastSuccessAt: later.toISOString(), detail: { status: "ok" } });
    expect(await Promise.all(DETAIL_TABLES.map(rows))).toEqual(detailRows);
    expect(await getSyncState(SMALL, ctx.db, later)).toMatchObject({ lastSuccessAt: later.toISOString(), detail: { status: "ok" } });
    expect((await getAnalysisState(ctx.db, SMALL)).status).toBe("idle");
  }, 60_000);
});

describe("a detail import that died", () => {
  it("reads as failed once its heartbeat is stale, and the next sync is a full one", async () => {
    let reached!: () => void;
    const atDetail = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    // Held past the staleness limit: as far as anyone can tell the run died in its second stage (a crash leaves the same row).
    const gate = new Promise<void>((resolve) => (release = resolve));
    const stuck = clientWith((query) => {
      if (!isKeywordDaily(query)) return undefined;
      reached();
      return gate;
    }, true);
    const first = syncAccount(userId, SMALL, { client: stuck, now: clock });
    await atDetail;
    const alive = await getSyncState(SMALL, ctx.db, new Date(NOW.getTime() + STALE_RUNNING_MS - 1_000));
    expect(alive.detail.status).toBe("running");

    const dead = new Date(NOW.getTime() + STALE_RUNNING_MS + 1_000);
    const stale = await getSyncState(SMALL, ctx.db, dead);
    expect(stale).toMatchObject({ status: "ok", detail: { status: "failed", currentStep: null } });
    expect(stale.detail.lastError).toMatch(/stopped before it finished/);
    // Another process (no run of this account in flight here would say the same): a full sync takes over.
    const fixed = await syncAccount(userId, SMALL, { client: direct, now: () => dead });
    expect(fixed).toMatchObject({ status: "ok", lastSuccessAt: dead.toISOString(), detail: { status: "ok" } });
    // Had it been alive after all, it would find its claim gone and write nothing.
    const detailRows = await Promise.all(DETAIL_TABLES.map(rows));
    release();
    await first;
    expect(await Promise.all(DETAIL_TABLES.map(rows))).toEqual(detailRows);
    expect((await getSyncState(SMALL, ctx.db, dead)).detail.status).toBe("ok");
  }, 60_000);
});
