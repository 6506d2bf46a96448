import { expect, test } from "./fixtures";

test("documents carry the security headers", async ({ request }) => {
  const res = await request.get("/login");
  const h = res.headers();
  expect(h["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+'/);
  expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(h["x-content-type-options"]).toBe("nosniff");
  expect(h["referrer-policy"]).toBe("no-referrer");
});

test("a cross-site form post is refused and changes nothing", async ({ request, user }) => {
  const res = await request.post("/login", {
    form: { intent: "login", email: user.email, password: user.password },
    headers: { Origin: "https://evil.example" },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(403);
  expect(res.headers()["set-cookie"]).toBeUndefined();
  const logout = await request.post("/logout", { headers: { "Sec-Fetch-Site": "cross-site" }, maxRedirects: 0 });
  expect(logout.status()).toBe(403);
});

test("/healthz answers for load balancers", async ({ request }) => {
  const res = await request.get("/healthz");
  expect(res.status()).toBe(200);
  expect(await res.json()).toMatchObject({ status: "ok" });
});

test("the JSON API answers malformed input with 400 {detail}", async ({ request }) => {
  const res = await request.post("/api/v1/auth/login", {
    data: "{nope",
    headers: { "Content-Type": "application/json" },
  });
  expect(res.status()).toBe(400);
  expect(await res.json()).toHaveProperty("detail");
});

// Pages are rendered once and reused while their data is the same (ADR 017): each response
// still gets a nonce of its own, in its header and in every script of its body.
test("a page served again carries its own response's CSP nonce", async ({ request }) => {
  const nonces: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await request.get("/login");
    const header = /'nonce-([^']+)'/.exec(res.headers()["content-security-policy"] ?? "")?.[1];
    expect(header).toBeTruthy();
    const html = await res.text();
    const inBody = new Set([...html.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1]));
    expect([...inBody]).toEqual([header]);
    nonces.push(header!);
  }
  expect(new Set(nonces).size).toBe(3);
});
