import { randomUUID } from "node:crypto";
import { getDb, type DB } from "../db/db.server";
import { OPEN_CHANGE_SET_STATUSES, type GoogleConnection } from "../db/schema";
import { decryptSecret, encryptSecret, needsReencryption } from "./crypto.server";
import { GoogleSignInError, OAuth2RequestError, refreshGoogleAccessToken, revokeGoogleToken, type GoogleSignIn } from "./google-oauth.server";
import { endEverySignIn } from "./session.server";

/**
 * A user's link to a Google account: the encrypted refresh token, a cached
 * access token, and whether the link still works.
 */

const refreshContext = (connectionId: string) => `google_connections.refresh_token:${connectionId}`;
const accessContext = (connectionId: string) => `google_connections.access_token:${connectionId}`;

export class ReconnectNeededError extends Error {
  name = "ReconnectNeededError";
  constructor(reason: string | null) {
    super(reason ?? "Your Google Ads connection has expired. Please reconnect.");
  }
}

export async function getConnection(userId: string, db: DB = getDb()) {
  return db.selectFrom("google_connections").selectAll().where("user_id", "=", userId).executeTakeFirst();
}

/**
 * Finds or creates the user for a completed Google sign-in and stores the
 * tokens. A Google account signs in as the user it is recorded for
 * (`users.google_sub`, Google's stable id: an address can change hands, the id
 * cannot). A Google account not seen before joins the password account of its
 * address only when Google has verified that address (recording its id there);
 * a password account whose address was never proved is taken over: its
 * password, every session and API token, its chats and its open change sets
 * are removed, since whoever made it never showed they own the address.
 * With `currentUserId` (a signed-in user connecting Google Ads) the Google
 * account is linked to that user instead, whatever its email: several app
 * users may connect the same Google account.
 */
