import { randomToken } from "../http/util";

/**
 * In-memory OAuth state: authorization codes, grants (one per consent), their
 * refresh tokens and access tokens. A grant is the unit of revocation, as at
 * Google: revoking any token of a grant kills all of them.
 */

export interface Grant {
  id: string;
  clientId: string;
  userEmail: string;
  scopes: string[];
  refreshToken?: string;
  revoked: boolean;
  createdAt: number;
}

export interface AccessTokenRecord {
  token: string;
  grantId: string;
  clientId: string;
  userEmail: string;
  scopes: string[];
  expiresAt: number;
}

export interface AuthCode {
  code: string;
  clientId: string;
  redirectUri: string;
  userEmail: string;
  scopes: string[];
  accessType: "online" | "offline";
  codeChallenge?: string;
  codeChallengeMethod?: "S256" | "plain";
  nonce?: string;
  expiresAt: number;
  /** Set once exchanged; a second exchange revokes this grant (RFC 6749 §4.1.2). */
  grantId?: string;
}

export type AccessLookup = { status: "ok"; record: AccessTokenRecord } | { status: "expired" | "revoked" | "unknown" };

/** Everything that must outlive a restart (codes are short-lived and are not kept). */
export interface OAuthSnapshot {
  grants: Grant[];
  accessTokens: AccessTokenRecord[];
  consents: Array<[string, string[]]>;
}

export const CODE_TTL_MS = 10 * 60 * 1000;
/** Dead tokens are remembered this long so callers get OAUTH_TOKEN_EXPIRED/REVOKED rather than INVALID. */
const TOMBSTONE_MS = 24 * 60 * 60 * 1000;

export class OAuthState {
  private readonly codes = new Map<string, AuthCode>();
  private readonly grants = new Map<string, Grant>();
  private readonly byRefreshToken = new Map<string, string>();
  private readonly accessTokens = new Map<string, AccessTokenRecord>();
  /** client + user → scopes granted so far (include_granted_scopes, prompt=none). */
  private readonly consents = new Map<string, Set<string>>();
  private issuedSinceSweep = 0;

  /** onChange: called after every change worth keeping (grants, tokens, consents); see snapshot(). */
  constructor(
    private readonly now: () => number,
    private readonly onChange?: () => void,
  ) {}

  snapshot(): OAuthSnapshot {
    return {
      grants: [...this.grants.values()],
      accessTokens: [...this.accessTokens.values()],
      consents: [...this.consents].map(([k, v]) => [k, [...v]]),
    };
  }

  /** Puts back a snapshot() taken by an earlier process. */
  restore(snapshot: OAuthSnapshot): void {
    for (const grant of snapshot.grants) {
      this.grants.set(grant.id, grant);
      if (grant.refreshToken) this.byRefreshToken.set(grant.refreshToken, grant.id);
    }
    for (const record of snapshot.accessTokens) this.accessTokens.set(record.token, record);
    for (const [key, scopes] of snapshot.consents) this.consents.set(key, new Set(scopes));
  }

  private changed(): void {
    this.onChange?.();
  }

  issueCode(input: Omit<AuthCode, "code" | "expiresAt" | "grantId">): AuthCode {
    this.maybeSweep();
    const code: AuthCode = { ...input, code: `4/0A${randomToken(48)}`, expiresAt: this.now() + CODE_TTL_MS };
    this.codes.set(code.code, code);
    const key = consentKey(input.clientId, input.userEmail);
    const granted = this.consents.get(key) ?? new Set<string>();
    for (const s of input.scopes) granted.add(s);
    this.consents.set(key, granted);
    this.changed();
    return code;
  }

  getCode(code: string): AuthCode | undefined {
    const c = this.codes.get(code);
    if (c && c.expiresAt <= this.now()) {
      this.codes.delete(code);
      return undefined;
    }
    return c;
  }

  deleteCode(code: string): void {
    this.codes.delete(code);
  }

  previouslyGranted(clientId: string, userEmail: string): string[] {
    return [...(this.consents.get(consentKey(clientId, userEmail)) ?? [])];
  }

