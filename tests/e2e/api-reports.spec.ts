import { connectDemoAccount, RICH_CUSTOMER_ID, SMALL_CUSTOMER_ID, expect } from "./ads-fixtures";
import { newUser, test } from "./fixtures";

test.describe.configure({ timeout: 150_000 });

const METRIC_KEYS = ["clicks", "conversions", "conversionsValue", "costMicros", "impressions"];

test("JSON API: campaigns, summary, sync, another user's account, bad dates", async ({ page, request }) => {
  const user = await connectDemoAccount(page, request);
  const auth = { Authorization: `Bearer ${user.token}` };
  const base = `/api/v1/accounts/${RICH_CUSTOMER_ID}`;

  const res = await request.get(`${base}/campaigns`, { headers: auth });
  expect(res.status()).toBe(200);
  const { campaigns } = (await res.json()) as { campaigns: Array<Record<string, unknown> & { metrics: Record<string, unknown> }> };
  expect(campaigns.length).toBe(14);
  for (const c of campaigns) {
    expect(Object.keys(c).sort()).toEqual(["biddingStrategyType", "budgetMicros", "channelType", "id", "metrics", "name", "status"]);
    expect(typeof c.id).toBe("string");
    expect(["ENABLED", "PAUSED", "REMOVED"]).toContain(c.status);
    expect(c.budgetMicros === null || typeof c.budgetMicros === "number").toBe(true);
    expect(Object.keys(c.metrics).sort()).toEqual(METRIC_KEYS);
    for (const key of METRIC_KEYS) expect(typeof c.metrics[key]).toBe("number");
  }
  expect(campaigns.map((c) => c.name)).toContain("Search | Tents");

  // A one-day range sums to less than the default 30 days, and the summary agrees with the campaigns.
  const summary30 = (await (await request.get(`${base}/summary`, { headers: auth })).json()) as {
    activeCampaigns: number;
    metrics: Record<string, number>;
  };
  expect(summary30.activeCampaigns).toBe(campaigns.filter((c) => c.status === "ENABLED").length);
  expect(summary30.metrics.clicks).toBe(campaigns.reduce((s, c) => s + (c.metrics.clicks as number), 0));
  const sync = (await (await request.get(`${base}/sync`, { headers: auth })).json()) as { status: string; lastSuccessAt: string };
  expect(["ok", "running"]).toContain(sync.status);
  expect(sync.lastSuccessAt).toBeTruthy();

  const day = await request.get(`${base}/summary?from=2020-01-01&to=2020-01-01`, { headers: auth });
  expect(day.status()).toBe(200);
  expect(((await day.json()) as { metrics: { clicks: number } }).metrics.clicks).toBe(0);

  for (const bad of [
    "from=2026-13-01&to=2026-13-02",
    "from=2026-02-10&to=2026-02-01",
    "from=2026-01-01",
    "from=yesterday&to=today",
    "from=2000-01-01&to=2002-01-01",
  ]) {
    for (const path of ["campaigns", "summary"]) {
      const r = await request.get(`${base}/${path}?${bad}`, { headers: auth });
      expect(r.status(), `${path}?${bad}`).toBe(400);
      expect(typeof ((await r.json()) as { detail: unknown }).detail).toBe("string");
    }
  }

  // Unauthenticated: 401 with a detail.
  const anon = await request.get(`${base}/campaigns`);
  expect(anon.status()).toBe(401);
  expect(await anon.json()).toHaveProperty("detail");

  // Another user (no Google connection) asks for this user's account: 404, no data.
  const other = newUser();
  await request.post("/api/v1/auth/register", { data: other });
  const otherToken = ((await (await request.post("/api/v1/auth/login", { data: other })).json()) as { access_token: string }).access_token;
  for (const path of ["campaigns", "summary", "sync"]) {
    const r = await request.get(`${base}/${path}`, { headers: { Authorization: `Bearer ${otherToken}` } });
    expect(r.status(), path).toBe(404);
    const body = await r.json();
    expect(Object.keys(body)).toEqual(["detail"]);
  }
  const post = await request.post(`${base}/sync`, { headers: { Authorization: `Bearer ${otherToken}` } });
  expect(post.status()).toBe(404);
  // Ids that are no one's, or not ids at all.
  expect((await request.get(`/api/v1/accounts/9999999999/campaigns`, { headers: auth })).status()).toBe(404);
  expect((await request.get(`/api/v1/accounts/abc/summary`, { headers: auth })).status()).toBe(404);
  // The user's other accounts work (their own data, in their own currency).
  expect((await request.get(`/api/v1/accounts/${SMALL_CUSTOMER_ID}/summary`, { headers: auth, timeout: 120_000 })).status()).toBe(200);
});

test("openapi.json describes every /api/v1 endpoint with the bearer scheme", async ({ request }) => {
  const res = await request.get("/api/v1/openapi.json");
  expect(res.status()).toBe(200);
  const doc = (await res.json()) as {
    openapi: string;
    paths: Record<string, Record<string, unknown>>;
    components: { securitySchemes: Record<string, { type: string; scheme: string }> };
  };
  expect(doc.openapi).toBe("3.1.0");
  // At least these; app/routes/reports.test.ts checks the document against every route in app/routes.ts.
  for (const path of [
    "/auth/register",
    "/auth/login",
    "/auth/logout",
    "/auth/me",
    "/auth/google",
    "/auth/google/callback",
    "/accounts",
    "/accounts/{customerId}/campaigns",
    "/accounts/{customerId}/summary",
    "/accounts/{customerId}/sync",
    "/openapi.json",
  ]) {
    expect(doc.paths, path).toHaveProperty([path]);
  }
  expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  expect(Object.keys(doc.paths["/accounts/{customerId}/sync"]).sort()).toEqual(["get", "post"]);
});
