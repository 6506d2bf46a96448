import { z } from "zod";
import { LoginSchema, RegisterSchema } from "~/lib/auth-schemas";
import { defineArea, errorResponse, NOT_JSON, ok, Timestamp, TOO_MANY } from "./registry.server";

// /auth: email/password sign-in for API clients and Google's browser flow.

const UserBody = z.object({ email: z.email() });
const Token = z.object({
  access_token: z.string(),
  token_type: z.literal("bearer"),
  expires_at: Timestamp.describe("When the token stops working (SESSION_TTL_DAYS after sign-in)"),
});

export default defineArea({
  tag: "auth",
  schemas: {
    LoginCredentials: LoginSchema,
    RegisterCredentials: RegisterSchema,
    Token,
  },
  paths: {
    "/auth/register": {
      post: {
        summary:
          "Create an account (does not sign in). Answers the same whether or not the address already has an account; a confirmation link (or, for an existing account, a note) is mailed to the address",
        auth: false,
        body: RegisterSchema,
        responses: {
          201: ok("Registration received", UserBody),
          400: errorResponse("Invalid email or password"),
          415: NOT_JSON,
          429: TOO_MANY,
        },
      },
    },
    "/auth/login": {
      post: {
        summary: "Sign in with email and password",
        auth: false,
        body: LoginSchema,
        responses: {
          200: ok("Signed in", Token),
          400: errorResponse("Invalid request"),
          401: errorResponse("Invalid email or password"),
          415: NOT_JSON,
          429: TOO_MANY,
        },
      },
    },
    "/auth/logout": {
      post: { summary: "Revoke the bearer token and its session", responses: { 204: ok("Signed out") } },
    },
    "/auth/me": {
      get: { summary: "The signed-in user", responses: { 200: ok("The user", UserBody) } },
    },
    "/auth/google": {
      get: {
        summary: "Start Google sign-in (browser navigation)",
        description:
          "Redirects the browser to Google's consent screen (authorization code flow with PKCE). Not for API clients. A signed-in browser connects Google Ads to its own user; on another host name than APP_URL's it is sent back to returnTo with an explanation instead.",
        auth: false,
        query: z.object({ returnTo: z.string().optional().describe("Path to return to after connecting, for a signed-in user") }),
        responses: { 302: ok("Redirect to Google") },
      },
    },
    "/auth/google/callback": {
      get: {
        summary: "Google's redirect back (browser navigation)",
        description:
          "Completes the sign-in and redirects to /dashboard?token=<one-time code> (single use, 2 minutes, only in this browser; exchanged for the session on arrival, never an API token), or, for a signed-in user connecting Google Ads, back to returnTo; otherwise back with an error message.",
        auth: false,
        query: z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() }),
        responses: { 302: ok("Redirect into the app") },
      },
    },
  },
});
