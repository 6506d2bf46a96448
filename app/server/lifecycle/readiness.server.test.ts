// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, testDialect, type TestContext } from "../../../tests/setup/test-db";
import { createDb } from "../db/db.server";
import { checkReadiness, databaseChecks } from "./readiness.server";

let t: TestContext;
beforeAll(async () => {
  t = await setupTestEnvironment();
});
afterAll(async () => {
  await t?.cleanup();
});

describe("readiness (/readyz)", () => {
  it("is ready with the database reachable and every migration applied", async () => {
    expect(await checkReadiness(databaseChecks(t.db))).toEqual({ ready: true, reason: null, checks: { database: "ok", migrations: "ok" } });
  });

  it("names the migrations a database lacks (another instance still migrating it)", async () => {
    const row = await t.db
      .selectFrom("kysely_migration" as never)
      .selectAll()
      .where("name" as never, "=", "0096_sync_detail_state" as never)
      .executeTakeFirstOrThrow();
    await t.db
      .deleteFrom("kysely_migration" as never)
      .where("name" as never, "=", "0096_sync_detail_state" as never)
      .execute();
    try {
      const r = await checkReadiness(databaseChecks(t.db));
      expect(r.ready).toBe(false);
      expect(r.checks).toEqual({ database: "ok", migrations: "1 not applied: 0096_sync_detail_state" });
      expect(r.reason).toBe("migrations: 1 not applied: 0096_sync_detail_state");
    } finally {
      await t.db
        .insertInto("kysely_migration" as never)
        .values(row as never)
        .execute();
    }
  });

  // PostgreSQL only: SQLite is a file in DATA_DIR, it has no "unreachable server".
  it.runIf(testDialect === "postgres")("says the database is unreachable, with the driver's reason", async () => {
    const gone = createDb({ databaseUrl: "postgres://postgres@127.0.0.1:1/none", dataDir: t.dataDir });
    const r = await checkReadiness(databaseChecks(gone.db)).finally(() => gone.db.destroy());
    expect(r.ready).toBe(false);
    expect(r.checks.database).toMatch(/ECONNREFUSED/);
    expect(r.reason).toMatch(/^database: .*ECONNREFUSED.*; migrations: .+/);
  });

  it("fails a check that never answers instead of hanging the probe", async () => {
    const r = await checkReadiness([{ name: "stuck", run: () => new Promise(() => undefined) }]);
    expect(r).toEqual({ ready: false, reason: "stuck: no answer within 3 s", checks: { stuck: "no answer within 3 s" } });
  });
});
