import http from "node:http";
import type { AddressInfo } from "node:net";
import { createAdsDataSource, createDemoStore, createMutateHandler, DEMO_SMALL_CUSTOMER_ID, type AdsStore } from "../../emulator/ads";
import { createEmulator } from "../../emulator/server";
import { googleEnvFor } from "./emulator-harness";
import { createSession } from "../../app/server/auth/session.server";
import { getConfig } from "../../app/server/env.server";
import { approvalFromApiRequest } from "../../app/server/changes/approval.server";
import type { ApplyOptions } from "../../app/server/changes/pipeline.server";

/**
 * Test support only: the project's Google emulator with its write side
 * (mutate endpoints + change_event) on an ephemeral port. The ads harness
 * starts a read-only one; these tests need writes.
 */
export interface WritableEmulator {
  store: AdsStore;
  baseUrl: string;
  /** mutate requests seen (validateOnly included). */
  mutates: () => number;
  /** Mutates that reached the write side as dry runs (validateOnly: true) and as real writes. */
  mutateKinds: () => { dryRuns: number; writes: number };
  env: Record<string, string>;
  close(): Promise<void>;
}

export const CUSTOMER = DEMO_SMALL_CUSTOMER_ID;

export interface WritableEmulatorOptions {
  /** Hold each mutate this long before the emulator sees it. */
  mutateDelayMs?: () => number;
  /** For a mutate whose client hung up during the delay: true drops it (Google never got it), false still applies it. */
  dropAbandoned?: () => boolean;
  /** true: apply the mutate, then hang up instead of answering (the caller cannot know it was applied). */
  cutOffAnswer?: () => boolean;
  /** true: Google is down: every Ads API request gets 503 UNAVAILABLE (OAuth still answers). */
  adsDown?: () => boolean;
  /** The accounts served (default: the demo), e.g. a fixture store. */
  store?: AdsStore;
  /** Hold each searchStream this long before answering (a sync that takes a while). */
  searchDelayMs?: () => number;
  /** Apply each mutate at once but hold its answer this long (Google did it; the caller does not know yet). */
  answerDelayMs?: () => number;
}

export async function startWritableEmulator(opts: WritableEmulatorOptions = {}): Promise<WritableEmulator> {
  const store = opts.store ?? createDemoStore();
  const kinds = { dryRuns: 0, writes: 0 };
  const mutate = createMutateHandler(store);
  const emulator = createEmulator({
    dataSource: createAdsDataSource(store),
    mutate: (request) => {
      if (request.body.validateOnly === true) kinds.dryRuns += 1;
      else kinds.writes += 1;
      return mutate(request);
    },
    logger: { error: (message: string) => console.warn(`[emulator] ${message}`) },
  });
  let mutates = 0;
  const server = http.createServer((req, res) => {
    if (opts.adsDown?.() && /^\/v\d+\//.test(req.url ?? "")) {
      res.writeHead(503, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: { code: 503, message: "The service is currently unavailable.", status: "UNAVAILABLE" } }));
      return;
    }
    const searchDelay = /:searchStream$/.test(req.url ?? "") ? (opts.searchDelayMs?.() ?? 0) : 0;
    if (searchDelay > 0) {
      setTimeout(() => emulator.handler(req, res), searchDelay);
      return;
    }
    if (!/:mutate$/.test(req.url ?? "")) return emulator.handler(req, res);
    mutates += 1;
    const answerDelay = opts.answerDelayMs?.() ?? 0;
    if (answerDelay > 0) {
      const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
      res.end = ((...args: unknown[]) => {
        setTimeout(() => end(...args), answerDelay);
        return res;
      }) as typeof res.end;
    }
    if (opts.cutOffAnswer?.()) {
      const hangUp = () => {
        res.socket?.destroy();
        return res;
      };
      res.write = (() => true) as typeof res.write;
      res.end = hangUp as typeof res.end;
    }
    // Widens the window between "sent" and "answered", where a crash leaves the outcome unknown.
    const delay = opts.mutateDelayMs?.() ?? 0;
    if (delay > 0) {
      setTimeout(() => {
        if ((req.socket.destroyed || res.socket?.destroyed) && opts.dropAbandoned?.()) {
          res.destroy();
          return;
        }
        emulator.handler(req, res);
      }, delay);
    } else emulator.handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    store,
    baseUrl,
    mutates: () => mutates,
    mutateKinds: () => ({ ...kinds }),
    env: googleEnvFor(baseUrl),
    close: async () => {
      await emulator.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Apply options carrying a genuine approval, obtained the only way there is:
 * a signed-in person's POST to the API's apply endpoint (a real session and
 * bearer token for `userId`).
 */
export async function approved(userId: string, changeSetId: string, extra: Omit<ApplyOptions, "approval"> = {}): Promise<ApplyOptions> {
  const { accessToken } = await createSession(userId, new Request("http://localhost/"));
  const request = new Request(`${getConfig().APP_URL}/api/v1/change-sets/${changeSetId}/apply`, {
    method: "POST",
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  return { ...extra, approval: await approvalFromApiRequest(request, changeSetId) };
}
