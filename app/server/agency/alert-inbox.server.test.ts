// @vitest-environment node
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { seedAgency } from "../../../tests/support/agency-fixture";
import { documented } from "../../../tests/support/api-doc";
import { routeArgs, signedInArgs } from "../../../tests/support/route-args";
import { commitSessionCookie, createSession } from "../auth/session.server";
import type { AlertsTable } from "../db/schema";
import { loader as alertsApiRoute } from "../../routes/api/alerts";
import { action as readApiRoute } from "../../routes/api/alerts-read";
import { action as resolveApiRoute } from "../../routes/api/alert-resolve";
import { action as muteApiRoute } from "../../routes/api/alert-mutes";
import { action as alertsPageAction, loader as alertsPageLoader } from "../../routes/alerts";
import { loader as layoutLoader } from "../../routes/app-layout";
import { accountsOverview, parseOverviewQuery } from "./overview.server";
import { unreadAlertCount } from "./alert-inbox.server";

const alertsApi = documented(alertsApiRoute);
const readApi = documented(readApiRoute);
const resolveApi = documented(resolveApiRoute);
const muteApi = documented(muteApiRoute);

let t: TestContext;
let userId: string;
let strangerId: string;
let cookie: string;
let token: string;
const ids: Record<string, string> = {};

function alert(customerId: string, rule: AlertsTable["rule"], createdAt: string): AlertsTable {
  return {
    id: randomUUID(),
    customer_id: customerId,
    rule,
    subject: "",
    campaign_id: null,
    status: "open",
    ongoing: 1,
    resolved_by: null,
    title: `${rule} in ${customerId}`,
    figures_json: JSON.stringify({ day: "2026-11-27", baseline: { median: 100, mad: 5, scale: 10, points: 8 } }),
    started_on: "2026-11-27",
    evidence_path: "/dashboard",
    recommendation_id: null,
    created_at: createdAt,
    last_seen_at: createdAt,
    resolved_at: null,
  };
}

beforeAll(async () => {
  t = await setupTestEnvironment();
  ({ userId } = await seedAgency(t.db, {
    managers: [{ customerId: "9500000001", name: "Inbox MCC" }],
    clients: [
      { customerId: "5000000001", name: "First", manager: "9500000001" },
      { customerId: "5000000002", name: "Second", manager: "9500000001" },
    ],
    lastDay: "2026-11-27",
    days: 0,
  }));
  ({ userId: strangerId } = await seedAgency(t.db, {
    managers: [{ customerId: "9500000009", name: "Other" }],
    clients: [{ customerId: "5000000009", name: "Not yours", manager: "9500000009" }],
    lastDay: "2026-11-27",
    days: 0,
  }));
  const rows = [
    alert("5000000001", "spend_spike", "2026-11-28T10:00:00.000Z"),
    alert("5000000002", "conversions_drop", "2026-11-28T11:00:00.000Z"),
    alert("5000000009", "spend_drop", "2026-11-28T12:00:00.000Z"),
  ];
  await t.db.insertInto("alerts").values(rows).execute();
  [ids.spike, ids.conversions, ids.stranger] = rows.map((r) => r.id);
  const session = await createSession(userId, new Request("http://localhost:3000/login"));
  cookie = (await commitSessionCookie(session)).split(";")[0];
  token = session.accessToken;
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
});

const api = (path: string, init: RequestInit = {}, params: Record<string, string> = {}) =>
  routeArgs(
    new Request(`http://localhost:3000/api/v1${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, ...(init.body ? { "Content-Type": "application/json" } : {}) },
    }),
    params,
  );
const page = (path: string, fields?: Record<string, string>) =>
  signedInArgs(
    new Request(`http://localhost:3000${path}`, {
      method: fields ? "POST" : "GET",
      body: fields ? new URLSearchParams(fields) : undefined,
      headers: { Cookie: cookie, ...(fields ? { "Content-Type": "application/x-www-form-urlencoded" } : {}) },
    }),
  );

