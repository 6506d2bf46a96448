import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADWORDS, DEMO_EMAIL, startEmulator, type Running } from "./helpers";

const REDIRECT = "http://app.test/oauth/callback";

let emu: Running;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.close());

function authUrl(params: Record<string, string>) {
  return `${emu.baseUrl}/o/oauth2/v2/auth?${new URLSearchParams(params)}`;
}

const valid = {
  client_id: "my-app.apps.googleusercontent.com",
  redirect_uri: REDIRECT,
  response_type: "code",
  scope: `openid email ${ADWORDS}`,
  state: `x"><script>alert(1)</script>`,
  access_type: "offline",
};

describe("consent page", () => {
  it("is a self-contained, script-free form with a strict CSP", async () => {
    const res = await fetch(authUrl(valid));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' http://app.test");
    expect(res.headers.get("x-frame-options")).toBe("DENY");

    const html = await res.text();
    // No JavaScript and nothing loaded from elsewhere.
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son\w+=/i);
    expect(html).not.toMatch(/\b(src|href)=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/@import|url\(/i);
    // The style block carries the CSP nonce.
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    expect(html).toContain(`<style nonce="${nonce}">`);

    expect(html).toContain('<form method="post" action="/o/oauth2/v2/auth">');
    expect(html).toContain("Sign in with Google");
    expect(html).toContain("Demo Advertiser");
    expect(html).toContain(DEMO_EMAIL);
    expect(html).toContain("my-app wants access to your Google Account");
    expect(html).toContain("See, edit, create and delete your Google Ads accounts and data.");
    expect(html).toContain("See your primary Google Account email address");
    // Only the non-identity scope gets a checkbox, ticked by default.
    expect(html.match(/type="checkbox"/g)).toHaveLength(1);
    expect(html).toContain(`<input type="checkbox" name="granted_scope" value="${ADWORDS}" checked>`);
    expect(html).toContain('name="action" value="allow"');
    expect(html).toContain('name="action" value="cancel"');
    // Parameters round-trip in hidden fields, escaped.
    expect(html).toContain('<input type="hidden" name="state" value="x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">');
    expect(html).toContain(`<input type="hidden" name="redirect_uri" value="${REDIRECT}">`);
  });

  it("POSTed Allow without the Ads box grants only identity scopes", async () => {
    const form = new URLSearchParams({ ...valid, state: "s", action: "allow" });
    const res = await fetch(`${emu.baseUrl}/o/oauth2/v2/auth`, { method: "POST", body: form, redirect: "manual" });
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get("location")!);
    expect(loc.searchParams.get("scope")).toBe("openid https://www.googleapis.com/auth/userinfo.email");
  });

  it("prompt=none succeeds silently only after an earlier consent", async () => {
    const params = { ...valid, client_id: "silent-client", state: "q", prompt: "none" };
    const first = await fetch(authUrl(params), { redirect: "manual" });
    expect(first.status).toBe(302);
    expect(new URL(first.headers.get("location")!).searchParams.get("error")).toBe("consent_required");

    const form = new URLSearchParams({ ...valid, client_id: "silent-client", action: "allow" });
    form.append("granted_scope", ADWORDS);
    await fetch(`${emu.baseUrl}/o/oauth2/v2/auth`, { method: "POST", body: form, redirect: "manual" });
    const second = await fetch(authUrl(params), { redirect: "manual" });
    expect(new URL(second.headers.get("location")!).searchParams.get("code")).toMatch(/^4\//);
  });
});

describe("error page", () => {
  const cases: Array<[string, Record<string, string>, number, string, string]> = [
    ["missing client_id", { ...valid, client_id: "" }, 400, "invalid_request", "Missing required parameter: client_id"],
    ["missing redirect_uri", { ...valid, redirect_uri: "" }, 400, "invalid_request", "Missing required parameter: redirect_uri"],
    ["relative redirect_uri", { ...valid, redirect_uri: "/callback" }, 400, "invalid_request", "Invalid parameter value for redirect_uri"],
    ["javascript: redirect_uri", { ...valid, redirect_uri: "javascript:alert(1)" }, 400, "invalid_request", "Invalid parameter value for redirect_uri"],
    ["missing response_type", { ...valid, response_type: "" }, 400, "invalid_request", "Missing required parameter: response_type"],
    ["token response_type", { ...valid, response_type: "token" }, 400, "unsupported_response_type", "Unsupported response_type: token"],
    ["missing scope", { ...valid, scope: "" }, 400, "invalid_request", "Missing required parameter: scope"],
    ["unknown scope", { ...valid, scope: "openid foo" }, 400, "invalid_scope", "Some requested scopes were invalid. {valid=[openid], invalid=[foo]}"],
    [
      "bad code_challenge_method",
      { ...valid, code_challenge: "a".repeat(43), code_challenge_method: "S512" },
      400,
      "invalid_request",
      "Invalid code_challenge_method",
    ],
    ["short code_challenge", { ...valid, code_challenge: "abc", code_challenge_method: "S256" }, 400, "invalid_request", "Invalid code_challenge value."],
    ["bad access_type", { ...valid, access_type: "forever" }, 400, "invalid_request", "Invalid access_type: forever"],
  ];
  for (const [name, params, status, error, reason] of cases) {
    it(`${name} → ${status} ${error}, never a redirect`, async () => {
      const clean = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== ""));
      const res = await fetch(authUrl(clean), { redirect: "manual" });
      expect(res.status).toBe(status);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
      const html = await res.text();
      expect(html).toContain(`Error ${status}: ${error}`);
      expect(html).toContain(reason);
      expect(html).not.toMatch(/<script/i);
    });
  }

  it("a POST with tampered hidden fields is validated again", async () => {
    const res = await fetch(`${emu.baseUrl}/o/oauth2/v2/auth`, {
      method: "POST",
      body: new URLSearchParams({ ...valid, redirect_uri: "ftp://evil", action: "allow" }),
      redirect: "manual",
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });
});
