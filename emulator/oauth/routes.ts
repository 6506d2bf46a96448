import { createHash, timingSafeEqual } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { EmulatorContext } from "../context";
import type { ParsedFaultRule } from "../faults";
import { bearerToken, formFields, formList, headerValue, readBody, redirect, sendHtml, sendJson, type MaybeExpressRequest } from "../http/util";
import { atHash } from "./jwt";
import { renderConsentPage, renderErrorPage } from "./pages";
import { ADWORDS_SCOPE, EMAIL_SCOPE, PROFILE_SCOPE, isIdentityScope, parseScopeParam, scopeString } from "./scopes";
import type { AuthCode } from "./state";

/**
 * Google's OAuth 2.0 / OpenID Connect endpoints: authorization (consent page),
 * token (authorization_code + refresh_token grants, PKCE), userinfo, revoke,
 * JWKS and the discovery document.
 */

export const PATHS = {
  authorize: ["/o/oauth2/v2/auth", "/o/oauth2/auth"],
  token: ["/token", "/oauth2/v4/token", "/oauth2/v3/token", "/o/oauth2/token"],
  userinfo: ["/v1/userinfo", "/oauth2/v3/userinfo", "/oauth2/v2/userinfo"],
  revoke: ["/revoke", "/o/oauth2/revoke"],
  jwks: ["/oauth2/v3/certs"],
  discovery: ["/.well-known/openid-configuration"],
} as const;

const AUTH_PARAMS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
  "access_type",
  "prompt",
  "include_granted_scopes",
  "login_hint",
  "nonce",
  "hd",
] as const;

const TOKEN_HEADERS = { "Cache-Control": "no-cache, no-store, max-age=0, must-revalidate", Pragma: "no-cache" };

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  sendJson(res, status, { error, error_description: description }, TOKEN_HEADERS);
}

// ---------------------------------------------------------------------------
// Authorization endpoint

interface ValidAuthRequest {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state?: string;
  codeChallenge?: string;
  codeChallengeMethod?: "S256" | "plain";
  accessType: "online" | "offline";
  prompt: string[];
  includeGrantedScopes: boolean;
  nonce?: string;
}

type AuthValidation = { ok: true; value: ValidAuthRequest } | { ok: false; status: number; error: string; reason: string };

const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

function validateAuthRequest(ctx: EmulatorContext, p: Record<string, string>): AuthValidation {
  const fail = (status: number, error: string, reason: string): AuthValidation => ({ ok: false, status, error, reason });
  const missing = (name: string) => fail(400, "invalid_request", `Missing required parameter: ${name}`);

  const clientId = p.client_id;
  if (!clientId) return missing("client_id");
  if (ctx.clientId !== undefined && clientId !== ctx.clientId) {
    return fail(401, "invalid_client", "The OAuth client was not found.");
  }
  const redirectUri = p.redirect_uri;
  if (!redirectUri) return missing("redirect_uri");
  let parsed: URL | undefined;
  try {
    parsed = new URL(redirectUri);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.hash) {
    return fail(400, "invalid_request", `Invalid parameter value for redirect_uri: Invalid redirect: ${redirectUri}`);
  }
  if (ctx.redirectUris && !ctx.redirectUris.has(redirectUri)) {
    return fail(
      400,
      "redirect_uri_mismatch",
      `You can't sign in to this app because it doesn't comply with Google's OAuth 2.0 policy. If you're the app developer, register the redirect URI in the Google Cloud Console. Request details: redirect_uri=${redirectUri}`,
    );
  }
  const responseType = p.response_type;
  if (!responseType) return missing("response_type");
  if (responseType !== "code") {
    return fail(400, "unsupported_response_type", `Unsupported response_type: ${responseType}`);
  }
  if (!p.scope) return missing("scope");
  const { scopes, invalid } = parseScopeParam(p.scope);
  if (invalid.length > 0) {
    return fail(400, "invalid_scope", `Some requested scopes were invalid. {valid=[${scopes.join(", ")}], invalid=[${invalid.join(", ")}]}`);
  }
  if (scopes.length === 0) return missing("scope");

  let codeChallengeMethod: "S256" | "plain" | undefined;
  if (p.code_challenge !== undefined) {
    if (!PKCE_VALUE.test(p.code_challenge)) return fail(400, "invalid_request", "Invalid code_challenge value.");
    const method = p.code_challenge_method ?? "plain";
    if (method !== "S256" && method !== "plain") {
      return fail(400, "invalid_request", `Invalid code_challenge_method: ${method}`);
    }
    codeChallengeMethod = method;
  } else if (p.code_challenge_method !== undefined || ctx.requirePkce) {
    return missing("code_challenge");
  }
  const accessType = p.access_type ?? "online";
  if (accessType !== "online" && accessType !== "offline") {
    return fail(400, "invalid_request", `Invalid access_type: ${accessType}`);
  }
  const prompt = (p.prompt ?? "").split(/\s+/).filter(Boolean);
  if (prompt.some((v) => !["none", "consent", "select_account"].includes(v)) || (prompt.includes("none") && prompt.length > 1)) {
    return fail(400, "invalid_request", `Invalid prompt: ${p.prompt}`);
  }
  return {
    ok: true,
    value: {
      clientId,
      redirectUri,
      scopes,
      state: p.state,
      codeChallenge: p.code_challenge,
      codeChallengeMethod,
      accessType,
      prompt,
      includeGrantedScopes: p.include_granted_scopes === "true",
      nonce: p.nonce,
    },
  };
}

