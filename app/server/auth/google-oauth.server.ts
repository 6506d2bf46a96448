import { Authenticator } from "remix-auth";
import { CodeChallengeMethod, OAuth2RequestError, OAuth2Strategy } from "remix-auth-oauth2";
import { z } from "zod";
import { getConfig } from "../env.server";
import { safeReturnPath } from "../http/return-path.server";
import { appCookie } from "../http/app-cookie.server";

/**
 * Google's OAuth 2.0 authorization-code flow (state + PKCE S256, offline
 * access) through remix-auth-oauth2. Every endpoint comes from config, so the
 * same code talks to Google, to the bundled emulator, or to any
 * standards-compliant OAuth2/OIDC server.
 */
export const ADS_SCOPE = "https://www.googleapis.com/auth/adwords";
export const GOOGLE_SCOPES = ["openid", "email", ADS_SCOPE];
export const CALLBACK_PATH = "/api/v1/auth/google/callback";
const STATE_COOKIE = "__google_oauth";

export interface GoogleTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date;
  scopes: string[];
}

export interface GoogleProfile {
  sub: string;
  email: string;
  emailVerified: boolean;
}

export interface GoogleSignIn {
  tokens: GoogleTokens;
  profile: GoogleProfile;
}

export class GoogleSignInError extends Error {
  name = "GoogleSignInError";
  constructor(
    message: string,
    /** Tokens Google issued before the failure, to be revoked rather than kept. */
    public readonly issuedToken?: string,
  ) {
    super(message);
  }
}

class GoogleStrategy extends OAuth2Strategy<GoogleSignIn> {
  name = "google";
  protected authorizationParams(params: URLSearchParams) {
    // offline + consent: Google issues a refresh token on every consent, so a
    // reconnect always yields a fresh one.
    params.set("access_type", "offline");
    params.set("prompt", "consent");
    return params;
  }
}

const UserInfoSchema = z.object({
  sub: z.string().min(1),
  email: z.email(),
  email_verified: z.union([z.boolean(), z.enum(["true", "false"])]).optional(),
});

