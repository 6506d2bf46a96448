import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { HttpError, toHttpError } from "../http/errors.server";
import { startJobs, stopJobs } from "../jobs/jobs.server";
import { captureLogs } from "../log.server";
import { register, signIn } from "./credentials.server";
import { resetRateLimitsForTests, SLOWDOWN_MS } from "./rate-limit.server";
import { getBearerSession } from "./session.server";

let t: TestContext;
beforeAll(async () => {
  t = await setupTestEnvironment({ AUTH_RATE_LIMIT_IP: "1000", AUTH_RATE_LIMIT_ACCOUNT: "3" });
});
afterAll(async () => t.cleanup());
beforeEach(() => resetRateLimitsForTests());

const req = () => new Request("http://localhost:3000/login", { method: "POST" });

async function rejection(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  // As the edge sees it: an HttpError, or a domain error mapped to one.
  const http = toHttpError(error);
  expect(http).toBeInstanceOf(HttpError);
  return http!;
}

describe("register", () => {
  it("stores a normalised email and a scrypt hash, never the password", async () => {
    const user = await register({ email: "  Alice@Example.COM ", password: "correct horse" }, "1.1.1.1");
    expect(user.email).toBe("alice@example.com");
    const row = await t.db.selectFrom("users").selectAll().where("email", "=", user.email).executeTakeFirstOrThrow();
    expect(row.email_verified_at).toBeNull();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain("correct horse");
  });

  it("answers a duplicate exactly like a new address, whatever the case, and keeps the first password", async () => {
    await register({ email: "bob@example.com", password: "password1" }, "1.1.1.1");
    expect(await register({ email: "BOB@example.com", password: "password2" }, "1.1.1.1")).toEqual({ email: "bob@example.com" });
    expect((await rejection(signIn({ email: "bob@example.com", password: "password2" }, req(), "1.1.1.1"))).status).toBe(401);
    await expect(signIn({ email: "bob@example.com", password: "password1" }, req(), "1.1.1.1")).resolves.toBeTruthy();
  });

  it("refuses short passwords and bad emails with field errors", async () => {
    const short = await rejection(register({ email: "c@example.com", password: "short" }, "1.1.1.1"));
    expect(short.status).toBe(400);
    expect(short.fieldErrors?.password).toBe("Password must be at least 8 characters");
    const bad = await rejection(register({ email: "not-an-email", password: "longenough" }, "1.1.1.1"));
    expect(bad.fieldErrors?.email).toBe("Enter a valid email address");
    const wrongType = await rejection(register({ email: 42, password: ["x"] }, "1.1.1.1"));
    expect(wrongType.status).toBe(400);
    // Sent, but not as text: said so, rather than "required".
    expect(wrongType.fieldErrors).toMatchObject({ email: "Email must be text", password: "Password must be text" });
    const missing = await rejection(register({}, "1.1.1.1"));
    expect(missing.fieldErrors).toMatchObject({ email: "Email is required", password: "Password is required" });
    const count = await t.db.selectFrom("users").select(t.db.fn.countAll().as("n")).where("email", "=", "c@example.com").executeTakeFirst();
    expect(Number(count?.n)).toBe(0);
  });
});

describe("signIn", () => {
  it("creates a session whose bearer token resolves to the user", async () => {
    await register({ email: "dora@example.com", password: "dora-password" }, "1.1.1.1");
    const { user, session } = await signIn({ email: "DORA@example.com", password: "dora-password" }, req(), "1.1.1.1");
    expect(user.email).toBe("dora@example.com");
    const row = await t.db.selectFrom("sessions").selectAll().where("id", "=", session.sessionId).executeTakeFirstOrThrow();
    expect(row.token_hash).not.toBe(session.accessToken);
    const bearer = await getBearerSession(new Request("http://x/api", { headers: { Authorization: `Bearer ${session.accessToken}` } }));
    expect(bearer?.user.email).toBe("dora@example.com");
  });

  it("answers the same for a wrong password and an unknown email", async () => {
    await register({ email: "eve@example.com", password: "eve-password" }, "1.1.1.1");
    const wrong = await rejection(signIn({ email: "eve@example.com", password: "nope-nope" }, req(), "1.1.1.1"));
    const unknown = await rejection(signIn({ email: "nobody@example.com", password: "nope-nope" }, req(), "1.1.1.1"));
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.detail).toBe(unknown.detail);
  });

  it("refuses an address that failed too often for an account, with a 429 and Retry-After", async () => {
    await register({ email: "frank@example.com", password: "frank-password" }, "1.1.1.1");
    for (let i = 0; i < 3; i++) {
      await rejection(signIn({ email: "frank@example.com", password: "wrong-password" }, req(), "10.0.0.1"));
    }
    const locked = await rejection(signIn({ email: "frank@example.com", password: "frank-password" }, req(), "10.0.0.1"));
    expect(locked.status).toBe(429);
    expect(locked.detail).toMatch(/Too many attempts/);
    expect(Number(locked.headers?.["Retry-After"])).toBeGreaterThan(0);
  });

  // Issue 9 point 8: ten wrong passwords from anywhere used to lock the owner out everywhere.
  it("never blocks the right password from an address that has not failed; only slows the account down", async () => {
    await register({ email: "victim@example.com", password: "victim-password" }, "1.1.1.1");
    for (let i = 0; i < 6; i++) {
      await rejection(signIn({ email: "victim@example.com", password: "wrong-password" }, req(), `10.9.0.${i % 2}`));
    }
    const started = performance.now();
    const { user } = await signIn({ email: "victim@example.com", password: "victim-password" }, req(), "192.0.2.50");
    expect(user.email).toBe("victim@example.com");
    // Over the limit across addresses: answered, but after the slowdown.
    expect(performance.now() - started).toBeGreaterThanOrEqual(SLOWDOWN_MS - 5);
    // The attacker's own addresses stay refused.
    expect((await rejection(signIn({ email: "victim@example.com", password: "victim-password" }, req(), "10.9.0.0"))).status).toBe(429);
  });

  it("counts a malformed body against the address before parsing it", async () => {
    // Its own environment for a stricter limit; the file's one is made again afterwards (and dropped first, not left behind).
    await t.cleanup();
    const limited = await setupTestEnvironment({ AUTH_RATE_LIMIT_IP: "2" });
    try {
      let reads = 0;
      const bad = () => {
        reads += 1;
        return Promise.reject(new HttpError(400, "Request body is not valid JSON"));
      };
      expect((await rejection(signIn(bad, req(), "7.7.7.7"))).status).toBe(400);
      expect((await rejection(signIn(bad, req(), "7.7.7.7"))).status).toBe(400);
      expect((await rejection(signIn(bad, req(), "7.7.7.7"))).status).toBe(429);
      expect(reads).toBe(2); // the third body was never read
    } finally {
      await limited.cleanup();
      t = await setupTestEnvironment({ AUTH_RATE_LIMIT_IP: "1000", AUTH_RATE_LIMIT_ACCOUNT: "3" });
    }
  });
});

