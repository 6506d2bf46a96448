/**
 * The demo emulator's thread (issue 26 point 6): mount-host.ts starts it and forwards every request under the
 * app's /emulator to it. Here the emulator does all its work (GAQL over the demo accounts, rendering large
 * searchStream answers, the mutate journal) on its own event loop, so the app's requests never wait behind it.
 * It listens on a loopback port only the host knows, and answers as if mounted at the host's path.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parentPort, threadId, workerData } from "node:worker_threads";
import { notFoundHtml } from "./http/google-errors";
import { sendHtml } from "./http/util";
import { mountDemoEmulator, type DemoMountOptions } from "./mount";

export interface MountWorkerData {
  options: DemoMountOptions;
  /** Where the host mounts it ("/emulator"): the emulator's own URLs and 404 pages name it. */
  mountPath: string;
}

export type FromMountWorker =
  { type: "listening"; port: number; threadId: number } | { type: "failed"; message: string } | { type: "stats"; served: number; threadId: number };

export type ToMountWorker = { type: "stats" };

const port = parentPort;
if (!port) throw new Error("emulator/mount-worker.ts runs as a worker thread (emulator/mount-host.ts starts it)");

const { options, mountPath } = workerData as MountWorkerData;
let served = 0;
try {
  const handler = mountDemoEmulator(options);
  const server = http.createServer((req, res) => {
    served++;
    // As Express presents a mounted handler's request: the prefix in baseUrl, the rest in url.
    Object.assign(req, { originalUrl: `${mountPath}${req.url ?? "/"}`, baseUrl: mountPath });
    handler(req, res, (error) => {
      // Only reached for a failure after the answer began (the emulator answers every path itself).
      if (!res.headersSent) sendHtml(res, error ? 500 : 404, notFoundHtml(`${mountPath}${(req.url ?? "/").split("?")[0]}`));
      else res.destroy();
    });
  });
  // The host keeps connections open (keep-alive); the worker must not time them out under it.
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => {
    port.postMessage({ type: "listening", port: (server.address() as AddressInfo).port, threadId } satisfies FromMountWorker);
  });
  port.on("message", (message: ToMountWorker) => {
    if (message.type === "stats") port.postMessage({ type: "stats", served, threadId } satisfies FromMountWorker);
  });
} catch (error) {
  port.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) } satisfies FromMountWorker);
}
