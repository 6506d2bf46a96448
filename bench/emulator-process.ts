// The Google emulator serving a scaled demo account, in a process of its own
// so the benchmark's memory figures are the sync's, not the emulator's.
//
//   node --import tsx bench/emulator-process.ts '{"today":"2026-11-22","scale":{"totalKeywords":100000}}'
//
// Prints one line, `READY {"port":…,"generationMs":…,"account":{…}}`, then serves until killed.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createAdsDataSource, createDemoStore, DEMO_RICH_CUSTOMER_ID, generationReports, type DemoStoreOptions } from "../emulator/ads";
import { createEmulator } from "../emulator/server";

const options = JSON.parse(process.argv[2] ?? "{}") as DemoStoreOptions;
const store = createDemoStore(options);
const report = generationReports.get(store);
const emulator = createEmulator({
  dataSource: createAdsDataSource(store),
  logger: { error: (message: string) => console.warn(`[emulator] ${message}`) },
});
const server = http.createServer((req, res) => emulator.handler(req, res));
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  const account = report?.accounts.find((a) => a.customerId === DEMO_RICH_CUSTOMER_ID);
  process.stdout.write(`READY ${JSON.stringify({ port, generationMs: Math.round(report?.ms ?? 0), account })}\n`);
});
process.on("SIGTERM", () => {
  void emulator.close().finally(() => process.exit(0));
});