function pickAuthParams(source: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of AUTH_PARAMS) if (source[name] !== undefined) out[name] = source[name]!;
  return out;
}

function redirectWith(res: ServerResponse, redirectUri: string, params: Array<[string, string | undefined]>): void {
  const url = new URL(redirectUri);
  for (const [k, v] of params) if (v !== undefined) url.searchParams.append(k, v);
  redirect(res, url.toString());
}

function issueCodeAndRedirect(ctx: EmulatorContext, res: ServerResponse, auth: ValidAuthRequest, granted: string[]): void {
  let scopes = granted;
  if (auth.includeGrantedScopes) {
    const before = ctx.oauth.previouslyGranted(auth.clientId, ctx.demoUser.email);
    scopes = [...granted, ...before.filter((s) => !granted.includes(s))];
  }
  const code = ctx.oauth.issueCode({
    clientId: auth.clientId,
    redirectUri: auth.redirectUri,
    userEmail: ctx.demoUser.email,
    scopes,
    accessType: auth.accessType,
    codeChallenge: auth.codeChallenge,
    codeChallengeMethod: auth.codeChallengeMethod,
    nonce: auth.nonce,
  });
  // Google's parameter order; authuser/prompt are extras its redirects carry.
  redirectWith(res, auth.redirectUri, [
    ["state", auth.state],
    ["code", code.code],
    ["scope", scopeString(scopes)],
    ["authuser", "0"],
    ["prompt", "consent"],
  ]);
}

