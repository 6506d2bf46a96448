// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { action as forgotAction } from "~/routes/forgot-password";
import { action as resetAction, loader as resetLoader } from "~/routes/reset-password";
import { action as settingsAction, loader as settingsLoader } from "~/routes/settings";
import { register, signIn } from "~/server/auth/credentials.server";
import { RESET_LINK_INVALID, RESET_REQUESTED_MESSAGE } from "~/server/auth/password-reset.server";
import { resetRateLimitsForTests } from "~/server/auth/rate-limit.server";
import { commitSessionCookie, getBearerSession, getSession } from "~/server/auth/session.server";
import { authenticateAccessToken, createAccessToken } from "~/server/auth/access-tokens.server";
import { captureLogs } from "~/server/log.server";
import { setupTestEnvironment, type TestContext } from "../setup/test-db";
import { routeArgs, signedInArgs } from "../support/route-args";
import { drainJobs } from "../support/jobs";

/**
 * Issue 25 point 9: "Forgot password" (a mailed, single-use, expiring link;
 * the same answer whether or not the address exists; every session revoked on
 * reset) and "Sign out everywhere" in /settings with the list of sessions.
 */
const APP = "http://localhost:3000";
let t: TestContext;
beforeAll(async () => {
  t = await setupTestEnvironment({ AUTH_MAIL_DAILY_LIMIT: "100" });
});
afterAll(() => t.cleanup());
beforeEach(async () => {
  await resetRateLimitsForTests();
  for (const table of ["auth_codes", "sessions", "users"] as const) await t.db.deleteFrom(table).execute();
});

const IP = "203.0.113.9";
const args = (request: Request) => routeArgs(request, {}, { clientIp: IP });
const form = (path: string, fields: Record<string, string>, cookie = "") =>
  new Request(`${APP}${path}`, { method: "POST", body: new URLSearchParams(fields), headers: cookie ? { Cookie: cookie } : {} });
const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
const login = (email: string, password: string) => signIn({ email, password }, new Request(`${APP}/login`, { method: "POST" }), IP);
type Answer = {
  data: { sent?: { message: string } | null; result: { error?: Record<string, string[]> } | null; email?: string | null; invalid?: string | null };
};

/** Asks for a reset link through the form; returns the page's answer and the link the mail carried (SMTP_URL unset: logged). */
async function forgot(email: string): Promise<{ answer: Answer; link: string | null; logged: string }> {
  const logs = captureLogs();
  try {
    const answer = (await forgotAction(args(form("/forgot-password", { email })))) as unknown as Answer;
    // The mail waits in the outbox for its send-mail job: run it (SMTP_URL unset: it reaches the log).
    await drainJobs(t.db, ["send-mail"]);
    const logged = logs.records.map((r) => r.msg).join("\n");
    return { answer, link: /(http:\/\/localhost:3000\/reset-password\?token=\S+)/.exec(logged)?.[1] ?? null, logged };
  } finally {
    logs.restore();
  }
}

