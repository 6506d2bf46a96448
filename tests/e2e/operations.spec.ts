import { expect, test } from "@playwright/test";

// Issue 27 point 4: readiness and Prometheus metrics, as an operator's tools see them.
const token = process.env.E2E_METRICS_TOKEN!;
const secondServer = `http://localhost:${Number(process.env.E2E_PORT ?? 3210) + 1}`;

test("/readyz reports each check, the job engine's included", async ({ request }) => {
  const res = await request.get("/readyz");
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ status: "ready", reason: null, checks: { database: "ok", migrations: "ok", jobs: "ok" } });
});

test("/metrics needs the bearer token", async ({ request }) => {
  expect((await request.get("/metrics")).status()).toBe(401);
  const wrong = await request.get("/metrics", { headers: { Authorization: "Bearer not-the-token-at-all" } });
  expect(wrong.status()).toBe(401);
  expect(wrong.headers()["www-authenticate"]).toMatch(/^Bearer/);
});

test("/metrics serves Prometheus text: requests by route pattern and status, jobs, process", async ({ request }) => {
  // A page with an id in its address: counted under its pattern, never under the id.
  await request.get("/changes/00000000-0000-4000-8000-000000000000", { maxRedirects: 0 });
  await request.get("/readyz");
  const res = await request.get("/metrics", { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  const body = await res.text();
  expect(body).toMatch(/^http_request_duration_seconds_count\{route="\/readyz",method="GET",status="200"\} [1-9]\d*$/m);
  expect(body).toMatch(/^http_request_duration_seconds_count\{route="\/changes\/:changeSetId",method="GET",status="(302|404)"\} [1-9]\d*$/m);
  expect(body).not.toMatch(/00000000-0000-4000-8000-000000000000/);
  expect(body).toMatch(/^jobs_queued\{queue="send-mail"\} \d+$/m);
  expect(body).toMatch(/^jobs_running\{queue="sync-account"\} \d+$/m);
  expect(body).toMatch(/^process_resident_memory_bytes \d+/m);
  expect(body).toMatch(/^nodejs_eventloop_lag_seconds /m);
});

test("without METRICS_TOKEN there is no /metrics", async ({ request }) => {
  const res = await request.get(`${secondServer}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(404);
});
