// @vitest-environment node
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { DEMO_SMALL_CUSTOMER_ID } from "../../../../emulator/ads";
import { setupTestEnvironment, testDialect, type TestContext } from "../../../../tests/setup/test-db";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../../tests/support/emulator-harness";
import { getConnection } from "../../auth/google-connection.server";
import { captureLogs } from "../../log.server";
import { adsClientFor } from "../accounts.server";
import type { AdsClient } from "../client.server";
import { syncAccount } from "../sync.server";

// Issue 27 point 1: every sync ends in a final state with its reason. A sync that failed while the
// database also refused to store that failure (SQLite's "disk I/O error") was seen to stay "running" for
// good. Here the database refuses the write of the failure (a trigger) until the test lets it through.
const SMALL = DEMO_SMALL_CUSTOMER_ID;
let emu: RunningEmulator;
let ctx: TestContext;
let userId: string;
let direct: AdsClient;

beforeAll(async () => {
  emu = await startEmulator({ storeOptions: { today: "2026-11-22" } });
  ctx = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  direct = adsClientFor((await getConnection(userId))!);
  await sql`CREATE TABLE refuse_failed_writes (n INTEGER NOT NULL)`.execute(ctx.db);
  await sql`INSERT INTO refuse_failed_writes (n) VALUES (1)`.execute(ctx.db);
  if (testDialect === "postgres") {
    await sql`CREATE FUNCTION refuse_failed_write() RETURNS trigger AS $$
      BEGIN
        IF NEW.status = 'failed' AND (SELECT n FROM refuse_failed_writes) > 0 THEN RAISE EXCEPTION 'disk I/O error'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`.execute(ctx.db);
    await sql`CREATE TRIGGER refuse_failed_write BEFORE UPDATE ON ads_sync_state FOR EACH ROW EXECUTE FUNCTION refuse_failed_write()`.execute(ctx.db);
  } else {
    await sql`CREATE TRIGGER refuse_failed_write BEFORE UPDATE ON ads_sync_state
      WHEN NEW.status = 'failed' AND (SELECT n FROM refuse_failed_writes) > 0
      BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END`.execute(ctx.db);
  }
}, 60_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

it("a sync whose failure the database refused to store still ends failed, with the step, the cause and the refusal", async () => {
  const failing: AdsClient = {
    ...direct,
    async searchStreamEach(customerId, query, onRows, opts) {
      if (/FROM ad_group WHERE|FROM ad_group$|FROM ad_group /.test(query)) throw new Error("Google went away");
      return direct.searchStreamEach(customerId, query, onRows, opts);
    },
  };
  const logs = captureLogs();
  try {
    const sync = syncAccount(userId, SMALL, { client: failing });
    // The job's own write of its failure and the runner's first retry are refused…
    await vi.waitFor(
      () => expect(logs.records.some((r) => /recording its outcome failed \(attempt 1, will retry\): .*disk I\/O error/.test(r.msg))).toBe(true),
      {
        timeout: 30_000,
      },
    );
    // …until the database takes writes again.
    await sql`UPDATE refuse_failed_writes SET n = 0`.execute(ctx.db);
    const state = await sync;
    expect(state.status).toBe("failed");
    expect(state.lastError).toMatch(/^Loading ad groups failed: .+ \(disk I\/O error while recording it\)$/);
    const row = await ctx.db.selectFrom("ads_sync_state").select(["status", "current_step"]).where("customer_id", "=", SMALL).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "failed", current_step: null });
  } finally {
    logs.restore();
  }
}, 90_000);