export async function handleAuthorize(
  ctx: EmulatorContext,
  req: MaybeExpressRequest,
  res: ServerResponse,
  query: URLSearchParams,
  actionPath: string,
): Promise<void> {
  const isPost = req.method === "POST";
  let source: Record<string, string>;
  let granted: string[] = [];
  let action: string | undefined;
  if (isPost) {
    const body = await readBody(req);
    source = formFields(body, headerValue(req, "content-type"));
    granted = formList(body.text, body.parsed, "granted_scope");
    action = source.action;
  } else {
    source = {};
    for (const [k, v] of query) if (!(k in source)) source[k] = v;
  }
  const params = pickAuthParams(source);
  const checked = validateAuthRequest(ctx, params);
  if (!checked.ok) {
    const page = renderErrorPage({ status: checked.status, error: checked.error, reason: checked.reason, user: ctx.demoUser, params });
    sendHtml(res, checked.status, page.html, page.headers);
    return;
  }
  const auth = checked.value;

  if (!isPost) {
    if (auth.prompt.includes("none")) {
      // No interaction allowed: succeed only on an earlier consent covering every scope.
      const before = ctx.oauth.previouslyGranted(auth.clientId, ctx.demoUser.email);
      if (auth.scopes.every((s) => before.includes(s))) return issueCodeAndRedirect(ctx, res, auth, auth.scopes);
      return redirectWith(res, auth.redirectUri, [
        ["error", "consent_required"],
        ["state", auth.state],
      ]);
    }
    const page = renderConsentPage({
      user: ctx.demoUser,
      clientId: auth.clientId,
      scopes: auth.scopes,
      params,
      actionPath,
      redirectOrigin: new URL(auth.redirectUri).origin,
    });
    sendHtml(res, 200, page.html, page.headers);
    return;
  }

  if (action === "cancel") {
    return redirectWith(res, auth.redirectUri, [
      ["error", "access_denied"],
      ["state", auth.state],
    ]);
  }
  if (action !== "allow") {
    const page = renderErrorPage({ status: 400, error: "invalid_request", reason: "Missing required parameter: action", user: ctx.demoUser, params });
    sendHtml(res, 400, page.html, page.headers);
    return;
  }
  // Identity scopes come with sign-in; the rest only if their box stayed ticked.
  const scopes = auth.scopes.filter((s) => isIdentityScope(s) || granted.includes(s));
  issueCodeAndRedirect(ctx, res, auth, scopes);
}

// ---------------------------------------------------------------------------
// Token endpoint

function clientCredentials(req: MaybeExpressRequest, form: Record<string, string>): { id?: string; secret?: string } {
  const auth = headerValue(req, "authorization");
  const m = auth ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(auth) : null;
  if (m) {
    const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
    const i = decoded.indexOf(":");
    // RFC 6749 §2.3.1: both halves are form-urlencoded before base64.
    const dec = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, " "));
      } catch {
        return s;
      }
    };
    if (i >= 0) return { id: dec(decoded.slice(0, i)), secret: dec(decoded.slice(i + 1)) };
  }
  return { id: form.client_id, secret: form.client_secret };
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function verifyPkce(code: AuthCode, verifier: string): boolean {
  if (code.codeChallengeMethod === "plain") return safeEqual(verifier, code.codeChallenge!);
  const computed = createHash("sha256").update(verifier).digest("base64url");
  return safeEqual(computed, code.codeChallenge!);
}

export function tokenFault(res: ServerResponse, fault: ParsedFaultRule): void {
  switch (fault.kind) {
    case "unauthenticated":
      return oauthError(res, 400, "invalid_grant", "Token has been expired or revoked.");
    case "quota":
    case "dailyQuota":
      return oauthError(res, 429, "rate_limit_exceeded", "Rate Limit Exceeded");
    case "unavailable":
      return oauthError(res, 503, "temporarily_unavailable", "Service Unavailable");
    default:
      return oauthError(res, 500, "internal_failure", "Backend Error");
  }
}

export async function handleToken(ctx: EmulatorContext, req: MaybeExpressRequest, res: ServerResponse, baseUrl: string): Promise<void> {
  const form = formFields(await readBody(req), headerValue(req, "content-type"));
  const client = clientCredentials(req, form);
  if (!client.id) return oauthError(res, 400, "invalid_request", "Could not determine client ID from request.");
  if (ctx.clientId !== undefined) {
    if (client.id !== ctx.clientId) return oauthError(res, 401, "invalid_client", "The OAuth client was not found.");
    if (ctx.clientSecret !== undefined && !safeEqual(client.secret ?? "", ctx.clientSecret)) {
      return oauthError(res, 401, "invalid_client", "Unauthorized");
    }
  }
  const grantType = form.grant_type;
  if (grantType === "authorization_code") return exchangeCode(ctx, res, form, client.id, baseUrl);
  if (grantType === "refresh_token") return refresh(ctx, res, form, client.id);
  return oauthError(res, 400, "unsupported_grant_type", `Invalid grant_type: ${grantType ?? ""}`);
}

