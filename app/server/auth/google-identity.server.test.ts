import type { Kysely } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import * as m0111 from "../db/migrations/0111_hashed_sessions_and_codes";
import * as m0112 from "../db/migrations/0112_google_sub";
import { completeGoogleSignIn } from "./google-connection.server";
import { GoogleSignInError, type GoogleSignIn } from "./google-oauth.server";
import { commitSessionCookie, createSession, getSession } from "./session.server";
import { registerUser } from "./users.server";

/**
 * Issue 25 point 9: Google users are matched by Google's stable account id
 * (`sub`), not by their email address; session ids are stored hashed.
 */
let t: TestContext;
beforeAll(async () => {
  t = await setupTestEnvironment();
});
afterAll(() => t.cleanup());
beforeEach(async () => {
  for (const table of ["google_connections", "sessions", "users"] as const) await t.db.deleteFrom(table).execute();
});

const signIn = (sub: string, email: string, emailVerified = true): GoogleSignIn => ({
  profile: { sub, email, emailVerified },
  tokens: { accessToken: `access-${sub}`, refreshToken: `refresh-${sub}`, expiresAt: new Date(Date.now() + 3600_000), scopes: ["openid", "email"] },
});
/** A migration's own view of the database (it is written against no schema). */
const asMigrated = (db: TestContext["db"]) => db as unknown as Kysely<unknown>;
const users = () => t.db.selectFrom("users").select(["id", "email", "google_sub"]).orderBy("email").execute();

describe("a Google sign-in finds its user by the Google account's id", () => {
  it("the same Google account signs in as the same user after its address changed at Google", async () => {
    const first = await completeGoogleSignIn(signIn("sub-1", "ann@example.com"), null);
    const renamed = await completeGoogleSignIn(signIn("sub-1", "ann.new@example.com"), null);
    expect(renamed.userId).toBe(first.userId);
    expect(await users()).toEqual([{ id: first.userId, email: "ann@example.com", google_sub: "sub-1" }]);
    // The address it had is free for no one: a new account under the new address was not made.
  });

  it("an address that moved to another Google account does not hand that account over", async () => {
    const owner = await completeGoogleSignIn(signIn("sub-1", "bob@example.com"), null);
    const error = await completeGoogleSignIn(signIn("sub-2", "bob@example.com"), null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GoogleSignInError);
    expect((error as Error).message).toMatch(/signs in with a different Google account/);
    expect(await users()).toEqual([{ id: owner.userId, email: "bob@example.com", google_sub: "sub-1" }]);
  });

  it("a proved password account is joined by the first Google account of its address, which is recorded", async () => {
    const user = await registerUser("cat@example.com", "cat-password");
    await t.db.updateTable("users").set({ email_verified_at: new Date().toISOString() }).where("id", "=", user.id).execute();
    expect((await completeGoogleSignIn(signIn("sub-3", "cat@example.com"), null)).userId).toBe(user.id);
    expect((await users())[0].google_sub).toBe("sub-3");
  });

  it("connecting Google Ads while signed in records no sign-in identity", async () => {
    const user = await registerUser("dan@example.com", "dan-password");
    await completeGoogleSignIn(signIn("sub-4", "someone.else@example.com"), user.id);
    expect((await users())[0].google_sub).toBeNull();
    // So that Google account signing in gets its own user, not Dan's account.
    const own = await completeGoogleSignIn(signIn("sub-4", "someone.else@example.com"), null);
    expect(own.userId).not.toBe(user.id);
  });
});

describe("existing rows (migrations)", () => {
  it("0112 records each Google user's id from the connection under the user's own address", async () => {
    await m0112.down(asMigrated(t.db));
    const now = new Date().toISOString();
    const row = (id: string, email: string) => ({
      id,
      email,
      password_hash: null,
      email_verified_at: now,
      active_customer_id: null,
      created_at: now,
      updated_at: now,
    });
    const conn = (id: string, userId: string, sub: string, email: string) => ({
      id,
      user_id: userId,
      google_sub: sub,
      google_email: email,
      refresh_token_enc: "x",
      access_token_enc: null,
      access_token_expires_at: null,
      scopes: "",
      status: "active" as const,
      status_reason: null,
      accounts_error: null,
      accounts_synced_at: null,
      created_at: now,
      updated_at: now,
    });
    // The migration runs before google_sub exists: the rows are written without it.
    await t.db
      .insertInto("users")
      .values([row("u1", "google.user@example.com"), row("u2", "connected.other@example.com"), row("u3", "no.google@example.com")])
      .execute();
    await t.db
      .insertInto("google_connections")
      .values([conn("c1", "u1", "sub-a", "Google.User@example.com"), conn("c2", "u2", "sub-b", "another.address@example.com")])
      .execute();
    await m0112.up(asMigrated(t.db));
    expect(await users()).toEqual([
      { id: "u2", email: "connected.other@example.com", google_sub: null },
      { id: "u1", email: "google.user@example.com", google_sub: "sub-a" },
      { id: "u3", email: "no.google@example.com", google_sub: null },
    ]);
    // The Google account that signed in before keeps signing in as the same user.
    expect((await completeGoogleSignIn(signIn("sub-a", "google.user@example.com"), null)).userId).toBe("u1");
  });

  it("0111 hashes the ids of sessions made before it: their cookies still sign in, the stored id no longer does", async () => {
    const user = await registerUser("eve@example.com", "eve-password");
    await m0111.down(asMigrated(t.db));
    // A session as it was stored before: the cookie's own value as the id.
    const cookieValue = "pre-migration-session-id-0123456789abcdefghijkl";
    const now = new Date();
    await t.db
      .insertInto("sessions")
      .values({
        id: cookieValue,
        user_id: user.id,
        token_hash: "th",
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + 86400_000).toISOString(),
        user_agent: null,
      })
      .execute();
    await m0111.up(asMigrated(t.db));
    const stored = await t.db.selectFrom("sessions").select("id").execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].id).not.toBe(cookieValue);
    const cookie = (await commitSessionCookie({ cookieValue })).split(";")[0];
    expect((await getSession(new Request("http://localhost:3000/", { headers: { Cookie: cookie } })))?.user.id).toBe(user.id);
  });

  it("a new session stores only the hash of what its cookie carries", async () => {
    const user = await registerUser("fay@example.com", "fay-password");
    const session = await createSession(user.id, new Request("http://localhost:3000/"));
    const rows = await t.db.selectFrom("sessions").select(["id", "token_hash"]).execute();
    expect(JSON.stringify(rows)).not.toContain(session.cookieValue);
    expect(JSON.stringify(rows)).not.toContain(session.accessToken);
  });
});