async function fetchProfile(accessToken: string): Promise<GoogleProfile> {
  let res: Response;
  try {
    res = await fetch(getConfig().google.userinfoUrl, {
      headers: { Authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    throw new GoogleSignInError("Could not reach Google to read your profile. Please try again.", accessToken);
  }
  if (!res.ok) throw new GoogleSignInError(`Google refused to share your profile (HTTP ${res.status}).`, accessToken);
  const parsed = UserInfoSchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new GoogleSignInError("Google's profile answer had no email address.", accessToken);
  const verified = parsed.data.email_verified;
  return {
    sub: parsed.data.sub,
    email: parsed.data.email.toLowerCase(),
    emailVerified: verified === true || verified === "true",
  };
}

let authenticator: Authenticator<GoogleSignIn> | undefined;
let strategy: GoogleStrategy | undefined;

function getStrategy() {
  if (!strategy) {
    const config = getConfig();
    strategy = new GoogleStrategy(
      {
        cookie: {
          name: STATE_COOKIE,
          httpOnly: true,
          sameSite: "Lax",
          ...(config.APP_URL.startsWith("https:") ? { secure: true as const } : {}),
          path: "/api/v1/auth/google",
          maxAge: 600,
        },
        clientId: config.google.clientId,
        clientSecret: config.google.clientSecret,
        authorizationEndpoint: config.google.authorizationUrl,
        tokenEndpoint: config.google.tokenUrl,
        tokenRevocationEndpoint: config.google.revokeUrl,
        redirectURI: `${config.APP_URL}${CALLBACK_PATH}`,
        scopes: GOOGLE_SCOPES,
        codeChallengeMethod: CodeChallengeMethod.S256,
      },
      async ({ tokens }) => {
        const accessToken = tokens.accessToken();
        const granted = tokens.hasScopes() ? tokens.scopes() : [];
        if (!granted.includes(ADS_SCOPE)) {
          throw new GoogleSignInError(
            "Google Ads access was not granted. Please try again and allow access to your Google Ads accounts on Google's consent screen.",
            accessToken,
          );
        }
        const profile = await fetchProfile(accessToken);
        return {
          profile,
          tokens: {
            accessToken,
            refreshToken: tokens.hasRefreshToken() ? tokens.refreshToken() : null,
            expiresAt: tokens.accessTokenExpiresAt(),
            scopes: granted,
          },
        };
      },
    );
  }
  return strategy;
}

function getAuthenticator() {
  if (!authenticator) {
    authenticator = new Authenticator<GoogleSignIn>();
    authenticator.use(getStrategy(), "google");
  }
  return authenticator;
}

/** Starts the flow (throws the redirect to Google) or, on the callback, returns the verified sign-in. */
export function authenticateWithGoogle(request: Request) {
  return getAuthenticator().authenticate("google", request);
}

/**
 * Clears the state/PKCE cookies (one per started flow, named
 * "__google_oauth:<id>") once the callback has run, so none can be replayed.
 */
export function clearOAuthStateCookies(request: Request): string[] {
  const secure = getConfig().APP_URL.startsWith("https:") ? "; Secure" : "";
  const names = (request.headers.get("Cookie") ?? "")
    .split(";")
    .map((part) => part.split("=")[0].trim())
    .filter((name) => name.startsWith(`${STATE_COOKIE}:`));
  return names.map((name) => `${name}=; Path=/api/v1/auth/google; Max-Age=0; HttpOnly; SameSite=Lax${secure}`);
}

/** A user-facing sentence for anything that went wrong in the callback. Never echoes codes or tokens. */
export function describeGoogleError(error: unknown): string {
  if (error instanceof GoogleSignInError) return error.message;
  if (error instanceof OAuth2RequestError) {
    if (error.code === "access_denied") return "Google sign-in was cancelled.";
    if (error.code === "invalid_grant") {
      return "Google did not accept this sign-in (the authorization expired or was already used). Please try again.";
    }
    return `Google sign-in failed (${error.code}). Please try again.`;
  }
  if (error instanceof ReferenceError || error instanceof RangeError) {
    return "This sign-in could not be verified (it expired or did not start in this browser). Please try again.";
  }
  if (error instanceof Error && /fetch|ECONNREFUSED|network/i.test(`${error.name} ${error.message} ${String(error.cause)}`)) {
    return "Could not reach Google. Please try again in a moment.";
  }
  return "Google sign-in failed. Please try again.";
}

/** Google forgets a token we decided not to keep. Best effort: a failure here changes nothing for the user. */
export async function revokeGoogleToken(token: string) {
  try {
    await fetch(getConfig().google.revokeUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    // The token expires on its own within the hour.
  }
}

/**
 * What the flow was started for, kept beside its state cookie: where to go
 * afterwards, and the signed-in user who asked to connect Google Ads (null for
 * a sign-in). The callback attaches Google to that user or stops; it never
 * signs in someone else (issue 25 point 7).
 */
export interface FlowIntent {
  returnTo: string;
  connectFor: string | null;
}
const IntentSchema = z.object({ returnTo: z.string(), connectFor: z.string().nullable().default(null) });
const intentCookie = appCookie("__google_return", { path: "/api/v1/auth/google", maxAge: 600 });

export async function rememberIntent(intent: FlowIntent) {
  return intentCookie().serialize(intent);
}

export async function readIntent(request: Request): Promise<FlowIntent | null> {
  const parsed = IntentSchema.safeParse(await intentCookie().parse(request.headers.get("Cookie")));
  return parsed.success ? { returnTo: safeReturnPath(parsed.data.returnTo, "/dashboard"), connectFor: parsed.data.connectFor } : null;
}

export async function clearIntent() {
  return intentCookie().serialize("", { maxAge: 0 });
}

/** Exchanges a refresh token for a fresh access token at the configured token endpoint. */
export async function refreshGoogleAccessToken(refreshToken: string): Promise<GoogleTokens> {
  const tokens = await getStrategy().refreshToken(refreshToken);
  return {
    accessToken: tokens.accessToken(),
    refreshToken: tokens.hasRefreshToken() ? tokens.refreshToken() : null,
    expiresAt: tokens.accessTokenExpiresAt(),
    scopes: tokens.hasScopes() ? tokens.scopes() : [],
  };
}

export { OAuth2RequestError };