  createGrant(code: AuthCode): Grant {
    const grant: Grant = {
      id: randomToken(12),
      clientId: code.clientId,
      userEmail: code.userEmail,
      scopes: code.scopes,
      revoked: false,
      createdAt: this.now(),
    };
    if (code.accessType === "offline") {
      grant.refreshToken = `1//0${randomToken(72)}`;
      this.byRefreshToken.set(grant.refreshToken, grant.id);
    }
    this.grants.set(grant.id, grant);
    code.grantId = grant.id;
    this.changed();
    return grant;
  }

  grantByRefreshToken(token: string): Grant | undefined {
    const id = this.byRefreshToken.get(token);
    return id ? this.grants.get(id) : undefined;
  }

  getGrant(id: string): Grant | undefined {
    return this.grants.get(id);
  }

  issueAccessToken(grant: Grant, ttlSeconds: number): AccessTokenRecord {
    this.maybeSweep();
    const record: AccessTokenRecord = {
      token: `ya29.a0${randomToken(120)}`,
      grantId: grant.id,
      clientId: grant.clientId,
      userEmail: grant.userEmail,
      scopes: grant.scopes,
      expiresAt: this.now() + ttlSeconds * 1000,
    };
    this.accessTokens.set(record.token, record);
    this.changed();
    return record;
  }

  lookupAccessToken(token: string): AccessLookup {
    const record = this.accessTokens.get(token);
    if (!record) return { status: "unknown" };
    if (this.grants.get(record.grantId)?.revoked !== false) return { status: "revoked" };
    if (record.expiresAt <= this.now()) return { status: "expired" };
    return { status: "ok", record };
  }

  /** Revoke by refresh or access token; false when the token is unknown or already dead. */
  revokeToken(token: string): boolean {
    const grant = this.grantByRefreshToken(token) ?? this.grantOfLiveAccessToken(token);
    if (!grant || grant.revoked) return false;
    this.revokeGrant(grant.id);
    return true;
  }

  revokeGrant(grantId: string): void {
    const grant = this.grants.get(grantId);
    if (!grant) return;
    grant.revoked = true;
    // A revoked grant also withdraws consent: the next sign-in shows the consent screen again.
    this.consents.delete(consentKey(grant.clientId, grant.userEmail));
    this.changed();
  }

  /** What the user does at myaccount.google.com → "Remove access". Returns how many grants died. */
  revokeAllForUser(email: string): number {
    let n = 0;
    for (const grant of this.grants.values()) {
      if (grant.userEmail.toLowerCase() === email.toLowerCase() && !grant.revoked) {
        this.revokeGrant(grant.id);
        n += 1;
      }
    }
    for (const key of [...this.consents.keys()]) {
      if (key.endsWith(`\n${email.toLowerCase()}`)) this.consents.delete(key);
    }
    this.changed();
    return n;
  }

  /** Ends every live access token (of one user, or all) so the next Ads call sees OAUTH_TOKEN_EXPIRED. */
  expireAccessTokens(email?: string): number {
    let n = 0;
    const t = this.now();
    for (const record of this.accessTokens.values()) {
      if (record.expiresAt > t && (!email || record.userEmail.toLowerCase() === email.toLowerCase())) {
        record.expiresAt = t;
        n += 1;
      }
    }
    if (n > 0) this.changed();
    return n;
  }

  clear(): void {
    this.codes.clear();
    this.grants.clear();
    this.byRefreshToken.clear();
    this.accessTokens.clear();
    this.consents.clear();
  }

  private grantOfLiveAccessToken(token: string): Grant | undefined {
    const record = this.accessTokens.get(token);
    if (!record || record.expiresAt <= this.now()) return undefined;
    return this.grants.get(record.grantId);
  }

  private maybeSweep(): void {
    this.issuedSinceSweep += 1;
    if (this.issuedSinceSweep < 500) return;
    this.issuedSinceSweep = 0;
    const t = this.now();
    for (const [k, c] of this.codes) if (c.expiresAt <= t) this.codes.delete(k);
    for (const [k, r] of this.accessTokens) if (r.expiresAt + TOMBSTONE_MS <= t) this.accessTokens.delete(k);
  }
}

function consentKey(clientId: string, email: string): string {
  return `${clientId}\n${email.toLowerCase()}`;
}