describe("forgot password", () => {
  it("answers the same whether or not the address has an account; only an account gets a link", async () => {
    await register({ email: "has@example.com", password: "old-password" }, IP);
    const known = await forgot("has@example.com");
    const unknown = await forgot("nobody@example.com");
    expect(known.answer.data).toEqual(unknown.answer.data);
    expect(known.answer.data.sent?.message).toBe(RESET_REQUESTED_MESSAGE);
    expect(known.link).toMatch(/\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    expect(unknown.logged).not.toContain("nobody@example.com");
  });

  it("the link sets a new password once: every old session, API token and access token ends, this browser is signed in, the address is proved", async () => {
    await register({ email: "reset@example.com", password: "old-password" }, IP);
    const laptop = await login("reset@example.com", "old-password");
    const phone = await login("reset@example.com", "old-password");
    // An agent's token someone made while they were in: it must not outlive the reset either.
    const agent = await createAccessToken(laptop.user.id, { name: "Agent", scopes: ["read", "propose"], expiresInDays: "365" });
    const { link } = await forgot("reset@example.com");
    const token = new URL(link!).searchParams.get("token")!;

    const page = (await resetLoader(args(new Request(link!)))) as unknown as Answer;
    expect(page.data.email).toBe("reset@example.com");

    // A password the schema refuses uses nothing up.
    const short = (await resetAction(args(form("/reset-password", { token, password: "short" })))) as unknown as Answer & { init: ResponseInit };
    expect(short.init.status).toBe(400);
    expect(short.data.result?.error?.password).toEqual(["Password must be at least 8 characters"]);

    const done = (await resetAction(args(form("/reset-password", { token, password: "brand-new-password" })))) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/dashboard");
    const here = await getSession(new Request(`${APP}/dashboard`, { headers: { Cookie: cookiesOf(done) } }));
    expect(here?.user.email).toBe("reset@example.com");
    expect(here?.user.email_verified_at).not.toBeNull();
    for (const old of [laptop, phone]) {
      expect(await getBearerSession(new Request(APP, { headers: { Authorization: `Bearer ${old.session.accessToken}` } }))).toBeNull();
    }
    expect(await authenticateAccessToken(agent.token)).toBeNull();
    await expect(login("reset@example.com", "old-password")).rejects.toMatchObject({ status: 401 });
    await expect(login("reset@example.com", "brand-new-password")).resolves.toBeTruthy();

    // Used: the link is dead.
    expect(((await resetLoader(args(new Request(link!)))) as unknown as Answer).data.invalid).toBe(RESET_LINK_INVALID);
    const again = (await resetAction(args(form("/reset-password", { token, password: "another-password" })))) as unknown as Answer & { init: ResponseInit };
    expect(again.init.status).toBe(400);
    expect(again.data.result?.error?.[""]).toEqual([RESET_LINK_INVALID]);
  });

  it("a link expires after an hour, and a newer link voids the older one", async () => {
    await register({ email: "late@example.com", password: "old-password" }, IP);
    const first = new URL((await forgot("late@example.com")).link!).searchParams.get("token")!;
    const second = new URL((await forgot("late@example.com")).link!).searchParams.get("token")!;
    const refused = async (token: string) =>
      ((await resetAction(args(form("/reset-password", { token, password: "new-password-1" })))) as unknown as Answer).data.result?.error?.[""];
    expect(await refused(first)).toEqual([RESET_LINK_INVALID]);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61 * 60_000 });
    try {
      expect(await refused(second)).toEqual([RESET_LINK_INVALID]);
    } finally {
      vi.useRealTimers();
    }
    await expect(login("late@example.com", "old-password")).resolves.toBeTruthy();
  });
});

describe("sign out everywhere (/settings)", () => {
  it("lists the account's sessions, this one marked, and ends every one of them with their API tokens and the access tokens", async () => {
    await register({ email: "many@example.com", password: "many-password" }, IP);
    const other = await login("many@example.com", "many-password");
    const mine = await login("many@example.com", "many-password");
    const agent = await createAccessToken(mine.user.id, { name: "Agent", scopes: ["read"], expiresInDays: "30" });
    const cookie = (await commitSessionCookie(mine.session)).split(";")[0];
    const page = (await settingsLoader(await signedInArgs(new Request(`${APP}/settings`, { headers: { Cookie: cookie } })))) as {
      sessions: Array<{ id: string; current: boolean }>;
    };
    expect(page.sessions).toHaveLength(2);
    expect(page.sessions.filter((s) => s.current).map((s) => s.id)).toEqual([mine.session.sessionId]);

    const res = (await settingsAction(await signedInArgs(form("/settings", { intent: "sign-out-everywhere" }, cookie)))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login");
    expect(res.headers.getSetCookie().some((c) => /^__session=;/.test(c))).toBe(true);
    expect(await t.db.selectFrom("sessions").select("id").execute()).toEqual([]);
    expect(await getBearerSession(new Request(APP, { headers: { Authorization: `Bearer ${other.session.accessToken}` } }))).toBeNull();
    expect(await authenticateAccessToken(agent.token)).toBeNull();
    expect(await t.db.selectFrom("access_tokens").select("id").execute()).toEqual([]);
  });
});
