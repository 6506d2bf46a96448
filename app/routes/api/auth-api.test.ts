import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { action as loginActionRoute } from "./auth-login";
import { action as logoutActionRoute } from "./auth-logout";
import { loader as meLoaderRoute } from "./auth-me";
import { action as registerActionRoute } from "./auth-register";
import { documented } from "../../../tests/support/api-doc";
import { routeArgs } from "../../../tests/support/route-args";

// Every response these tests read is checked against the OpenAPI document.
const loginAction = documented(loginActionRoute);
const logoutAction = documented(logoutActionRoute);
const meLoader = documented(meLoaderRoute);
const registerAction = documented(registerActionRoute);

let t: TestContext;
beforeAll(async () => {
  t = await setupTestEnvironment({ AUTH_RATE_LIMIT_IP: "1000" });
});
afterAll(async () => t.cleanup());

// Route args as React Router passes them; the routes read only request and context.
const args = routeArgs;

function post(path: string, body: string, headers: Record<string, string> = { "Content-Type": "application/json" }) {
  return new Request(`http://localhost:3000/api/v1/${path}`, { method: "POST", body, headers });
}

/** The route returns React Router `data()`; read it as the client would. */
async function read(result: unknown): Promise<{ status: number; body: unknown }> {
  if (result instanceof Response) {
    const text = await result.text();
    return { status: result.status, body: text ? JSON.parse(text) : null };
  }
  const r = result as { data: unknown; init?: { status?: number } | null };
  return { status: r.init?.status ?? 200, body: r.data };
}

describe("JSON auth API", () => {
  it("registers (201), logs in (200 bearer), answers /me, and revokes on logout", async () => {
    const reg = await read(await registerAction(args(post("auth/register", JSON.stringify({ email: "Api@Example.com", password: "api-password" })))));
    expect(reg).toEqual({ status: 201, body: { email: "api@example.com" } });

    const login = await read(await loginAction(args(post("auth/login", JSON.stringify({ email: "api@example.com", password: "api-password" })))));
    expect(login.status).toBe(200);
    const body = login.body as { access_token: string; token_type: string };
    expect(body.token_type).toBe("bearer");
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    const meRequest = () => new Request("http://localhost:3000/api/v1/auth/me", { headers: { Authorization: `Bearer ${body.access_token}` } });
    expect(await read(await meLoader(args(meRequest())))).toEqual({ status: 200, body: { email: "api@example.com" } });

    const out = await logoutAction(
      args(
        new Request("http://localhost:3000/api/v1/auth/logout", {
          method: "POST",
          headers: { Authorization: `Bearer ${body.access_token}` },
        }),
      ),
    );
    expect((out as Response).status).toBe(204);
    expect((await read(await meLoader(args(meRequest())))).status).toBe(401);
  });

  it("401 on /me without a token or with a made-up one", async () => {
    expect((await read(await meLoader(args(new Request("http://localhost:3000/api/v1/auth/me"))))).status).toBe(401);
    const forged = new Request("http://localhost:3000/api/v1/auth/me", { headers: { Authorization: `Bearer ${"x".repeat(43)}` } });
    const res = await read(await meLoader(args(forged)));
    expect(res.status).toBe(401);
    expect(res.body).toHaveProperty("detail");
  });

  it("400 {detail} for malformed JSON and wrong types, never a 500", async () => {
    const cases = [
      post("auth/login", "{not json"),
      post("auth/login", JSON.stringify({ email: 1, password: true })),
      post("auth/login", JSON.stringify(null)),
      post("auth/register", JSON.stringify(["a"])),
      post("auth/register", ""),
    ];
    for (const request of cases) {
      const handler = request.url.endsWith("login") ? loginAction : registerAction;
      const res = await read(await handler(args(request)));
      expect(res.status, request.url).toBe(400);
      expect(typeof (res.body as { detail: unknown }).detail).toBe("string");
    }
  });

  it("401 {detail} for wrong credentials; a duplicate registration answers exactly like a new one", async () => {
    const bad = await read(await loginAction(args(post("auth/login", JSON.stringify({ email: "api@example.com", password: "wrong-password" })))));
    expect(bad).toEqual({ status: 401, body: { detail: "Invalid email or password" } });
    const dup = await read(await registerAction(args(post("auth/register", JSON.stringify({ email: "api@example.com", password: "whatever12" })))));
    const fresh = await read(await registerAction(args(post("auth/register", JSON.stringify({ email: "api-new@example.com", password: "whatever12" })))));
    expect(dup).toEqual({ status: 201, body: { email: "api@example.com" } });
    expect(fresh).toEqual({ status: 201, body: { email: "api-new@example.com" } });
  });

  it("415 when the body is not JSON", async () => {
    const res = await read(await loginAction(args(post("auth/login", "email=a", { "Content-Type": "application/x-www-form-urlencoded" }))));
    expect(res.status).toBe(415);
  });
});
