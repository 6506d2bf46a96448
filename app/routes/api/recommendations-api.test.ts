// @vitest-environment node
// The recommendations API with real Requests and bearer tokens: list (status
// filter, score), apply → a validated change set from the recommendation that
// applies through the change-set API and marks it applied, dismiss/snooze/
// restore surviving a new engine run, and another user's → 404.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_RICH_CUSTOMER_ID } from "../../../emulator/ads";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { drainJobs } from "../../../tests/support/jobs";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { syncAccount } from "~/server/ads/sync.server";
import { createSession } from "~/server/auth/session.server";
import type { ChangeSetView } from "~/server/changes/review.server";
import { startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";
import { runOptimizer } from "~/server/optimizer/run.server";
import type { Recommendation } from "~/server/optimizer/types.server";
import { loader as listLoader } from "./account-recommendations";
import { action as applyChangeSet } from "./change-set-apply";
import { action as applyAction } from "./recommendation-apply";
import { action as dismissAction } from "./recommendation-dismiss";
import { action as restoreAction } from "./recommendation-restore";
import { action as snoozeAction } from "./recommendation-snooze";
import { routeArgs } from "../../../tests/support/route-args";

const RICH = DEMO_RICH_CUSTOMER_ID;
let emu: WritableEmulator;
let t: TestContext;
let demo: string;
let stranger: string;

const args = routeArgs;

function api(path: string, token: string | null = demo, init: { method?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
    headers["Content-Type"] = "application/json";
  }
  return new Request(`http://localhost:3000/api/v1${path}`, { method: init.method ?? (body === undefined ? "GET" : "POST"), body, headers });
}

async function read(result: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  if (result instanceof Response) {
    const text = await result.text();
    return { status: result.status, body: text ? JSON.parse(text) : null };
  }
  const r = result as { data: Record<string, unknown>; init?: ResponseInit | null };
  return { status: r.init?.status ?? 200, body: r.data };
}

async function list(status?: string, token = demo, customerId = RICH) {
  return read(await listLoader(args(api(`/accounts/${customerId}/recommendations${status ? `?status=${status}` : ""}`, token), { customerId })));
}
const recsOf = (res: { body: Record<string, unknown> }) => res.body.recommendations as Recommendation[];

async function post(what: "apply" | "dismiss" | "snooze" | "restore", id: string, body?: unknown, token = demo) {
  const handler = { apply: applyAction, dismiss: dismissAction, snooze: snoozeAction, restore: restoreAction }[what];
  return read(await handler(args(api(`/recommendations/${id}/${what}`, token, { method: "POST", body }), { recommendationId: id })));
}

beforeAll(async () => {
  emu = await startWritableEmulator();
  t = await setupTestEnvironment(emu.env);
  const userId = await connectDemoUser(emu.baseUrl);
  await syncAccount(userId, RICH);
  // The engine runs as the job the sync queued.
  await drainJobs(t.db, ["engine-run"]);
  demo = (await createSession(userId, new Request("http://localhost:3000/login"))).accessToken;
  const strangerId = randomUUID();
  const now = new Date().toISOString();
  await t.db
    .insertInto("users")
    .values({ id: strangerId, email: "stranger@example.com", password_hash: null, active_customer_id: null, created_at: now, updated_at: now })
    .execute();
  stranger = (await createSession(strangerId, new Request("http://localhost:3000/login"))).accessToken;
}, 300_000);

afterAll(async () => {
  await t?.cleanup();
  await emu?.close();
});

describe("GET /accounts/{customerId}/recommendations", () => {
  it("lists open recommendations sorted by impact with the score and its breakdown", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    const recs = recsOf(res);
    expect(recs.length).toBeGreaterThan(20);
    for (const r of recs) {
      expect(Object.keys(r)).toEqual(expect.arrayContaining(["id", "type", "title", "status", "confidence", "impact", "evidence", "actions"]));
      expect(r.status).toBe("open");
    }
    const score = res.body.score as { value: number; breakdown: Array<{ items: Array<{ recommendationId: string }> }> };
    expect(score.value).toBeGreaterThanOrEqual(0);
    expect(score.value).toBeLessThan(100);
    const ids = new Set(recs.map((r) => r.id));
    const items = score.breakdown.flatMap((c) => c.items);
    expect(items.length).toBeGreaterThan(0);
    for (const i of items) expect(ids.has(i.recommendationId)).toBe(true);
  });

  it("refuses an unknown status with 400, another user's account with 404, no token with 401", async () => {
    expect((await list("everything")).status).toBe(400);
    expect((await list(undefined, stranger)).status).toBe(404);
    expect((await read(await listLoader(args(api(`/accounts/${RICH}/recommendations`, null), { customerId: RICH })))).status).toBe(401);
  });
});