describe("the alerts inbox", () => {
  it("lists the caller's alerts (never another person's accounts'), newest first, with the bell's count", async () => {
    const res = (await alertsApi(api("/alerts"))) as { data: { alerts: Array<{ id: string; accountName: string; read: boolean }>; unread: number } };
    expect(res.data.alerts.map((a) => a.id)).toEqual([ids.conversions, ids.spike]);
    expect(res.data.alerts[0]).toMatchObject({ accountName: "Second", read: false });
    expect(res.data.unread).toBe(2);
    const layout = await layoutLoader(await page("/dashboard"));
    expect(layout.unreadAlerts).toBe(2);
    const bad = (await alertsApi(api("/alerts?status=closed"))) as { init: ResponseInit };
    expect(bad.init.status).toBe(400);
  });

  it("a mute hides an alert from the list, the bell and the overview, for this person only", async () => {
    const muted = (await muteApi(
      api("/alerts/mutes", { method: "POST", body: JSON.stringify({ customerId: "5000000002", rule: "conversions_drop", muted: true }) }),
    )) as {
      data: { mutes: unknown[] };
    };
    expect(muted.data.mutes).toEqual([{ customerId: "5000000002", accountName: "Second", rule: "conversions_drop" }]);
    expect(await unreadAlertCount(userId)).toBe(1);
    const list = (await alertsApi(api("/alerts"))) as { data: { alerts: Array<{ id: string }> } };
    expect(list.data.alerts.map((a) => a.id)).toEqual([ids.spike]);
    const overview = await accountsOverview(userId, parseOverviewQuery(new URLSearchParams("sort=alerts")).query);
    expect(overview.accounts.map((a) => [a.name, a.activeAlerts])).toEqual([
      ["First", 1],
      ["Second", 0],
    ]);
    expect(overview.accounts[0].attention).toContain("1 open alert");
    // Neither an account nor a rule: refused.
    const neither = (await muteApi(api("/alerts/mutes", { method: "POST", body: JSON.stringify({ customerId: null, rule: null, muted: true }) }))) as {
      init: ResponseInit;
    };
    expect(neither.init.status).toBe(400);
    const theirs = (await muteApi(api("/alerts/mutes", { method: "POST", body: JSON.stringify({ customerId: "5000000009", rule: null, muted: true }) }))) as {
      init: ResponseInit;
    };
    expect(theirs.init.status).toBe(404);
    // Unmute from the page's form.
    await alertsPageAction(await page("/alerts", { intent: "mute", customerId: "5000000002", rule: "conversions_drop", muted: "false" }));
    expect(await unreadAlertCount(userId)).toBe(2);
  });

  it("resolve: the person's alert only, once", async () => {
    const other = (await resolveApi(api(`/alerts/${ids.stranger}/resolve`, { method: "POST" }, { alertId: ids.stranger }))) as { init: ResponseInit };
    expect(other.init.status).toBe(404);
    const ok = (await resolveApi(api(`/alerts/${ids.spike}/resolve`, { method: "POST" }, { alertId: ids.spike }))) as { data: unknown };
    expect(ok.data).toEqual({ id: ids.spike, status: "resolved" });
    const row = await t.db.selectFrom("alerts").select(["status", "resolved_by", "ongoing"]).where("id", "=", ids.spike).executeTakeFirstOrThrow();
    // Still the same episode for the checks (ADR 029).
    expect(row).toEqual({ status: "resolved", resolved_by: "user", ongoing: 1 });
    const again = (await resolveApi(api(`/alerts/${ids.spike}/resolve`, { method: "POST" }, { alertId: ids.spike }))) as { init: ResponseInit };
    expect(again.init.status).toBe(400);
    const stranger = await t.db.selectFrom("alerts").select("status").where("id", "=", ids.stranger).executeTakeFirstOrThrow();
    expect(stranger.status).toBe("open");
    expect(strangerId).not.toBe(userId);
  });

  it("read: marks every open alert read for this person; the page shows the resolved ones on its tab", async () => {
    const res = (await readApi(api("/alerts/read", { method: "POST", body: JSON.stringify({}) }))) as { data: { marked: number; unread: number } };
    expect(res.data).toEqual({ marked: 1, unread: 0 });
    const resolved = await alertsPageLoader(await page("/alerts?status=resolved"));
    expect(resolved.alerts.map((a) => a.id)).toEqual([ids.spike]);
    const bad = (await alertsPageAction(await page("/alerts", { intent: "resolve", alertId: "nope" }))) as { data: { error: string }; init: ResponseInit };
    expect(bad.init.status).toBe(400);
    expect(bad.data.error).toBe("Alert not found");
  });
});