function exchangeCode(ctx: EmulatorContext, res: ServerResponse, form: Record<string, string>, clientId: string, baseUrl: string): void {
  if (!form.code) return oauthError(res, 400, "invalid_request", "Missing required parameter: code");
  const code = ctx.oauth.getCode(form.code);
  if (!code) return oauthError(res, 400, "invalid_grant", "Malformed auth code.");
  if (code.grantId !== undefined) {
    // Replay of a spent code: assume it leaked and kill what it produced (RFC 6749 §4.1.2).
    ctx.oauth.revokeGrant(code.grantId);
    return oauthError(res, 400, "invalid_grant", "Bad Request");
  }
  // Any failed exchange burns the code, so a verifier cannot be guessed over several tries.
  const burn = (status: number, error: string, description: string) => {
    ctx.oauth.deleteCode(code.code);
    oauthError(res, status, error, description);
  };
  if (code.clientId !== clientId) return burn(400, "invalid_grant", "Bad Request");
  if (!form.redirect_uri) return burn(400, "invalid_request", "Missing required parameter: redirect_uri");
  if (form.redirect_uri !== code.redirectUri) return burn(400, "redirect_uri_mismatch", "Bad Request");
  if (code.codeChallenge !== undefined) {
    if (!form.code_verifier) return burn(400, "invalid_request", "Missing code verifier.");
    if (!verifyPkce(code, form.code_verifier)) return burn(400, "invalid_grant", "Bad Request");
  } else if (form.code_verifier) {
    return burn(400, "invalid_request", "code_verifier or verifier is not needed.");
  }

  const grant = ctx.oauth.createGrant(code);
  const access = ctx.oauth.issueAccessToken(grant, ctx.accessTokenTtlSeconds);
  const body: Record<string, unknown> = {
    access_token: access.token,
    expires_in: ctx.accessTokenTtlSeconds,
  };
  if (grant.refreshToken) body.refresh_token = grant.refreshToken;
  body.scope = scopeString(grant.scopes);
  body.token_type = "Bearer";
  if (grant.scopes.includes("openid")) body.id_token = idToken(ctx, baseUrl, clientId, grant.scopes, access.token, code.nonce);
  sendJson(res, 200, body, TOKEN_HEADERS);
}

function refresh(ctx: EmulatorContext, res: ServerResponse, form: Record<string, string>, clientId: string): void {
  if (!form.refresh_token) return oauthError(res, 400, "invalid_request", "Missing required parameter: refresh_token");
  const grant = ctx.oauth.grantByRefreshToken(form.refresh_token);
  if (!grant || grant.revoked) return oauthError(res, 400, "invalid_grant", "Token has been expired or revoked.");
  if (grant.clientId !== clientId) return oauthError(res, 401, "unauthorized_client", "Unauthorized");
  const access = ctx.oauth.issueAccessToken(grant, ctx.accessTokenTtlSeconds);
  sendJson(
    res,
    200,
    { access_token: access.token, expires_in: ctx.accessTokenTtlSeconds, scope: scopeString(grant.scopes), token_type: "Bearer" },
    TOKEN_HEADERS,
  );
}

function idToken(ctx: EmulatorContext, issuer: string, clientId: string, scopes: string[], accessToken: string, nonce: string | undefined): string {
  const iat = Math.floor(ctx.now() / 1000);
  const user = ctx.demoUser;
  const claims: Record<string, unknown> = { iss: issuer, azp: clientId, aud: clientId, sub: user.sub };
  if (scopes.includes(EMAIL_SCOPE)) {
    claims.email = user.email;
    claims.email_verified = true;
  }
  claims.at_hash = atHash(accessToken);
  if (nonce !== undefined) claims.nonce = nonce;
  if (scopes.includes(PROFILE_SCOPE)) Object.assign(claims, profileClaims(ctx));
  claims.iat = iat;
  claims.exp = iat + 3600;
  return ctx.key.signJwt(claims);
}

