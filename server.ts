/**
 * The HTTP entry: security headers, cross-site refusal, static assets,
 * /healthz, /readyz and /metrics, the Google emulator in demo mode, then React Router. Graceful
 * shutdown on SIGTERM/SIGINT.
 *
 * Production: `node build/server.js` (this file bundled by scripts/build-server.mjs).
 * Development: `tsx server.ts --dev` (Vite middleware, HMR).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import type { ServerBuild } from "react-router";
import { compressResponses } from "./app/server/http/compression.server";
import { connectionCloseWhileDraining, drainServer } from "./app/server/lifecycle/drain.server";
import { bodyLimit, bodyWasRefused } from "./app/server/http/body-limit.server";
import { namesDataDirFile } from "./app/server/http/dev-files.server";
import { noStoreForData } from "./app/server/http/no-store.server";
import { requestLog } from "./app/server/http/request-log.server";
import { fairAdmission } from "./app/server/http/admission.server";
import { routePatternMatcher } from "./app/server/http/route-pattern.server";
import { errorMessage, log } from "./app/server/log.server";

type BootResult = Awaited<ReturnType<typeof import("./app/server/boot.server").boot>>;
/** What server.ts uses from the build's entry module (app/entry.server.tsx). */
interface Entry {
  boot: () => Promise<BootResult>;
  createLoadContext: typeof import("./app/server/request-context.server").createLoadContext;
}
type RequestInfo = import("./app/server/request-context.server").RequestInfo;

const dev = process.argv.includes("--dev") || process.env.NODE_ENV === "development";
const here = path.dirname(fileURLToPath(import.meta.url));

async function loadBuild() {
  if (!dev) {
    const build = (await import(path.join(here, "server/index.js"))) as ServerBuild;
    const entry = build.entry.module as unknown as Entry;
    // The build itself, not a function returning it: given a function, React Router
    // derives its routes and static handler again on every request (for development's
    // reloads), ~10 % of a signed-in page's CPU in the profile.
    return { build: build as ServerBuild | (() => Promise<ServerBuild>), routes: build.routes, entry, loadContext: entry.createLoadContext };
  }
  const vite = await import("vite");
  const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  const load = () => viteDevServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  const first = await load();
  // Vite may reload the app's modules: each request's context comes from the current build.
  const loadContext = async (info: RequestInfo) => ((await load()).entry.module as unknown as Entry).createLoadContext(info);
  return { build: load, routes: first.routes, entry: first.entry.module as unknown as Entry, loadContext, viteDevServer };
}

