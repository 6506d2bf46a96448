import type { IncomingMessage, ServerResponse } from "node:http";
import { createAdsDataSource, createDemoStore, DEMO_USER_EMAIL } from "./ads";
import { createEmulator } from "./server";

/**
 * The emulator as the app's server mounts it in demo mode (no Google client
 * configured): a seeded demo account behind Google's real protocol.
 */
export function mountDemoEmulator(_opts: { dataDir: string }) {
  const store = createDemoStore();
  const emulator = createEmulator({
    dataSource: createAdsDataSource(store),
    demoUser: { email: DEMO_USER_EMAIL, name: "Demo Advertiser", sub: "100000000000000000001" },
  });
  return (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => emulator.handler(req, res, next);
}
