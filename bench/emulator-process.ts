// The Google emulator serving a scaled demo account, in a process of its own
// so the benchmark's memory figures are the sync's, not the emulator's.
//
//   node --import tsx bench/emulator-process.ts '{"today":"2026-11-22","scale":{"totalKeywords":100000},"prerenderSyncAt":"2026-11-22T15:00:00Z"}'
//
// With prerenderSyncAt, the answers to the queries a sync started at that time makes of the
// large account are rendered before READY (emulator/rest/stream-cache.ts: Google's work is not
// on this machine's cores); POST /__bench/live forgets them, so what follows is answered live.
// GET /__bench/stream-cache: how many searchStream answers came from renderings and how many live.
// GET /__bench/bytes: bytes of Google Ads API answers sent so far (what a sync read).
// With "admin": true, /__emulator/* (operations counted as Google counts them, the clock) is served.
//
// Prints one line, `READY {"port":…,"generationMs":…,"prerender":{…},"account":{…}}`, then serves until killed.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createAdsDataSource, createDemoStore, DEMO_RICH_CUSTOMER_ID, generationReports, queryBatches, type DemoStoreOptions } from "../emulator/ads";
import { createEmulator } from "../emulator/server";
import { syncRange } from "../app/server/ads/sync/state.server";
import { SYNC_STEPS } from "../app/server/ads/sync/streams.server";

const options = JSON.parse(process.argv[2] ?? "{}") as DemoStoreOptions & { prerenderSyncAt?: string; admin?: boolean };
const store = createDemoStore(options);
const report = generationReports.get(store);
const dataSource = createAdsDataSource(store);
const emulator = createEmulator({
  dataSource,
  streamCache: options.prerenderSyncAt !== undefined,
  clock: store.clock,
  enableAdmin: options.admin === true,
  logger: { error: (message: string) => console.warn(`[emulator] ${message}`) },
});

/** Renders the answers of the sync's streams for the large account, as job.server.ts would ask for them at `at`. */
async function prerender(at: Date): Promise<{ answers: number; mb: number; ms: number }> {
  const t0 = performance.now();
  const [batch] = queryBatches(dataSource, DEMO_RICH_CUSTOMER_ID, "SELECT customer.time_zone FROM customer LIMIT 1");
  const timeZone = (batch?.results?.[0] as { customer?: { timeZone?: string } } | undefined)?.customer?.timeZone;
  if (!timeZone) throw new Error("the large account has no time zone");
  const range = syncRange(timeZone, at);
  let bytes = 0;
  for (const step of SYNC_STEPS) bytes += await emulator.state.prerenderSearchStream(DEMO_RICH_CUSTOMER_ID, step.query(range));
  return { answers: SYNC_STEPS.length, mb: Math.round(bytes / 2 ** 20), ms: Math.round(performance.now() - t0) };
}

let adsBytes = 0;
/** Counts the bytes of Google Ads API answers (what the sync reads off the wire, before any decompression: none here). */
function countBytes(res: http.ServerResponse) {
  const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const end = res.end.bind(res) as (chunk?: unknown, ...rest: unknown[]) => http.ServerResponse;
  const size = (chunk: unknown) => (typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk instanceof Uint8Array ? chunk.byteLength : 0);
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    adsBytes += size(chunk);
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== "function") adsBytes += size(chunk);
    return end(chunk, ...rest);
  }) as typeof res.end;
}

const server = http.createServer((req, res) => {
  if (req.url === "/__bench/bytes") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ bytes: adsBytes }));
    return;
  }
  if (/^\/v\d+\//.test(req.url ?? "")) countBytes(res);
  if (req.url === "/__bench/stream-cache") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(emulator.state.streamCacheStats()));
    return;
  }
  if (req.url === "/__bench/live" && req.method === "POST") {
    emulator.state.clearStreamCache();
    res.writeHead(204).end();
    return;
  }
  emulator.handler(req, res);
});
const rendered = options.prerenderSyncAt ? await prerender(new Date(options.prerenderSyncAt)) : null;
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  const account = report?.accounts.find((a) => a.customerId === DEMO_RICH_CUSTOMER_ID);
  process.stdout.write(`READY ${JSON.stringify({ port, generationMs: Math.round(report?.ms ?? 0), prerender: rendered, account })}\n`);
});
process.on("SIGTERM", () => {
  void emulator.close().finally(() => process.exit(0));
});
