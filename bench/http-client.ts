// A tiny HTTP client for the benchmarks: a cookie jar per origin, manual
// redirects, and the app's sign-in and Google connection done the way a
// browser with JavaScript off does them (forms and redirects).

export class Browser {
  private jar = new Map<string, Map<string, string>>();

  cookieHeader(url: string): string {
    const cookies = this.jar.get(new URL(url).origin);
    return cookies ? [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") : "";
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const origin = new URL(url).origin;
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(url);
    if (cookie) headers.set("Cookie", cookie);
    if (init.method && init.method !== "GET") {
      headers.set("Origin", origin);
      headers.set("Sec-Fetch-Site", "same-origin");
    }
    let res: Response;
    try {
      res = await fetch(url, { ...init, headers, redirect: "manual" });
    } catch (error) {
      // A keep-alive connection the server closed just as it was reused: a GET is safe to send again.
      if ((init.method ?? "GET") !== "GET") throw error;
      res = await fetch(url, { ...init, headers, redirect: "manual" });
    }
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const cookies = this.jar.get(origin) ?? new Map<string, string>();
      const expired = attrs.some((a) => /^\s*max-age=0/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === "") cookies.delete(name);
      else cookies.set(name, value);
      this.jar.set(origin, cookies);
    }
    return res;
  }

  /** Follows redirects (GET after the first hop); returns the last response and its URL. */
  async follow(url: string, init: RequestInit = {}): Promise<{ res: Response; url: string }> {
    let res = await this.request(url, init);
    let current = url;
    for (let hops = 0; res.status >= 300 && res.status < 400 && hops < 10; hops++) {
      const location = res.headers.get("Location");
      if (!location) break;
      await res.arrayBuffer();
      current = new URL(location, current).toString();
      res = await this.request(current);
    }
    return { res, url: current };
  }
}

export interface SignedIn {
  browser: Browser;
  email: string;
  password: string;
  /** Time from the consent screen's Allow to the first sync's data being in (status "ok"; a staged first sync: its first stage) (ms). */
  firstSyncMs: number;
  /** Time from Allow to the detail import's end too (keyword, ad and search-term performance; ADR 013, staged first sync); firstSyncMs for a server that does not stage. */
  detailMs: number;
  /** Bearer token for /api/v1. */
  token: string;
}

const form = (fields: Array<[string, string]>) => new URLSearchParams(fields);

/** Registers, signs in through /login, connects Google through the consent screen (Allow) and waits for the first sync. */
export async function signUpAndConnect(
  base: string,
  opts: { syncTimeoutMs?: number; waitForSync?: boolean; onAllow?: () => void; onSynced?: () => void; onDetail?: () => void } = {},
): Promise<SignedIn> {
  const browser = new Browser();
  const email = `bench-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const password = "bench-password-123";
  const reg = await fetch(`${base}/api/v1/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (reg.status !== 201) throw new Error(`register: HTTP ${reg.status} ${await reg.text()}`);
  const login = await browser.request(`${base}/login`, {
    method: "POST",
    body: form([
      ["intent", "login"],
      ["email", email],
      ["password", password],
    ]),
  });
  if (login.status !== 302) throw new Error(`sign-in: HTTP ${login.status}`);
  await login.arrayBuffer();

  const consent = await browser.follow(`${base}/api/v1/auth/google?returnTo=/dashboard`);
  const html = await consent.res.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no consent form at ${consent.url}: HTTP ${consent.res.status}`);
  const fields: Array<[string, string]> = [];
  for (const m of html.matchAll(/<input type="(?:hidden|checkbox)" name="([^"]+)" value="([^"]*)"/g)) fields.push([decode(m[1]), decode(m[2])]);
  fields.push(["action", "allow"]);

  opts.onAllow?.();
  const t0 = performance.now();
  const back = await browser.follow(new URL(action.replace(/&amp;/g, "&"), consent.url).toString(), { method: "POST", body: form(fields) });
  if (back.res.status !== 200) throw new Error(`after Allow: HTTP ${back.res.status} at ${back.url}`);
  await back.res.arrayBuffer();
  let firstSyncMs = 0;
  let detailMs = 0;
  if (opts.waitForSync !== false) {
    const deadline = Date.now() + (opts.syncTimeoutMs ?? 600_000);
    type State = { status: string; lastError: string | null; detail?: { status: string; lastError: string | null } };
    let state: State;
    for (;;) {
      const res = await browser.request(`${base}/sync`);
      state = (await res.json()) as State;
      if (state.status === "ok") break;
      if (state.status === "failed") throw new Error(`first sync failed: ${state.lastError}`);
      if (Date.now() > deadline) throw new Error("first sync did not finish in time");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    firstSyncMs = performance.now() - t0;
    opts.onSynced?.();
    // A staged first sync goes on with keyword, ad and search-term performance; what follows (pages under load) waits for it.
    while (state.detail?.status === "running") {
      if (Date.now() > deadline) throw new Error("the detail import did not finish in time");
      await new Promise((resolve) => setTimeout(resolve, 25));
      state = (await (await browser.request(`${base}/sync`)).json()) as State;
    }
    if (state.detail?.status === "failed") throw new Error(`the detail import failed: ${state.detail.lastError}`);
    detailMs = performance.now() - t0;
    opts.onDetail?.();
  }
  const api = await fetch(`${base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const { access_token: token } = (await api.json()) as { access_token: string };
  return { browser, email, password, firstSyncMs, detailMs, token };
}

function decode(s: string) {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}
