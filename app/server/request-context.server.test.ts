// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../tests/setup/test-db";
import { routeArgs, signedInArgs } from "../../tests/support/route-args";
import { commitSessionCookie, createSession, destroySession } from "./auth/session.server";
import { registerUser } from "./auth/users.server";
import { currentSession, userContext } from "./request-context.server";
import { takeAfterSignIn } from "./auth/after-sign-in.server";

let ctx: TestContext;
let userId: string;
beforeAll(async () => {
  ctx = await setupTestEnvironment();
  userId = (await registerUser("ctx@example.com", "correct horse battery")).id;
});
afterAll(() => ctx.cleanup());

async function signedInRequest() {
  const session = await createSession(userId, new Request("http://localhost/"));
  const cookie = (await commitSessionCookie(session)).split(";")[0];
  return { session, request: new Request("http://localhost:3000/dashboard", { headers: { Cookie: cookie } }) };
}

describe("the request's session", () => {
  it("is looked up once per request: the middleware, the root loader and the page share it", async () => {
    const { session, request } = await signedInRequest();
    const args = await signedInArgs(request);
    expect(args.context.get(userContext).user.id).toBe(userId);
    // Gone from the database after the first lookup: the same request still has the one it found…
    await destroySession(session.sessionId);
    expect((await currentSession(request, args.context))?.sessionId).toBe(session.sessionId);
    // …and the next request does not: a revoked session stops at once, nothing is kept across requests.
    expect(await currentSession(request, routeArgs(request).context)).toBeNull();
    await expect(signedInArgs(request)).rejects.toMatchObject({ status: 302 });
  });

  it("sends anonymous visitors to /login and clears a stale cookie", async () => {
    await expect(signedInArgs(new Request("http://localhost:3000/dashboard"))).rejects.toSatisfy(
      (r: Response) => r.status === 302 && r.headers.get("Location") === "/login" && !r.headers.has("Set-Cookie"),
    );
    const { session, request } = await signedInRequest();
    await destroySession(session.sessionId);
    await expect(signedInArgs(request)).rejects.toSatisfy((r: Response) => r.status === 302 && /__session=;/.test(r.headers.get("Set-Cookie") ?? ""));
  });
});

describe("the page a signed-out visitor asked for", () => {
  const cookieOf = (response: Response, name: string) =>
    response.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${name}=`))
      ?.split(";")[0];
  const guarded = async (request: Request) => {
    const thrown = await signedInArgs(request).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe("/login");
    return thrown as Response;
  };

  it("is remembered for a page visit and taken once by the password sign-in", async () => {
    const redirected = await guarded(new Request("http://localhost:3000/changes/abc?tab=x"));
    const cookie = cookieOf(redirected, "__after_sign_in");
    expect(cookie).toBeDefined();
    const next = await takeAfterSignIn(new Request("http://localhost:3000/login", { headers: { Cookie: cookie! } }));
    expect(next.path).toBe("/changes/abc?tab=x");
    expect(next.clear).toMatch(/^__after_sign_in=;.*Max-Age=0/);
    expect((await takeAfterSignIn(new Request("http://localhost:3000/login"))).path).toBe("/dashboard");
  });

  it("is not remembered for a form post or a client-router data request, and a forged cookie counts for nothing", async () => {
    expect(cookieOf(await guarded(new Request("http://localhost:3000/settings", { method: "POST" })), "__after_sign_in")).toBeUndefined();
    expect(cookieOf(await guarded(new Request("http://localhost:3000/campaigns.data")), "__after_sign_in")).toBeUndefined();
    const forged = `__after_sign_in=${Buffer.from(JSON.stringify({ path: "//evil.example/" })).toString("base64")}`;
    expect((await takeAfterSignIn(new Request("http://localhost:3000/login", { headers: { Cookie: forged } }))).path).toBe("/dashboard");
  });
});