async function main() {
  const { build, routes, entry, loadContext, viteDevServer } = await loadBuild();
  let app: BootResult;
  try {
    app = await entry.boot();
  } catch (error) {
    // Configuration errors name the variable: the message alone says what to fix.
    if (error instanceof Error && error.name === "ConfigError") log.error(error.message);
    else log.error({ err: error }, "Could not start");
    process.exit(1);
  }

  let closing = false;
  let demoEmulator: import("./emulator/mount-host").WorkerMount | undefined;
  const server = express();
  server.disable("x-powered-by");
  server.set("trust proxy", app.trustProxy);

  server.use(connectionCloseWhileDraining);
  server.use(requestLog());
  // Request durations by route pattern and status (/metrics), measured to the end of each response.
  const routeOf = routePatternMatcher(routes);
  server.use((req, res, next) => {
    const started = performance.now();
    res.on("finish", () => app.metrics.observeHttp(routeOf(req.path), req.method, res.statusCode, (performance.now() - started) / 1000));
    next();
  });
  server.use(fairAdmission());
  server.use((_req, res, next) => {
    for (const [name, value] of Object.entries(app.securityHeaders)) res.setHeader(name, value);
    next();
  });

  server.use(bodyLimit(app.maxBodyBytes));
  server.use(noStoreForData);

  server.use((req, res, next) => {
    const crossSite = app.isCrossSite({
      method: req.method,
      origin: req.get("Origin"),
      secFetchSite: req.get("Sec-Fetch-Site"),
      host: req.get("Host"),
      protocol: req.protocol,
    });
    if (!crossSite) {
      // Under `Referrer-Policy: no-referrer` browsers send `Origin: null` even for
      // same-origin form posts (JavaScript off). Fetch metadata has proven this one
      // same-origin, so React Router's own origin check is given the real origin.
      if (req.get("Origin") === "null" && req.get("Sec-Fetch-Site") === "same-origin") {
        req.headers.origin = `${req.protocol}://${req.get("Host")}`;
      }
      return next();
    }
    res
      .status(403)
      .type("application/json")
      .send(JSON.stringify({ detail: "Cross-site request refused" }));
  });

  server.get("/healthz", async (_req, res) => {
    try {
      await app.health();
      res.json({ status: "ok", database: app.databaseKind, demoMode: app.demoMode });
    } catch (error) {
      log.error({ err: error }, "health check failed");
      res.status(503).json({ status: "unavailable" });
    }
  });

  // Readiness (a proxy's or an orchestrator's health check): 503 with the reason while this instance
  // should get no traffic, including from the moment shutdown begins.
  let lastNotReady: string | null = null;
  server.get("/readyz", async (_req, res) => {
    const readiness = closing ? { ready: false, reason: "shutdown: shutting down", checks: { shutdown: "shutting down" } } : await app.readiness();
    // Probed every few seconds: logged when the answer changes, not on every probe.
    if (readiness.reason !== lastNotReady) {
      if (readiness.reason) log.warn(`not ready: ${readiness.reason}`);
      else log.info("ready again");
      lastNotReady = readiness.reason;
    }
    res.status(readiness.ready ? 200 : 503).json({ status: readiness.ready ? "ready" : "unavailable", reason: readiness.reason, checks: readiness.checks });
  });

  // Prometheus metrics, only with METRICS_TOKEN (without it the address does not exist: React Router's 404).
  if (app.metricsToken) {
    const token = app.metricsToken;
    server.get("/metrics", async (req, res) => {
      if (!bearerMatches(req.get("Authorization"), token)) {
        res.status(401).set("WWW-Authenticate", 'Bearer realm="metrics"').json({ detail: "A valid bearer token is required" });
        return;
      }
      const { contentType, body } = await app.metrics.render();
      res.status(200).set("Content-Type", contentType).set("Cache-Control", "no-store").send(body);
    });
  }

  if (app.demoMode) {
    // On its own thread (issue 26 point 6): while demo accounts sync, its work never holds up this event loop.
    const { mountDemoEmulatorInWorker } = await import("./emulator/mount-host");
    demoEmulator = mountDemoEmulatorInWorker(
      {
        publicBaseUrl: `${app.appUrl}${app.emulatorMountPath}`,
        client: app.demoClient,
        stateDir: path.join(app.dataDir, "emulator"),
      },
      app.emulatorMountPath,
      { error: (message) => log.error(message) },
    );
    server.use(app.emulatorMountPath, demoEmulator.handler);
    // Its modules load while the server starts, not on the first sign-in.
    demoEmulator.ready().catch((error: unknown) => log.error({ err: error }, "the demo emulator did not start"));
  }

  server.use(compressResponses());
  if (viteDevServer) {
    // Vite serves the project's files; DATA_DIR (./data by default) is among them and must never be.
    const root = viteDevServer.config.root;
    server.use((req, res, next) => (namesDataDirFile(req.originalUrl, root, app.dataDir) ? res.status(404).end() : next()));
    server.use(viteDevServer.middlewares);
  } else {
    const client = path.join(here, "client");
    server.use("/assets", express.static(path.join(client, "assets"), { immutable: true, maxAge: "1y" }));
    // The other public files (favicon.svg, …) are listed once at start: asking the
    // file system about every page's path (a stat that fails) cost each request.
    const topLevel = new Set(
      fs
        .readdirSync(client, { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => `/${entry.name}`),
    );
    const publicFiles = express.static(client, { maxAge: "1h", index: false });
    server.use((req, res, next) => (topLevel.has(req.path) ? publicFiles(req, res, next) : next()));
  }

  server.all(
    "/{*splat}",
    createRequestHandler({
      build,
      mode: dev ? "development" : "production",
      // Middleware is on (future.v8_middleware): the context is a RouterContextProvider, made by the build itself.
      getLoadContext: (req) =>
        loadContext({
          clientIp: req.ip ?? "unknown",
          cspNonce: dev ? undefined : randomBytes(16).toString("base64"),
        }),
    }),
  );

  // A body cut off at MAX_BODY_BYTES was already answered with 413; its readers' errors are expected.
  server.use((error: unknown, req: express.Request, _res: express.Response, next: express.NextFunction) => {
    if (bodyWasRefused(req)) return;
    next(error);
  });

  // `npm run dev` is for this machine: it listens on loopback unless HOST says otherwise.
  const host = app.host ?? (dev ? "127.0.0.1" : "0.0.0.0");
  const listener = server.listen(app.port, host, () => {
    const address = listener.address();
    const port = typeof address === "object" && address ? address.port : app.port;
    log.info({ demoMode: app.demoMode, database: app.databaseKind, host }, `Ads AI Manager listening on ${app.appUrl} (port ${port})`);
  });
  // Node closes an idle keep-alive socket after 5 s; a client (a proxy, a browser, a test's request
  // context) that reuses it at that moment gets ECONNRESET. Outlive the usual 60 s of load balancers
  // instead; shutdown still closes idle sockets at once (drainServer).
  listener.keepAliveTimeout = 65_000;
  listener.headersTimeout = 66_000;

  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`received ${signal}, draining`);
    void drainServer(listener, app.shutdownTimeoutMs).then(async ({ clean, ms }) => {
      if (clean) log.info(`drained in ${ms} ms`);
      else log.warn(`gave up waiting after ${ms} ms`);
      await app.shutdown().catch(() => {});
      await demoEmulator?.close().catch(() => {});
      await viteDevServer?.close();
      process.exit(clean ? 0 : 1);
    });
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

// A promise nobody awaited that failed (a background mail, a log line) is a bug to fix, not a reason
// to drop every other user's requests: logged, and the server goes on.
process.on("unhandledRejection", (reason) => {
  log.error({ err: reason }, `Unhandled promise rejection: ${errorMessage(reason)}`);
});

/** The Authorization header carries exactly this bearer token (compared in constant time). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(header ?? "")?.[1];
  if (!given) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}

main().catch((error: unknown) => {
  log.error({ err: error }, `Could not start: ${errorMessage(error)}`);
  process.exit(1);
});