export async function completeGoogleSignIn(
  signIn: GoogleSignIn,
  currentUserId: string | null,
  db: DB = getDb(),
): Promise<{ userId: string; connectionId: string; tookOver: boolean }> {
  const { profile, tokens } = signIn;
  const now = new Date().toISOString();
  return db.transaction().execute(async (trx) => {
    let userId: string;
    let tookOver = false;
    const bySub = currentUserId ? undefined : await trx.selectFrom("users").select("id").where("google_sub", "=", profile.sub).executeTakeFirst();
    if (currentUserId) {
      userId = currentUserId;
    } else if (bySub) {
      userId = bySub.id;
    } else {
      const byEmail = await trx
        .selectFrom("users")
        .select(["id", "password_hash", "email_verified_at", "google_sub"])
        .where("email", "=", profile.email)
        .executeTakeFirst();
      if (byEmail) {
        // An existing account is joined only when Google vouches for the address…
        if (!profile.emailVerified) {
          throw new GoogleSignInError(
            "Google has not verified this email address, so it can't be linked to the existing account with the same email.",
            tokens.accessToken,
          );
        }
        // …and never by a second Google account (the address moved to another Google account).
        if (byEmail.google_sub) {
          throw new GoogleSignInError(
            "The account with this email address signs in with a different Google account. Sign in with that one, or with the account's password.",
            tokens.accessToken,
          );
        }
        if (byEmail.password_hash && !byEmail.email_verified_at) {
          // Pre-hijacking (issue 9 point 1): whoever set this password never proved
          // the address; Google just did. The proved owner takes the account over and
          // everything the unproved password handed out or planted dies with it.
          await removeWhatAnUnprovedOwnerLeft(trx, byEmail.id);
          await trx.updateTable("users").set({ password_hash: null, email_verified_at: now, updated_at: now }).where("id", "=", byEmail.id).execute();
          tookOver = true;
        } else if (!byEmail.email_verified_at) {
          await trx.updateTable("users").set({ email_verified_at: now, updated_at: now }).where("id", "=", byEmail.id).execute();
        }
        await trx.updateTable("users").set({ google_sub: profile.sub }).where("id", "=", byEmail.id).execute();
        userId = byEmail.id;
      } else {
        userId = randomUUID();
        await trx
          .insertInto("users")
          .values({
            id: userId,
            email: profile.email,
            password_hash: null,
            email_verified_at: profile.emailVerified ? now : null,
            google_sub: profile.sub,
            active_customer_id: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
    }

    const existing = await trx.selectFrom("google_connections").selectAll().where("user_id", "=", userId).executeTakeFirst();
    const connectionId = existing?.id ?? randomUUID();
    const sameGoogleAccount = existing?.google_sub === profile.sub;
    const refreshToken = tokens.refreshToken ?? (existing && sameGoogleAccount ? decryptSecret(existing.refresh_token_enc, refreshContext(existing.id)) : null);
    if (!refreshToken) {
      throw new GoogleSignInError("Google did not grant offline access. Please try again and approve the request.", tokens.accessToken);
    }
    const values = {
      google_sub: profile.sub,
      google_email: profile.email,
      refresh_token_enc: encryptSecret(refreshToken, refreshContext(connectionId)),
      access_token_enc: encryptSecret(tokens.accessToken, accessContext(connectionId)),
      access_token_expires_at: tokens.expiresAt.toISOString(),
      scopes: tokens.scopes.join(" "),
      status: "active" as const,
      status_reason: null,
      updated_at: now,
    };
    if (existing) {
      // One Google account per user: connecting another one replaces the old link and its accounts.
      await trx.updateTable("google_connections").set(values).where("id", "=", connectionId).execute();
      if (!sameGoogleAccount) await trx.deleteFrom("ads_accounts").where("connection_id", "=", connectionId).execute();
    } else {
      await trx
        .insertInto("google_connections")
        .values({ id: connectionId, user_id: userId, created_at: now, accounts_error: null, accounts_synced_at: null, ...values })
        .execute();
    }
    return { userId, connectionId, tookOver };
  });
}

/**
 * A taken-over account (see completeGoogleSignIn) keeps nothing its unproved
 * owner did: sessions, API tokens and access tokens end, one-time codes die, chats are
 * deleted and proposals still waiting for review are discarded (what was
 * applied at Google stays in the history).
 */
async function removeWhatAnUnprovedOwnerLeft(trx: DB, userId: string) {
  await endEverySignIn(userId, trx);
  await trx.deleteFrom("auth_codes").where("user_id", "=", userId).execute();
  await trx.deleteFrom("chats").where("user_id", "=", userId).execute();
  await trx.updateTable("change_sets").set({ status: "discarded" }).where("user_id", "=", userId).where("status", "in", OPEN_CHANGE_SET_STATUSES).execute();
}

export async function markReconnectNeeded(connectionId: string, reason: string, db: DB = getDb()) {
  await db
    .updateTable("google_connections")
    .set({ status: "reconnect_needed", status_reason: reason, access_token_enc: null, access_token_expires_at: null, updated_at: new Date().toISOString() })
    .where("id", "=", connectionId)
    .execute();
}

// Concurrent requests for one connection share a single refresh.
const inflight = new Map<string, Promise<string>>();
const EXPIRY_MARGIN_MS = 120_000;

/**
 * A valid access token for this connection, refreshed shortly before it
 * expires. A refresh makes the re-check of the user's accounts due
 * (`access_checked_at` cleared; ads/accounts.server.ts `recheckAccessIfDue`
 * runs it at their next request). A dead refresh token marks the connection
 * "reconnect needed" once; later calls fail fast without calling Google again.
 */
export async function getGoogleAccessToken(connection: GoogleConnection, opts: { forceRefresh?: boolean } = {}, db: DB = getDb()): Promise<string> {
  const current = await db.selectFrom("google_connections").selectAll().where("id", "=", connection.id).executeTakeFirst();
  if (!current) throw new ReconnectNeededError("Google Ads is not connected.");
  if (current.status !== "active") throw new ReconnectNeededError(current.status_reason);
  if (
    !opts.forceRefresh &&
    current.access_token_enc &&
    current.access_token_expires_at &&
    new Date(current.access_token_expires_at).getTime() - Date.now() > EXPIRY_MARGIN_MS
  ) {
    return decryptSecret(current.access_token_enc, accessContext(current.id));
  }
  const pending = inflight.get(current.id);
  if (pending) return pending;
  const refresh = (async () => {
    const refreshToken = decryptSecret(current.refresh_token_enc, refreshContext(current.id));
    try {
      const tokens = await refreshGoogleAccessToken(refreshToken);
      await db
        .updateTable("google_connections")
        .set({
          access_token_enc: encryptSecret(tokens.accessToken, accessContext(current.id)),
          access_token_expires_at: tokens.expiresAt.toISOString(),
          ...(tokens.refreshToken ? { refresh_token_enc: encryptSecret(tokens.refreshToken, refreshContext(current.id)) } : {}),
          access_checked_at: null,
          updated_at: new Date().toISOString(),
        })
        .where("id", "=", current.id)
        .execute();
      return tokens.accessToken;
    } catch (error) {
      if (error instanceof OAuth2RequestError && (error.code === "invalid_grant" || error.code === "unauthorized_client")) {
        const reason = "Google no longer accepts this connection (access was revoked or expired). Please reconnect Google Ads.";
        await markReconnectNeeded(current.id, reason, db);
        throw new ReconnectNeededError(reason);
      }
      throw error;
    }
  })().finally(() => inflight.delete(current.id));
  inflight.set(current.id, refresh);
  return refresh;
}

/** Revokes the grant at Google (best effort) and forgets the tokens and accounts. */
export async function disconnectGoogle(userId: string, db: DB = getDb()) {
  const connection = await getConnection(userId, db);
  if (!connection) return false;
  try {
    await revokeGoogleToken(decryptSecret(connection.refresh_token_enc, refreshContext(connection.id)));
  } finally {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom("ads_accounts").where("connection_id", "=", connection.id).execute();
      await trx.deleteFrom("google_connections").where("id", "=", connection.id).execute();
      await trx.updateTable("users").set({ active_customer_id: null }).where("id", "=", userId).execute();
    });
  }
  return true;
}

/**
 * Key rotation (`npm run rotate-key`, issue 27 point 6): every stored token
 * not yet under the current ENCRYPTION_KEY_VERSION is decrypted (with the key
 * ENCRYPTION_OLD_KEYS keeps for its version) and written again under the
 * current key. Each write is conditional on the value read, so a token the
 * server refreshed meanwhile (already under the current key) is left as it is.
 * Idempotent: a second run finds nothing to do. Throws DecryptionError, and
 * writes nothing more, for a token whose key is not configured.
 */
export async function reencryptTokens(db: DB = getDb()): Promise<{ connections: number; rewritten: number }> {
  const rows = await db.selectFrom("google_connections").select(["id", "refresh_token_enc", "access_token_enc"]).execute();
  let rewritten = 0;
  for (const row of rows) {
    const refresh = needsReencryption(row.refresh_token_enc)
      ? encryptSecret(decryptSecret(row.refresh_token_enc, refreshContext(row.id)), refreshContext(row.id))
      : null;
    const access =
      row.access_token_enc && needsReencryption(row.access_token_enc)
        ? encryptSecret(decryptSecret(row.access_token_enc, accessContext(row.id)), accessContext(row.id))
        : null;
    if (!refresh && !access) continue;
    let q = db
      .updateTable("google_connections")
      .set({ ...(refresh ? { refresh_token_enc: refresh } : {}), ...(access ? { access_token_enc: access } : {}) })
      .where("id", "=", row.id)
      .where("refresh_token_enc", "=", row.refresh_token_enc);
    q = row.access_token_enc === null ? q.where("access_token_enc", "is", null) : q.where("access_token_enc", "=", row.access_token_enc);
    const r = await q.executeTakeFirst();
    rewritten += Number(r.numUpdatedRows);
  }
  return { connections: rows.length, rewritten };
}
