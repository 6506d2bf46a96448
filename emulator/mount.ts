import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { createAdsDataSource, createDemoStore, createMutateHandler, DEMO_USER_EMAIL } from "./ads";
import { parseFaultsEnv } from "./faults";
import { createEmulator } from "./server";

const flag = z
  .enum(["true", "false", "1", "0"])
  .default("false")
  .transform((v) => v === "true" || v === "1");

const mountEnv = z.object({
  EMULATOR_ENABLE_ADMIN: flag,
  EMULATOR_FAULTS: z.string().optional(),
  EMULATOR_ACCESS_TOKEN_TTL: z.coerce.number().int().positive().default(3599),
});

/**
 * The emulator as the app's server mounts it in demo mode (no Google client
 * configured): a seeded demo account behind Google's real protocol. The same
 * EMULATOR_* variables as the standalone emulator switch its test hooks.
 */
export function mountDemoEmulator(opts: { publicBaseUrl: string }) {
  const cleaned = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = mountEnv.safeParse(cleaned);
  if (!parsed.success) {
    throw new Error(`Invalid emulator configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  const env = parsed.data;
  const store = createDemoStore();
  const emulator = createEmulator({
    dataSource: createAdsDataSource(store),
    mutate: createMutateHandler(store),
    demoUser: { email: DEMO_USER_EMAIL, name: "Demo Advertiser", sub: "100000000000000000001" },
    publicBaseUrl: opts.publicBaseUrl,
    enableAdmin: env.EMULATOR_ENABLE_ADMIN,
    faults: parseFaultsEnv(env.EMULATOR_FAULTS),
    accessTokenTtlSeconds: env.EMULATOR_ACCESS_TOKEN_TTL,
  });
  return (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => emulator.handler(req, res, next);
}
