import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { threadId as mainThreadId } from "node:worker_threads";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MANAGER_CUSTOMER_ID, DEMO_SMALL_CUSTOMER_ID } from "../ads";
import { mountDemoEmulatorInWorker, type WorkerMount } from "../mount-host";

/**
 * Issue 26 point 6: the demo emulator mounted on the app's port as server.ts mounts it, its work on a worker
 * thread. Every request under /emulator is answered by the worker (counted there), the app's thread only
 * forwards: OAuth pages and tokens, the Ads API (a streamed searchStream, a mutate), Google's 404 page with the
 * mount path in it. Timings (/healthz and a page while demo accounts sync) are in `npm run bench`.
 */
const CLIENT = { id: "app-client.apps.googleusercontent.com", secret: "app-secret", redirectUri: "http://localhost:3000/api/v1/auth/google/callback" };
const ADS = "https://www.googleapis.com/auth/adwords";

let mount: WorkerMount;
let server: http.Server;
let base: string;
let forwarded = 0;

beforeAll(async () => {
  mount = mountDemoEmulatorInWorker({ publicBaseUrl: "http://localhost:3000/emulator", client: CLIENT }, "/emulator");
  const app = express();
  app.use("/emulator", (_req, _res, next) => {
    forwarded++;
    next();
  });
  app.use("/emulator", mount.handler);
  app.get("/healthz", (_req, res) => res.json({ status: "ok" }));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await mount.ready();
}, 60_000);

afterAll(async () => {
  await mount?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

async function signIn(): Promise<string> {
  const verifier = randomBytes(32).toString("base64url");
  const form = new URLSearchParams({
    client_id: CLIENT.id,
    redirect_uri: CLIENT.redirectUri,
    response_type: "code",
    scope: `openid email ${ADS}`,
    state: "s",
    access_type: "offline",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    action: "allow",
    granted_scope: ADS,
  });
  const consent = await fetch(`${base}/emulator/o/oauth2/v2/auth`, { method: "POST", body: form, redirect: "manual" });
  expect(consent.status).toBe(302);
  const code = new URL(consent.headers.get("Location")!).searchParams.get("code")!;
  const token = await fetch(`${base}/emulator/token`, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: CLIENT.redirectUri,
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
      code_verifier: verifier,
    }),
  });
  expect(token.status).toBe(200);
  return ((await token.json()) as { access_token: string }).access_token;
}

describe("the demo emulator on a worker thread, mounted on the app's port", () => {
  it("answers every request under the mount from the worker, and only those", async () => {
    const before = await mount.stats();
    expect(before.threadId).not.toBe(mainThreadId);
    expect(before.threadId).toBeGreaterThan(0);
    const countedBefore = forwarded;

    const discovery = await fetch(`${base}/emulator/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(((await discovery.json()) as { issuer: string }).issuer).toBe("http://localhost:3000/emulator");

    const accessToken = await signIn();
    const headers = { Authorization: `Bearer ${accessToken}`, "login-customer-id": DEMO_MANAGER_CUSTOMER_ID, "Content-Type": "application/json" };
    const stream = await fetch(`${base}/emulator/v26/customers/${DEMO_SMALL_CUSTOMER_ID}/googleAds:searchStream`, {
      method: "POST",
      headers,
      body: JSON.stringify({ query: "SELECT campaign.id, campaign.name, metrics.clicks FROM campaign WHERE segments.date DURING LAST_30_DAYS" }),
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("request-id")).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const batches = (await stream.json()) as Array<{ results?: unknown[] }>;
    expect(batches[0]!.results!.length).toBeGreaterThan(0);

    // A mutate's body goes through too (validateOnly: nothing changes).
    const budget = await fetch(`${base}/emulator/v26/customers/${DEMO_SMALL_CUSTOMER_ID}/googleAds:search`, {
      method: "POST",
      headers,
      body: JSON.stringify({ query: "SELECT campaign_budget.resource_name FROM campaign_budget LIMIT 1" }),
    });
    const resourceName = ((await budget.json()) as { results: Array<{ campaignBudget: { resourceName: string } }> }).results[0]!.campaignBudget.resourceName;
    const mutate = await fetch(`${base}/emulator/v26/customers/${DEMO_SMALL_CUSTOMER_ID}/campaignBudgets:mutate`, {
      method: "POST",
      headers,
      body: JSON.stringify({ operations: [{ update: { resourceName, amountMicros: "12340000" }, updateMask: "amountMicros" }], validateOnly: true }),
    });
    expect(mutate.status).toBe(200);

    const missing = await fetch(`${base}/emulator/no/such/page`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("/emulator/no/such/page");

    // The app's own routes are not the emulator's.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);

    const after = await mount.stats();
    expect(after.threadId).toBe(before.threadId);
    expect(forwarded - countedBefore).toBe(7);
    expect(after.served - before.served).toBe(7);
  });

  it("a client that goes away mid-answer does not take the mount down", async () => {
    const controller = new AbortController();
    const pending = fetch(`${base}/emulator/.well-known/openid-configuration`, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow();
    expect((await fetch(`${base}/emulator/.well-known/openid-configuration`)).status).toBe(200);
  });
});
