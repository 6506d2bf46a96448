import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, expect, it } from "vitest";
import { mountDemoEmulatorInWorker, type WorkerMount } from "../../emulator/mount-host";
import { bodyLimit } from "~/server/http/body-limit.server";

/**
 * The demo emulator on its worker thread behind the app's body limit (server.ts mounts it after
 * bodyLimit): a body refused while it streams through (chunked, no Content-Length) gets the app's
 * 413 once, the half-sent request to the worker is dropped, and the mount goes on answering.
 */
const CLIENT = { id: "app-client.apps.googleusercontent.com", secret: "app-secret", redirectUri: "http://localhost:3000/api/v1/auth/google/callback" };
let mount: WorkerMount;
let server: http.Server;
let base: string;

beforeAll(async () => {
  mount = mountDemoEmulatorInWorker({ publicBaseUrl: "http://localhost:3000/emulator", client: CLIENT }, "/emulator");
  const app = express();
  app.use(bodyLimit(100));
  app.use("/emulator", mount.handler);
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

it("a body refused at the app's limit while it streams is answered 413 once, and the mount goes on", async () => {
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(`grant_type=authorization_code&code=${"x".repeat(500)}`));
      controller.close();
    },
  });
  const refused = await fetch(`${base}/emulator/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body,
    duplex: "half",
  } as RequestInit);
  expect(refused.status).toBe(413);
  const small = await fetch(`${base}/emulator/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "grant_type=x",
  });
  expect(small.status).toBe(400);
  expect((await fetch(`${base}/emulator/.well-known/openid-configuration`)).status).toBe(200);
});
