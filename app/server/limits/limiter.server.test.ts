import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, testDialect, type TestContext } from "../../../tests/setup/test-db";
import { createDb, getDbHandle, type DbHandle } from "../db/db.server";
import { consumeLimit, createLimiter, RateLimitError, type LimitSpec } from "./limiter.server";

/**
 * Issue 27 point 3: limits live in the database, so N instances on one
 * database enforce one limit and a lockout made on one holds on the others.
 * "Another instance" here is a second, separate client of the same database
 * (its own pool, or its own SQLite connection), as a second process has.
 */
let t: TestContext;
let other: DbHandle;

beforeAll(async () => {
  t = await setupTestEnvironment();
  other = createDb({ databaseUrl: t.config.DATABASE_URL, dataDir: t.dataDir });
});
afterAll(async () => {
  await other.db.destroy();
  await t.cleanup();
});

const spec: LimitSpec = { name: "shared-test", points: 3, durationSeconds: 60 };

describe(`limits in the database (${testDialect})`, () => {
  it("uses the database's own store, not process memory", async () => {
    await consumeLimit(spec, "stored");
    const rows = await t.db.selectFrom("rate_limits").selectAll().where("key", "=", "shared-test:stored").execute();
    expect(rows).toMatchObject([{ points: 1 }]);
    expect(Number(rows[0].expire)).toBeGreaterThan(Date.now());
  });

  it("two instances over one database share the count, and a lockout on one holds on the other", async () => {
    expect(other.raw).not.toBe(getDbHandle().raw);
    const first = createLimiter(getDbHandle().raw, spec);
    const second = createLimiter(other.raw, spec);
    await first.consume("client-a");
    await second.consume("client-a");
    await first.consume("client-a");
    // The fourth point is over the limit wherever it is spent.
    await expect(second.consume("client-a")).rejects.toMatchObject({ remainingPoints: 0 });
    expect((await first.get("client-a"))?.consumedPoints).toBe(4);
    // Another key is counted on its own.
    expect((await second.consume("client-b")).remainingPoints).toBe(2);
  });

  it("consumeLimit answers over the limit with RateLimitError and its Retry-After", async () => {
    for (let i = 0; i < 3; i++) await consumeLimit(spec, "client-c");
    const error = await consumeLimit(spec, "client-c").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBeGreaterThan(0);
    expect((error as RateLimitError).retryAfterSeconds).toBeLessThanOrEqual(60);
  });
});