describe("dismiss, snooze, restore", () => {
  it("dismiss with a reason moves it to the dismissed list, and a new engine run keeps it there", async () => {
    const target = recsOf(await list()).find((r) => r.type === "weak_ad")!;
    const res = await post("dismiss", target.id, { reason: "Brand ads are written by legal" });
    expect(res.status).toBe(200);
    expect((res.body.recommendation as Recommendation).status).toBe("dismissed");
    await runOptimizer(RICH);
    expect(recsOf(await list()).some((r) => r.id === target.id)).toBe(false);
    const dismissed = recsOf(await list("dismissed")).find((r) => r.id === target.id);
    expect(dismissed?.dismissedReason).toBe("Brand ads are written by legal");
    expect((await post("restore", target.id)).status).toBe(200);
    expect(recsOf(await list()).some((r) => r.id === target.id)).toBe(true);
  });

  it("dismiss without a body works; snooze takes 7 or 30 days only", async () => {
    const [a, b] = recsOf(await list()).filter((r) => r.type === "low_quality_score");
    expect((await read(await dismissAction(args(api(`/recommendations/${a.id}/dismiss`, demo, { method: "POST" }), { recommendationId: a.id })))).status).toBe(
      200,
    );
    const bad = await post("snooze", b.id, { days: 14 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty("days");
    const ok = await post("snooze", b.id, { days: 30 });
    expect(ok.status).toBe(200);
    const snoozed = recsOf(await list("snoozed")).find((r) => r.id === b.id)!;
    expect(Date.parse(snoozed.snoozedUntil!) - Date.now()).toBeGreaterThan(29 * 86_400_000);
  });

  it("another user's recommendation is a 404 for every verb; a malformed id too", async () => {
    const r = recsOf(await list())[0];
    for (const verb of ["apply", "dismiss", "snooze", "restore"] as const) {
      expect((await post(verb, r.id, verb === "snooze" ? { days: 7 } : {}, stranger)).status).toBe(404);
    }
    expect((await post("dismiss", "not-an-id", {})).status).toBe(404);
  });
});

describe("apply", () => {
  it("creates a validated change set from the recommendation; applying it marks the recommendation applied", async () => {
    const rec = recsOf(await list()).find((r) => r.type === "paused_converting")!;
    const res = await post("apply", rec.id);
    expect(res.status).toBe(201);
    const cs = res.body.changeSet as ChangeSetView;
    expect(cs.status).toBe("validated");
    expect(cs.source).toBe("rule");
    const row = await t.db.selectFrom("change_sets").select(["recommendation_id", "status"]).where("id", "=", cs.id).executeTakeFirstOrThrow();
    expect(row.recommendation_id).toBe(rec.id);
    // Applying again reuses the open change set.
    const again = await post("apply", rec.id);
    expect((again.body.changeSet as ChangeSetView).id).toBe(cs.id);
    // Nothing went to Google yet but validateOnly; now the person applies it.
    const applied = await read(await applyChangeSet(args(api(`/change-sets/${cs.id}/apply`, demo, { method: "POST", body: {} }), { changeSetId: cs.id })));
    expect(applied.status).toBe(200);
    expect((applied.body.changeSet as ChangeSetView).status).toBe("applied");
    expect(recsOf(await list("applied")).map((r) => r.id)).toContain(rec.id);
    expect(recsOf(await list()).map((r) => r.id)).not.toContain(rec.id);
    expect((await post("apply", rec.id)).status).toBe(409);
  });

  it("a recommendation with nothing automatic to change is a 400", async () => {
    const rec = recsOf(await list()).find((r) => r.actions.length === 0)!;
    const res = await post("apply", rec.id);
    expect(res.status).toBe(400);
  });
});
