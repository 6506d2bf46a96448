/**
 * The demo emulator mounted on the app's port, its work on another thread (issue 26 point 6). The app's
 * event loop only forwards bytes: each request under the mount path is piped to the emulator's worker
 * (mount-worker.ts, listening on a loopback port) and its answer piped back as it streams. Rendering a
 * demo account's 90 days, or a searchStream of the large test account, no longer holds up /healthz or
 * a page another person is loading.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { Worker } from "node:worker_threads";
import type { DemoMountOptions } from "./mount";
import type { FromMountWorker, MountWorkerData, ToMountWorker } from "./mount-worker";

export interface WorkerMountStats {
  /** Requests the worker has answered since it started. */
  served: number;
  /** The worker's thread id (never the main thread's 0). */
  threadId: number;
}

export interface WorkerMount {
  handler(req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void;
  /** Resolves once the worker listens (the first request waits for it anyway). */
  ready(): Promise<void>;
  stats(): Promise<WorkerMountStats>;
  close(): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection, not to the forwarded message. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade"]);

function forwardable(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

/** Where the worker's code is: through tsx in development and tests, beside the server bundle in a build. */
function workerUrl(): URL {
  const here = import.meta.url;
  // Names in variables: a bundler would otherwise take `new URL("…", import.meta.url)` for an asset.
  const source = "./mount-worker-dev.mjs";
  const built = "./emulator-worker.js";
  return new URL(here.endsWith(".ts") ? source : built, here);
}

export function mountDemoEmulatorInWorker(
  options: DemoMountOptions,
  mountPath: string,
  log: { error(message: string): void } = { error: (m) => console.error(m) },
): WorkerMount {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let started: { worker: Worker; port: Promise<number> } | undefined;
  const statsWaiting: Array<(stats: WorkerMountStats) => void> = [];

  function start() {
    if (started) return started;
    const worker = new Worker(workerUrl(), { workerData: { options, mountPath } satisfies MountWorkerData });
    // Never what keeps the process up (tests, shutdown); the server's own listener does that.
    worker.unref();
    const port = new Promise<number>((resolve, reject) => {
      worker.on("message", (message: FromMountWorker) => {
        if (message.type === "listening") resolve(message.port);
        else if (message.type === "failed") reject(new Error(`the demo emulator could not start: ${message.message}`));
        else if (message.type === "stats") statsWaiting.shift()?.({ served: message.served, threadId: message.threadId });
      });
      worker.on("error", reject);
      worker.on("exit", (code) => {
        reject(new Error(`the demo emulator's worker exited with code ${code}`));
        // Not after close(), which let it go. The next request starts a new one; the demo's changes
        // and grants are kept in DATA_DIR/emulator.
        if (started?.worker !== worker) return;
        started = undefined;
        log.error(`the demo emulator's worker exited with code ${code}`);
      });
    });
    port.catch(() => {});
    started = { worker, port };
    return started;
  }

  function handler(req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void {
    start()
      .port.then((port) => {
        let answered = false;
        const upstream = http.request(
          { host: "127.0.0.1", port, method: req.method, path: req.url ?? "/", headers: forwardable(req.headers), agent },
          (answer) => {
            // Answered already on this side (the body limit's 413): the worker's answer goes nowhere.
            if (res.headersSent) {
              answer.resume();
              return;
            }
            res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
            answer.on("end", () => (answered = true));
            answer.pipe(res);
            answer.on("error", () => res.destroy());
          },
        );
        upstream.on("error", (error) => {
          if (!res.headersSent) next(error);
          else res.destroy();
        });
        // The client went away, or this side answered already (the body limit's 413): the forwarded
        // request goes too (a long searchStream stops rendering, a half-sent body stops waiting).
        res.on("close", () => {
          if (!upstream.destroyed && !answered) upstream.destroy();
        });
        req.pipe(upstream);
      })
      .catch(next);
  }

  return {
    handler,
    ready: async () => {
      await start().port;
    },
    stats: async () => {
      const { worker, port } = start();
      await port;
      return new Promise<WorkerMountStats>((resolve) => {
        statsWaiting.push(resolve);
        worker.postMessage({ type: "stats" } satisfies ToMountWorker);
      });
    },
    close: async () => {
      agent.destroy();
      const running = started;
      started = undefined;
      await running?.worker.terminate();
    },
  };
}
