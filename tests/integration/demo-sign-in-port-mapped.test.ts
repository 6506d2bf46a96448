import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_USER_EMAIL } from "../../emulator/ads";
import { threadId as mainThreadId } from "node:worker_threads";
import { mountDemoEmulatorInWorker, type WorkerMount } from "../../emulator/mount-host";
import { settleSyncs, SYNC_SETTLE_MS } from "../support/settle-syncs";
import { drainJobs } from "../support/jobs";
import { setupTestEnvironment, type TestContext } from "../setup/test-db";
import { routeArgs } from "../support/route-args";
import { arriveAt } from "../support/sign-in-code";
import { loader as callbackLoader } from "~/routes/api/auth-google-callback";
import { loader as startLoader } from "~/routes/api/auth-google";
import { getSession } from "~/server/auth/session.server";
import { CALLBACK_PATH } from "~/server/auth/google-oauth.server";
import { EMULATOR_MOUNT_PATH } from "~/server/env.server";

/**
 * Issue 35, fault 1: in Docker with `-p 8080:3000` and APP_URL=http://localhost:8080, the server
 * listens on 3000 and nothing inside the container answers on 8080. The demo sign-in must still
 * work: the browser goes through APP_URL (here: a port nobody listens on, mapped by hand to the
 * server's own port, as Docker's port mapping does), while the server's own calls to its mounted
 * emulator (code exchange, userinfo, the Ads API) go to its listen address.
 */
let server: http.Server;
let listenBase: string;
let appUrl: string;
let t: TestContext;
let emulator: WorkerMount;

async function closedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  const app = express();
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  listenBase = `http://127.0.0.1:${port}`;
  appUrl = `http://localhost:${await closedPort()}`;
  // Demo mode (no GOOGLE_CLIENT_ID), listening on `port`, reached by people at APP_URL.
  t = await setupTestEnvironment({ HOST: "127.0.0.1", PORT: String(port), APP_URL: appUrl });
  const { google } = t.config;
  // Mounted as server.ts mounts it, on a worker thread (issue 26 point 6): the browser-facing base is APP_URL's.
  emulator = mountDemoEmulatorInWorker(
    {
      publicBaseUrl: `${appUrl}${EMULATOR_MOUNT_PATH}`,
      client: { id: google.clientId, secret: google.clientSecret, redirectUri: `${appUrl}${CALLBACK_PATH}` },
    },
    EMULATOR_MOUNT_PATH,
  );
  app.use(EMULATOR_MOUNT_PATH, emulator.handler);
  await emulator.ready();
}, 60_000);

/**
 * The first sync's engine run is a job (engine-run) that nothing else runs in this test: run it once the
 * sync has queued it, so settleSyncs (which waits for the engine run too) can return.
 */
async function settleSyncsAndEngine(): Promise<void> {
  const deadline = Date.now() + SYNC_SETTLE_MS - 10_000;
  while (Date.now() < deadline) {
    const analysing = await t.db.selectFrom("optimizer_in_flight").select("customer_id").execute();
    if (analysing.length > 0) await drainJobs(t.db, ["engine-run"]);
    const running = await t.db
      .selectFrom("ads_sync_state")
      .select("customer_id")
      .where((eb) => eb.or([eb("status", "=", "running"), eb("detail_status", "=", "running")]))
      .execute();
    if (running.length === 0 && analysing.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await settleSyncs(t.db, 5_000);
}

afterAll(async () => {
  await settleSyncsAndEngine();
  await t.cleanup();
  await emulator?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}, SYNC_SETTLE_MS);

/** What the port mapping does for the browser: APP_URL's origin reaches the server's listen address. */
function throughPortMapping(url: string): string {
  expect(url.startsWith(`${appUrl}/`)).toBe(true);
  return `${listenBase}${url.slice(appUrl.length)}`;
}

function cookiesOf(res: Response, jar = new Map<string, string>()) {
  for (const line of res.headers.getSetCookie()) {
    const pair = line.split(";")[0];
    const i = pair.indexOf("=");
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
  return jar;
}

it("signs in through the demo when APP_URL is not the address the server listens on", { timeout: SYNC_SETTLE_MS }, async () => {
  const start = (await startLoader(routeArgs(new Request(`${appUrl}/api/v1/auth/google`)))) as Response;
  expect(start.status).toBe(302);
  const jar = cookiesOf(start);
  const authUrl = new URL(start.headers.get("Location")!);
  // The browser is sent to APP_URL, never to the server's internal address.
  expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${appUrl}/emulator/o/oauth2/v2/auth`);

  // The person allows access on the emulator's consent screen.
  const form = new URLSearchParams(authUrl.searchParams);
  form.set("action", "allow");
  form.append("granted_scope", "https://www.googleapis.com/auth/adwords");
  const consent = await fetch(throughPortMapping(`${appUrl}/emulator/o/oauth2/v2/auth`), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: form,
    redirect: "manual",
  });
  expect(consent.status).toBe(302);
  const back = consent.headers.get("Location")!;
  expect(back.startsWith(`${appUrl}${CALLBACK_PATH}?`)).toBe(true);

  const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = (await callbackLoader(routeArgs(new Request(back, { headers: { Cookie: cookie } })))) as Response;
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("Location")!, appUrl);
  // Before the fix: back to /login with "Google sign-in failed" (the code exchange went to APP_URL).
  expect(location.pathname).toBe("/dashboard");
  // Arriving with the one-time sign-in code (bound to this browser by the callback's cookie) starts the session.
  cookiesOf(res, jar);
  const arrived = await arriveAt(location.href, [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
  cookiesOf(arrived, jar);
  const signedIn = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const session = await getSession(new Request(`${appUrl}/dashboard`, { headers: { Cookie: signedIn } }));
  expect(session?.user.email).toBe(DEMO_USER_EMAIL);
  // The Ads API was reached over the listen address too: the accounts were discovered and the
  // first sync (started at the callback) brought the demo account's campaigns.
  const accounts = await t.db.selectFrom("ads_accounts").select("customer_id").where("user_id", "=", session!.user.id).execute();
  expect(accounts.length).toBeGreaterThan(0);
  // Every Google request of the sign-in (consent, code exchange, userinfo) and of the account discovery was
  // answered by the emulator's worker thread (issue 26 point 6).
  const { served, threadId } = await emulator.stats();
  expect(threadId).not.toBe(mainThreadId);
  expect(served).toBeGreaterThanOrEqual(4);
  await settleSyncsAndEngine();
  const sync = await t.db.selectFrom("ads_sync_state").select(["status", "last_error"]).executeTakeFirstOrThrow();
  expect(sync).toEqual({ status: "ok", last_error: null });
  const campaigns = await t.db
    .selectFrom("ads_campaigns")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  expect(Number(campaigns.n)).toBeGreaterThan(0);
});
