import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createAdsDataSource, createDemoStore, createMutateHandler } from "../ads";
import { GoogleAdsFailureError, type AdsDataSource, type QueryPage } from "../ads/contract";
import type { AdsStore } from "../ads/store/store";
import { createEmulator, type Emulator, type EmulatorOptions } from "../server";

export const DEMO_EMAIL = "demo.advertiser@example.com";
export const ADWORDS = "https://www.googleapis.com/auth/adwords";
export const EMAIL = "https://www.googleapis.com/auth/userinfo.email";

/** Customer ids of the fake account tree. */
export const MANAGER = "1111111111"; // direct access, manager of CLIENT
export const CLIENT = "2222222222"; // reachable only with login-customer-id = MANAGER
export const BIG = "3333333333"; // direct access, 25,000 rows per query
export const STRANGER = "4444444444"; // exists, no access

const ROWS: Record<string, number> = { [MANAGER]: 3, [CLIENT]: 2, [BIG]: 25_000, [STRANGER]: 1 };

/**
 * A small stand-in for the data layer: canned rows, offset page tokens, and a
 * few magic words in the query to make it fail ("BAD", "CRASH", "FAIL_PAGE_2", "EMPTY").
 */
export function fakeDataSource(): AdsDataSource & { calls: Array<{ customerId: string; gaql: string; opts?: unknown }> } {
  const calls: Array<{ customerId: string; gaql: string; opts?: unknown }> = [];
  return {
    calls,
    accessibleCustomerIds: (email) => (email === DEMO_EMAIL ? [MANAGER, BIG] : []),
    customerExists: (id) => id in ROWS,
    canAccess: (email, id, login) => {
      if (email !== DEMO_EMAIL) return false;
      if (login === undefined) return id === MANAGER || id === BIG;
      if (login === MANAGER) return id === MANAGER || id === CLIENT;
      if (login === BIG) return id === BIG;
      return false;
    },
    query(customerId, gaql, opts): QueryPage {
      calls.push({ customerId, gaql, opts });
      if (gaql.includes("CRASH")) throw new Error("boom");
      if (!/^\s*SELECT\b/i.test(gaql) || gaql.includes("BAD")) {
        throw new GoogleAdsFailureError([
          {
            errorCode: { queryError: "UNRECOGNIZED_FIELD" },
            message: "Unrecognized field in the query: 'campaign.bad'.",
            trigger: { stringValue: "campaign.bad" },
          },
        ]);
      }
      const offset = opts?.pageToken ? Number(Buffer.from(opts.pageToken, "base64url").toString()) : 0;
      if (opts?.pageToken && gaql.includes("FAIL_PAGE_2")) {
        throw new GoogleAdsFailureError(
          [{ errorCode: { internalError: "TRANSIENT_ERROR" }, message: "transient" }],
          500,
          "INTERNAL",
          "Internal error encountered.",
        );
      }
      if (opts?.pageToken && !Number.isInteger(offset)) {
        throw new GoogleAdsFailureError([{ errorCode: { requestError: "INVALID_PAGE_TOKEN" }, message: "Invalid page token." }]);
      }
      const total = gaql.includes("EMPTY") ? 0 : ROWS[customerId]!;
      const size = opts?.pageSize ?? 10_000;
      const end = Math.min(total, offset + size);
      const results: Array<Record<string, unknown>> = [];
      for (let i = offset; i < end; i++) {
        results.push({
          campaign: { resourceName: `customers/${customerId}/campaigns/${i + 1}`, id: String(i + 1) },
          metrics: { clicks: String(i % 7) },
        });
      }
      return {
        results,
        fieldMask: "campaign.id,metrics.clicks",
        ...(end < total ? { nextPageToken: Buffer.from(String(end)).toString("base64url") } : {}),
        ...(opts?.returnTotalResultsCount ? { totalResultsCount: String(total) } : {}),
        ...(end >= total ? { queryResourceConsumption: "42" } : {}),
      };
    },
  };
}

export interface Running {
  emulator: Emulator;
  baseUrl: string;
  close(): Promise<void>;
}

