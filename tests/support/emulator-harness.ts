import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { createAdsDataSource, createDemoStore, createMutateHandler, DEMO_USER_EMAIL, type AdsStore, type DemoStoreOptions } from "../../emulator/ads";
import { createEmulator, type Emulator, type EmulatorOptions } from "../../emulator/server";
import { completeGoogleSignIn } from "../../app/server/auth/google-connection.server";
import { ADS_SCOPE, CALLBACK_PATH } from "../../app/server/auth/google-oauth.server";
import { getConfig } from "../../app/server/env.server";
import { refreshAccounts } from "../../app/server/ads/accounts.server";

/**
 * Test and benchmark support only (nothing in the app imports it): the Google
 * emulator on an ephemeral port, and a user connected to it through the real
 * OAuth endpoints and the app's own connection and account-discovery code.
 */

/** The app's Google endpoint settings pointed at an emulator at baseUrl (tests and benchmarks). */
export function googleEnvFor(baseUrl: string) {
  return {
    GOOGLE_AUTHORIZATION_URL: `${baseUrl}/o/oauth2/v2/auth`,
    GOOGLE_TOKEN_URL: `${baseUrl}/token`,
    GOOGLE_USERINFO_URL: `${baseUrl}/v1/userinfo`,
    GOOGLE_REVOKE_URL: `${baseUrl}/revoke`,
    GOOGLE_ADS_API_URL: baseUrl,
  };
}

export interface RunningEmulator {
  emulator: Emulator;
  store: AdsStore;
  baseUrl: string;
  /** Requests per Ads method seen so far, e.g. { searchStream: 11 }. */
  calls: Record<string, number>;
  /** Env for setupTestEnvironment/parseConfig that points every Google endpoint here. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export interface StartEmulatorOptions {
  store?: AdsStore;
  storeOptions?: DemoStoreOptions;
  /** Serve the write side too (mutate endpoints, change history). */
  writable?: boolean;
  /** More of the emulator's options (dailyOperations, faults, …). */
  emulatorOptions?: Partial<EmulatorOptions>;
}

export async function startEmulator(opts: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const store = opts.store ?? createDemoStore(opts.storeOptions);
  const emulator = createEmulator({
    dataSource: createAdsDataSource(store),
    clock: store.clock,
    ...(opts.writable ? { mutate: createMutateHandler(store) } : {}),
    ...opts.emulatorOptions,
    // Faults the tests inject are expected; only warnings, so vitest.setup's console.error guard stays quiet.
    logger: { error: (message: string) => console.warn(`[emulator] ${message}`) },
  });
  const calls: Record<string, number> = {};
  const server = http.createServer((req, res) => {
    const method = /googleAds:(\w+)/.exec(req.url ?? "")?.[1];
    if (method) calls[method] = (calls[method] ?? 0) + 1;
    emulator.handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    emulator,
    store,
    baseUrl,
    calls,
    env: googleEnvFor(baseUrl),
    close: async () => {
      await emulator.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const TokenResponse = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number(),
  scope: z.string(),
});
const UserInfo = z.object({ sub: z.string(), email: z.string() });

/**
 * The demo Google user consents (Ads scope ticked), the code is exchanged
 * with the app's configured client, and the app stores the connection and
 * discovers the accounts exactly as after a real sign-in. Returns the new user's id.
 */
export async function connectDemoUser(baseUrl: string): Promise<string> {
  const { google, APP_URL } = getConfig();
  const redirectUri = `${APP_URL}${CALLBACK_PATH}`;
  const verifier = randomBytes(48).toString("base64url");
  const consent = await fetch(`${baseUrl}/o/oauth2/v2/auth`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      client_id: google.clientId,
      redirect_uri: redirectUri,
      response_type: "code",
      scope: `openid email ${ADS_SCOPE}`,
      state: "harness",
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      access_type: "offline",
      prompt: "consent",
      action: "allow",
      granted_scope: ADS_SCOPE,
    }),
    redirect: "manual",
  });
  const code = new URL(consent.headers.get("location") ?? "http://invalid/").searchParams.get("code");
  if (!code) throw new Error(`emulator consent did not redirect with a code (HTTP ${consent.status})`);
  const tokenRes = await fetch(`${baseUrl}/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      client_id: google.clientId,
      client_secret: google.clientSecret,
      code_verifier: verifier,
    }),
  });
  const tokens = TokenResponse.parse(await tokenRes.json());
  const profile = UserInfo.parse(await (await fetch(`${baseUrl}/v1/userinfo`, { headers: { Authorization: `Bearer ${tokens.access_token}` } })).json());
  const { userId } = await completeGoogleSignIn(
    {
      profile: { sub: profile.sub, email: profile.email, emailVerified: true },
      tokens: {
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token,
        expiresAt: new Date(Date.now() + tokens.expires_in * 1000),
        scopes: tokens.scope.split(" "),
      },
    },
    null,
  );
  const accounts = await refreshAccounts(userId);
  if (!accounts.ok) throw new Error(`account discovery failed: ${accounts.error}`);
  return userId;
}

export { DEMO_USER_EMAIL };