describe("per-network limits", () => {
  /** Runs `body` with a stricter environment; the file's one is made again afterwards (and dropped first, not left behind). */
  async function withLimits(env: Record<string, string>, body: () => Promise<void>) {
    await t.cleanup();
    const limited = await setupTestEnvironment(env);
    try {
      await body();
    } finally {
      await limited.cleanup();
      t = await setupTestEnvironment({ AUTH_RATE_LIMIT_IP: "1000", AUTH_RATE_LIMIT_ACCOUNT: "3" });
    }
  }

  it("limits registrations from one address", async () => {
    await withLimits({ AUTH_RATE_LIMIT_IP: "2" }, async () => {
      await register({ email: "g1@example.com", password: "password1" }, "9.9.9.9");
      await register({ email: "g2@example.com", password: "password1" }, "9.9.9.9");
      const third = await rejection(register({ email: "g3@example.com", password: "password1" }, "9.9.9.9"));
      expect(third.status).toBe(429);
      // Another address is not affected.
      await expect(register({ email: "g4@example.com", password: "password1" }, "8.8.8.8")).resolves.toBeTruthy();
    });
  });

  // Issue 25 point 5: one bucket per address covered every form, so one client behind a NAT locked everyone there out.
  it("keeps a bucket per action: registering in a loop does not stop sign-ins from the same network", async () => {
    await withLimits({ AUTH_RATE_LIMIT_IP: "2" }, async () => {
      await register({ email: "h1@example.com", password: "password1" }, "9.9.9.9");
      await register({ email: "h2@example.com", password: "password1" }, "9.9.9.9");
      expect((await rejection(register({ email: "h3@example.com", password: "password1" }, "9.9.9.9"))).status).toBe(429);
      const { user } = await signIn({ email: "h1@example.com", password: "password1" }, req(), "9.9.9.9");
      expect(user.email).toBe("h1@example.com");
    });
  });

  it("counts an IPv6 client by its /64, so rotating addresses inside it does not reset the count", async () => {
    await withLimits({ AUTH_RATE_LIMIT_IP: "2" }, async () => {
      await register({ email: "i1@example.com", password: "password1" }, "2001:db8:1:2::1");
      await register({ email: "i2@example.com", password: "password1" }, "2001:db8:1:2:ffff:ffff:ffff:fffe");
      expect((await rejection(register({ email: "i3@example.com", password: "password1" }, "2001:db8:1:2:abcd::7"))).status).toBe(429);
      // The neighbouring /64 is another subscriber.
      await expect(register({ email: "i4@example.com", password: "password1" }, "2001:db8:1:3::1")).resolves.toBeTruthy();
      // An IPv4 client reported through a dual-stack socket is the IPv4 address.
      await register({ email: "i5@example.com", password: "password1" }, "::ffff:192.0.2.9");
      await register({ email: "i6@example.com", password: "password1" }, "192.0.2.9");
      expect((await rejection(register({ email: "i7@example.com", password: "password1" }, "192.0.2.9"))).status).toBe(429);
    });
  });

  it("mails one address at most AUTH_MAIL_DAILY_LIMIT times a day, however often it is registered", async () => {
    await withLimits({ AUTH_RATE_LIMIT_IP: "1000", AUTH_MAIL_DAILY_LIMIT: "3" }, async () => {
      const logs = captureLogs();
      // Mail goes out through the outbox's send-mail job (ADR 022): the job runner delivers it.
      await startJobs({ pollMs: 50 });
      try {
        const mailsTo = (email: string) => logs.records.filter((r) => r.msg.startsWith(`Email to ${email} `)).length;
        for (let i = 0; i < 6; i++) await register({ email: "flooded@example.com", password: `password${i}` }, `198.51.100.${i}`);
        await expect.poll(() => logs.records.filter((r) => r.msg.includes("AUTH_MAIL_DAILY_LIMIT")).length).toBe(3);
        await expect.poll(() => mailsTo("flooded@example.com")).toBe(3);
        // Another address still gets its mail.
        await register({ email: "other@example.com", password: "password1" }, "198.51.100.9");
        await expect.poll(() => mailsTo("other@example.com")).toBe(1);
        expect(mailsTo("flooded@example.com")).toBe(3);
      } finally {
        await stopJobs();
        logs.restore();
      }
    });
  });
});