function profileClaims(ctx: EmulatorContext): Record<string, string> {
  const user = ctx.demoUser;
  const [given, ...rest] = user.name.split(" ");
  const out: Record<string, string> = { name: user.name };
  if (user.picture) out.picture = user.picture;
  if (given) out.given_name = given;
  if (rest.length) out.family_name = rest.join(" ");
  return out;
}

// ---------------------------------------------------------------------------
// UserInfo, revoke, JWKS, discovery

export function handleUserinfo(ctx: EmulatorContext, req: MaybeExpressRequest, res: ServerResponse, query: URLSearchParams, path: string): void {
  const token = bearerToken(req) ?? query.get("access_token") ?? undefined;
  const lookup = token ? ctx.oauth.lookupAccessToken(token) : undefined;
  if (!lookup || lookup.status !== "ok") {
    const challenge = token ? 'Bearer realm="https://accounts.google.com/", error="invalid_token"' : 'Bearer realm="https://accounts.google.com/"';
    sendJson(res, 401, { error: "invalid_request", error_description: "Invalid Credentials" }, { "WWW-Authenticate": challenge });
    return;
  }
  const scopes = lookup.record.scopes;
  const user = ctx.demoUser;
  const hasEmail = scopes.includes(EMAIL_SCOPE);
  const hasProfile = scopes.includes(PROFILE_SCOPE);
  if (path === "/oauth2/v2/userinfo") {
    // The older v2 endpoint names things differently (id, verified_email).
    const body: Record<string, unknown> = { id: user.sub };
    if (hasEmail) Object.assign(body, { email: user.email, verified_email: true });
    if (hasProfile) Object.assign(body, profileClaims(ctx));
    sendJson(res, 200, body);
    return;
  }
  const body: Record<string, unknown> = { sub: user.sub };
  if (hasProfile) Object.assign(body, profileClaims(ctx));
  if (hasEmail) Object.assign(body, { email: user.email, email_verified: true });
  sendJson(res, 200, body);
}

export async function handleRevoke(ctx: EmulatorContext, req: MaybeExpressRequest, res: ServerResponse, query: URLSearchParams): Promise<void> {
  const form = req.method === "POST" ? formFields(await readBody(req), headerValue(req, "content-type")) : {};
  const token = form.token ?? query.get("token") ?? undefined;
  if (!token) return oauthError(res, 400, "invalid_request", "Missing required parameter: token");
  if (!ctx.oauth.revokeToken(token)) return oauthError(res, 400, "invalid_token", "Token expired or revoked");
  sendJson(res, 200, {});
}

export function handleJwks(ctx: EmulatorContext, res: ServerResponse): void {
  sendJson(res, 200, ctx.key.jwks(), { "Cache-Control": "public, max-age=3600" });
}

export function openidConfiguration(baseUrl: string): Record<string, unknown> {
  return {
    issuer: baseUrl,
    authorization_endpoint: `${baseUrl}/o/oauth2/v2/auth`,
    token_endpoint: `${baseUrl}/token`,
    userinfo_endpoint: `${baseUrl}/v1/userinfo`,
    revocation_endpoint: `${baseUrl}/revoke`,
    jwks_uri: `${baseUrl}/oauth2/v3/certs`,
    response_types_supported: ["code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
    scopes_supported: ["openid", "email", "profile", ADWORDS_SCOPE],
    token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    claims_supported: ["aud", "email", "email_verified", "exp", "family_name", "given_name", "iat", "iss", "name", "picture", "sub"],
    code_challenge_methods_supported: ["plain", "S256"],
    grant_types_supported: ["authorization_code", "refresh_token"],
  };
}
