// @vitest-environment node
import { afterAll, beforeAll, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import type { EngineResult } from "./engine.server";
import { recommendationIdFor, saveRun } from "./store.server";
import type { Finding } from "./types.server";

// Storing a run writes only what changed (a re-run over unchanged data
// rewrites nothing but "last seen"), and keeps people's decisions: a dismissal
// survives runs, an open finding that went away is forgotten, a dismissed one
// is kept aside and comes back dismissed.

const CID = "1234567890";
let ctx: TestContext;

beforeAll(async () => {
  ctx = await setupTestEnvironment();
});
afterAll(async () => {
  await ctx?.cleanup();
});

function finding(key: string, cost: number): Finding {
  return {
    key,
    type: "wasted_keyword",
    title: `Pause ${key}`,
    resources: [{ kind: "keyword", id: key, name: key, resourceName: `customers/${CID}/adGroupCriteria/${key}` }],
    confidence: 0.97,
    impact: { kind: "cost_saved", monthly: cost, riskConversions: null, assumption: "test" },
    sortAmount: cost,
    evidence: {
      dateRange: { from: "2026-08-24", to: "2026-11-18" },
      syncedAt: "2026-11-22T15:00:00.000Z",
      summary: `spent ${cost}`,
      figures: [],
      target: null,
      test: null,
      notes: [],
    },
    actions: [],
    links: [],
  } as Finding;
}

const run = (findings: Finding[]): EngineResult => ({ findings, score: { value: 80, breakdown: [] }, dropped: [], trackingSuspect: false });
const rows = async () =>
  new Map(
    (
      await ctx.db
        .selectFrom("recommendations")
        .select(["id", "status", "present", "evidence_json", "first_seen_at", "last_seen_at"])
        .where("customer_id", "=", CID)
        .execute()
    ).map((r) => [r.id, r]),
  );
const idOf = (key: string) => recommendationIdFor(CID, key);
const meta = { syncedAt: "2026-11-22T15:00:00.000Z", durationMs: 1 };

it("keeps decisions, updates what changed, marks every finding seen, forgets open ones that went away", async () => {
  await saveRun(ctx.db, CID, run([finding("a", 10), finding("b", 20), finding("c", 30)]), meta, new Date("2026-11-22T16:00:00Z"));
  let stored = await rows();
  expect([...stored.values()].map((r) => r.status)).toEqual(["open", "open", "open"]);
  await ctx.db.updateTable("recommendations").set({ status: "dismissed" }).where("id", "=", idOf("b")).execute();

  // Same findings again: nothing changes but the time they were last seen.
  await saveRun(ctx.db, CID, run([finding("a", 10), finding("b", 20), finding("c", 30)]), meta, new Date("2026-11-22T17:00:00Z"));
  stored = await rows();
  for (const key of ["a", "b", "c"]) {
    expect(stored.get(idOf(key))!.last_seen_at).toBe("2026-11-22T17:00:00.000Z");
    expect(stored.get(idOf(key))!.first_seen_at).toBe("2026-11-22T16:00:00.000Z");
  }
  expect(stored.get(idOf("b"))!.status).toBe("dismissed");

  // "a" changed, "b" (dismissed) and "c" (open) went away, "d" is new.
  await saveRun(ctx.db, CID, run([finding("a", 11), finding("d", 40)]), meta, new Date("2026-11-22T18:00:00Z"));
  stored = await rows();
  expect(JSON.parse(stored.get(idOf("a"))!.evidence_json).summary).toBe("spent 11");
  expect(stored.get(idOf("a"))!.last_seen_at).toBe("2026-11-22T18:00:00.000Z");
  expect(stored.has(idOf("c"))).toBe(false);
  expect(stored.get(idOf("b"))).toMatchObject({ status: "dismissed", present: 0, last_seen_at: "2026-11-22T17:00:00.000Z" });
  expect(stored.get(idOf("d"))).toMatchObject({ status: "open", present: 1 });

  // The dismissed one comes back: present again, still dismissed.
  await saveRun(ctx.db, CID, run([finding("a", 11), finding("b", 20), finding("d", 40)]), meta, new Date("2026-11-22T19:00:00Z"));
  stored = await rows();
  expect(stored.get(idOf("b"))).toMatchObject({ status: "dismissed", present: 1, last_seen_at: "2026-11-22T19:00:00.000Z" });
  expect(stored.size).toBe(3);
});

it("keeps an applied recommendation applied until a week of data after the change shows it is still needed", async () => {
  const raise = (amount: number, to: string): Finding => {
    const f = finding("budget", 50);
    return { ...f, actions: [{ amount }] as never, evidence: { ...f.evidence, dateRange: { from: "2026-10-23", to } } };
  };
  await saveRun(ctx.db, CID, run([raise(278.75, "2026-11-21")]), meta, new Date("2026-11-22T16:00:00Z"));
  // Its change set was applied on Nov 22.
  await ctx.db
    .updateTable("recommendations")
    .set({ status: "applied", status_changed_at: "2026-11-22T16:05:00.000Z" })
    .where("id", "=", idOf("budget"))
    .execute();
  const status = async () =>
    await ctx.db.selectFrom("recommendations").select(["status", "present", "actions_json"]).where("id", "=", idOf("budget")).executeTakeFirstOrThrow();

  // The next run, on the same days, judged against the raised budget: no second raise.
  await saveRun(ctx.db, CID, run([raise(348.44, "2026-11-21")]), meta, new Date("2026-11-22T17:00:00Z"));
  expect(await status()).toMatchObject({ status: "applied", present: 1, actions_json: JSON.stringify([{ amount: 278.75 }]) });
  // Six days of data after the change: still held.
  await saveRun(ctx.db, CID, run([raise(348.44, "2026-11-28")]), meta, new Date("2026-11-29T17:00:00Z"));
  expect((await status()).status).toBe("applied");
  // A week of data after it: new advice.
  await saveRun(ctx.db, CID, run([raise(348.44, "2026-11-29")]), meta, new Date("2026-11-30T17:00:00Z"));
  expect(await status()).toMatchObject({ status: "open", present: 1, actions_json: JSON.stringify([{ amount: 348.44 }]) });
});