/** The handler on an ephemeral port; `prefix` mounts it the way Express does (req.baseUrl + stripped req.url). */
export async function startEmulator(options: Partial<EmulatorOptions> = {}, prefix = ""): Promise<Running> {
  const emulator = createEmulator({ dataSource: fakeDataSource(), enableAdmin: true, ...options });
  const server = http.createServer((req, res) => {
    if (prefix) {
      const original = req.url ?? "/";
      if (!original.startsWith(prefix)) {
        res.writeHead(404).end();
        return;
      }
      Object.assign(req, { originalUrl: original, baseUrl: prefix, url: original.slice(prefix.length) || "/" });
    }
    emulator.handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    emulator,
    baseUrl: `http://127.0.0.1:${port}${prefix}`,
    close: async () => {
      await emulator.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The demo store behind the full emulator, read and write side, as the app mounts it. */
export async function startDemoEmulator(
  opts: { today?: string; now?: () => Date; options?: Partial<EmulatorOptions> } = {},
): Promise<Running & { store: AdsStore }> {
  const store = createDemoStore(opts.today ? { today: opts.today } : { now: opts.now });
  const running = await startEmulator({
    dataSource: createAdsDataSource(store),
    mutate: createMutateHandler(store, { now: opts.now }),
    clock: store.clock,
    ...opts.options,
  });
  return { ...running, store };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** Hidden inputs and ticked checkboxes of the consent form, as a browser would submit them. */
export function consentForm(html: string, untick: string[] = []): URLSearchParams {
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.append(m[1]!, unescape(m[2]!));
  for (const m of html.matchAll(/<input type="checkbox" name="granted_scope" value="([^"]+)" checked>/g)) {
    const scope = unescape(m[1]!);
    if (!untick.includes(scope)) form.append("granted_scope", scope);
  }
  return form;
}

function unescape(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

export interface FlowOptions {
  clientId?: string;
  clientSecret?: string;
  redirectUri?: string;
  scope?: string;
  accessType?: "online" | "offline";
  pkce?: boolean;
  untick?: string[];
  state?: string;
  nonce?: string;
  includeGrantedScopes?: boolean;
}

/** Consent page → Allow → redirect: the authorization code and the redirect's parameters. */
export async function authorize(baseUrl: string, o: FlowOptions = {}) {
  const pkce = o.pkce === false ? undefined : pkcePair();
  const params = new URLSearchParams({
    client_id: o.clientId ?? "test-client.apps.googleusercontent.com",
    redirect_uri: o.redirectUri ?? "http://app.test/oauth/callback",
    response_type: "code",
    scope: o.scope ?? `openid email ${ADWORDS}`,
    state: o.state ?? "st-123",
    access_type: o.accessType ?? "offline",
    prompt: "consent",
    ...(o.includeGrantedScopes ? { include_granted_scopes: "true" } : {}),
    ...(pkce ? { code_challenge: pkce.challenge, code_challenge_method: "S256" } : {}),
    ...(o.nonce ? { nonce: o.nonce } : {}),
  });
  const page = await fetch(`${baseUrl}/o/oauth2/v2/auth?${params}`);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page ${page.status}: ${html.slice(0, 300)}`);
  const form = consentForm(html, o.untick);
  form.append("action", "allow");
  const res = await fetch(`${baseUrl}/o/oauth2/v2/auth`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: form,
    redirect: "manual",
  });
  const location = new URL(res.headers.get("location")!);
  return { status: res.status, location, code: location.searchParams.get("code")!, verifier: pkce?.verifier, params };
}

export async function postForm(url: string, fields: Record<string, string | undefined>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) body.append(k, v);
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body,
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, any> };
}

/** Full flow to tokens. */
export async function signIn(baseUrl: string, o: FlowOptions = {}) {
  const auth = await authorize(baseUrl, o);
  const token = await postForm(`${baseUrl}/token`, {
    grant_type: "authorization_code",
    code: auth.code,
    redirect_uri: o.redirectUri ?? "http://app.test/oauth/callback",
    client_id: o.clientId ?? "test-client.apps.googleusercontent.com",
    client_secret: o.clientSecret ?? "any-secret",
    code_verifier: auth.verifier,
  });
  if (token.status !== 200) throw new Error(`token ${token.status}: ${JSON.stringify(token.json)}`);
  return {
    ...auth,
    tokens: token.json as { access_token: string; refresh_token?: string; id_token?: string; scope: string; expires_in: number; token_type: string },
  };
}

export async function ads(
  baseUrl: string,
  path: string,
  token: string | undefined,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${baseUrl}/v24/${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      "developer-token": "ignored-dev-token",
      ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
