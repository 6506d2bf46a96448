// The OpenAPI 3.1 description of every /api/v1 endpoint, served at
// /api/v1/openapi.json. Written by hand beside the routes: the API is small,
// and a test checks that every /api/v1 route in app/routes.ts is listed here.

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Schema) => ({ "application/json": { schema } });
const errorResponse = (description: string) => ({ description, content: json(ref("Error")) });

const UNAUTHORIZED = errorResponse("Missing, expired or revoked bearer token");
const NOT_FOUND_ACCOUNT = errorResponse("No such account among the caller's Google Ads accounts");

const customerIdParam = {
  name: "customerId",
  in: "path",
  required: true,
  description: "Google Ads customer id, 10 digits without dashes",
  schema: { type: "string", pattern: "^\\d{10}$" },
};

const dateParam = (name: "from" | "to") => ({
  name,
  in: "query",
  required: false,
  description:
    name === "from"
      ? "First day of the range (inclusive), YYYY-MM-DD in the account's time zone. Without from and to: the last 30 days ending yesterday."
      : "Last day of the range (inclusive), YYYY-MM-DD. Send both from and to, or neither.",
  schema: { type: "string", format: "date" },
});

const BAD_RANGE = errorResponse("Malformed or impossible date range");

export function openApiDocument(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Ads AI Manager API",
      version: "1.0.0",
      description:
        "JSON API of Ads AI Manager. Sign in with POST /auth/login (or the Google flow) to get an access_token, then send it as `Authorization: Bearer <access_token>`. Errors share one shape: `{ \"detail\": string }`. Money is in micros (1,000,000 per unit of the account's currency).",
    },
    servers: [{ url: `${serverUrl.replace(/\/$/, "")}/api/v1` }],
    security: [{ bearerAuth: [] }],
    tags: [{ name: "auth" }, { name: "accounts" }, { name: "reports" }, { name: "history" }, { name: "meta" }],
    paths: {
      "/auth/register": {
        post: {
          tags: ["auth"],
          summary: "Create an account (does not sign in)",
          security: [],
          requestBody: { required: true, content: json(ref("Credentials")) },
          responses: {
            "201": { description: "Created", content: json({ type: "object", required: ["email"], properties: { email: { type: "string", format: "email" } } }) },
            "400": errorResponse("Invalid email or password"),
            "409": errorResponse("Email already registered"),
            "415": errorResponse("Body is not JSON"),
            "429": errorResponse("Too many attempts; see Retry-After"),
          },
        },
      },
      "/auth/login": {
        post: {
          tags: ["auth"],
          summary: "Sign in with email and password",
          security: [],
          requestBody: { required: true, content: json(ref("Credentials")) },
          responses: {
            "200": { description: "Signed in", content: json(ref("Token")) },
            "400": errorResponse("Invalid request"),
            "401": errorResponse("Invalid email or password"),
            "415": errorResponse("Body is not JSON"),
            "429": errorResponse("Too many attempts; see Retry-After"),
          },
        },
      },
      "/auth/logout": {
        post: {
          tags: ["auth"],
          summary: "Revoke the bearer token and its session",
          responses: { "204": { description: "Signed out" }, "401": UNAUTHORIZED },
        },
      },
      "/auth/me": {
        get: {
          tags: ["auth"],
          summary: "The signed-in user",
          responses: {
            "200": { description: "The user", content: json({ type: "object", required: ["email"], properties: { email: { type: "string", format: "email" } } }) },
            "401": UNAUTHORIZED,
          },
        },
      },
      "/auth/google": {
        get: {
          tags: ["auth"],
          summary: "Start Google sign-in (browser navigation)",
          description: "Redirects the browser to Google's consent screen (authorization code flow with PKCE). Not for API clients.",
          security: [],
          parameters: [
            { name: "returnTo", in: "query", required: false, description: "Path to return to after connecting, for a signed-in user", schema: { type: "string" } },
          ],
          responses: { "302": { description: "Redirect to Google" } },
        },
      },
      "/auth/google/callback": {
        get: {
          tags: ["auth"],
          summary: "Google's redirect back (browser navigation)",
          description: "Completes the sign-in and redirects to /dashboard?token=<access_token>, or back with an error message.",
          security: [],
          parameters: [
            { name: "code", in: "query", required: false, schema: { type: "string" } },
            { name: "state", in: "query", required: false, schema: { type: "string" } },
            { name: "error", in: "query", required: false, schema: { type: "string" } },
          ],
          responses: { "302": { description: "Redirect into the app" } },
        },
      },
      "/accounts": {
        get: {
          tags: ["accounts"],
          summary: "The caller's Google Ads accounts",
          responses: {
            "200": {
              description: "Accounts",
              content: json({ type: "object", required: ["accounts"], properties: { accounts: { type: "array", items: ref("Account") } } }),
            },
            "401": UNAUTHORIZED,
          },
        },
      },
      "/accounts/{customerId}/campaigns": {
        get: {
          tags: ["reports"],
          summary: "Every campaign of the account with its metrics for the range",
          parameters: [customerIdParam, dateParam("from"), dateParam("to")],
          responses: {
            "200": {
              description: "Campaigns, all of them (no paging)",
              content: json({ type: "object", required: ["campaigns"], properties: { campaigns: { type: "array", items: ref("Campaign") } } }),
            },
            "400": BAD_RANGE,
            "401": UNAUTHORIZED,
            "404": NOT_FOUND_ACCOUNT,
          },
        },
      },
      "/accounts/{customerId}/summary": {
        get: {
          tags: ["reports"],
          summary: "Account totals for the range and the number of enabled campaigns",
          parameters: [customerIdParam, dateParam("from"), dateParam("to")],
          responses: {
            "200": { description: "Summary", content: json(ref("Summary")) },
            "400": BAD_RANGE,
            "401": UNAUTHORIZED,
            "404": NOT_FOUND_ACCOUNT,
          },
        },
      },
      "/accounts/{customerId}/sync": {
        get: {
          tags: ["reports"],
          summary: "The state of the account's data import from Google Ads",
          parameters: [customerIdParam],
          responses: { "200": { description: "Sync state", content: json(ref("SyncState")) }, "401": UNAUTHORIZED, "404": NOT_FOUND_ACCOUNT },
        },
        post: {
          tags: ["reports"],
          summary: "Start a sync now (returns at once; poll GET for progress)",
          parameters: [customerIdParam],
          responses: {
            "202": { description: "Sync started or already running", content: json(ref("SyncState")) },
            "401": UNAUTHORIZED,
            "404": NOT_FOUND_ACCOUNT,
          },
        },
      },
      "/history": {
        get: {
          tags: ["history"],
          summary: "Change history: changes made through the app and, imported from Google, elsewhere; newest first, 50 per page",
          parameters: [
            { name: "customerId", in: "query", required: false, schema: { type: "string", pattern: "^\\d{10}$" } },
            {
              name: "resourceKind",
              in: "query",
              required: false,
              schema: { type: "string", enum: ["campaign", "campaign_budget", "ad_group", "keyword", "negative_keyword", "campaign_negative_keyword", "ad"] },
            },
            {
              name: "status",
              in: "query",
              required: false,
              schema: { type: "string", enum: ["pending", "valid", "invalid", "applying", "applied", "failed", "unknown"] },
            },
            { name: "source", in: "query", required: false, schema: { type: "string", enum: ["user", "rule", "assistant", "external"] } },
            { name: "from", in: "query", required: false, schema: { type: "string", format: "date" } },
            { name: "to", in: "query", required: false, schema: { type: "string", format: "date" } },
            { name: "q", in: "query", required: false, schema: { type: "string", maxLength: 200 } },
            { name: "page", in: "query", required: false, schema: { type: "integer", minimum: 1, default: 1 } },
          ],
          responses: {
            "200": {
              description: "One page of history",
              content: json({
                type: "object",
                required: ["items", "total"],
                properties: { items: { type: "array", items: ref("HistoryItem") }, total: { type: "integer" } },
              }),
            },
            "400": errorResponse("Invalid filter"),
            "401": UNAUTHORIZED,
          },
        },
      },
      "/openapi.json": {
        get: {
          tags: ["meta"],
          summary: "This document",
          security: [],
          responses: { "200": { description: "OpenAPI 3.1 document", content: json({ type: "object" }) } },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "The access_token from /auth/login or the Google sign-in" },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["detail"],
          properties: {
            detail: { type: "string" },
            errors: { type: "object", additionalProperties: { type: "string" }, description: "Per-field messages, when a body failed validation" },
          },
        },
        Credentials: {
          type: "object",
          required: ["email", "password"],
          properties: { email: { type: "string", format: "email", maxLength: 254 }, password: { type: "string", minLength: 8, maxLength: 256 } },
        },
        Token: {
          type: "object",
          required: ["access_token", "token_type", "expires_at"],
          properties: {
            access_token: { type: "string" },
            token_type: { type: "string", const: "bearer" },
            expires_at: { type: "string", format: "date-time" },
          },
        },
        Account: {
          type: "object",
          required: ["customerId", "name", "currencyCode", "timeZone", "manager"],
          properties: {
            customerId: { type: "string", pattern: "^\\d{10}$" },
            name: { type: "string" },
            currencyCode: { type: "string", description: "ISO 4217" },
            timeZone: { type: "string", description: "IANA time zone" },
            manager: { type: "boolean" },
          },
        },
        Metrics: {
          type: "object",
          required: ["impressions", "clicks", "costMicros", "conversions", "conversionsValue"],
          properties: {
            impressions: { type: "integer" },
            clicks: { type: "integer" },
            costMicros: { type: "integer", description: "Cost in micros of the account currency" },
            conversions: { type: "number" },
            conversionsValue: { type: "number", description: "In units of the account currency" },
          },
        },
        Campaign: {
          type: "object",
          required: ["id", "name", "status", "channelType", "biddingStrategyType", "budgetMicros", "metrics"],
          properties: {
            id: { type: "string" },
            name: { type: "string" },
            status: { type: "string", enum: ["ENABLED", "PAUSED", "REMOVED"] },
            channelType: { type: "string", examples: ["SEARCH", "DISPLAY", "PERFORMANCE_MAX"] },
            biddingStrategyType: { type: "string", examples: ["MANUAL_CPC", "MAXIMIZE_CONVERSIONS", "TARGET_CPA"] },
            budgetMicros: { type: ["integer", "null"], description: "Daily budget in micros" },
            metrics: ref("Metrics"),
          },
        },
        Summary: {
          type: "object",
          required: ["activeCampaigns", "metrics"],
          properties: { activeCampaigns: { type: "integer", description: "Enabled campaigns" }, metrics: ref("Metrics") },
        },
        HistoryItem: {
          type: "object",
          required: ["id", "origin", "at", "customerId", "source", "who", "originLabel", "resourceKind", "resourceName", "label", "operation", "before", "after", "status", "error", "changeSetId", "changeSetTitle", "revertable"],
          properties: {
            id: { type: "string" },
            origin: { type: "string", enum: ["product", "external"] },
            at: { type: "string", format: "date-time" },
            customerId: { type: "string" },
            source: { type: "string", enum: ["user", "rule", "assistant", "external"] },
            who: { type: "string" },
            originLabel: { type: "string" },
            resourceKind: { type: "string" },
            resourceName: { type: ["string", "null"] },
            label: { type: "string" },
            operation: { type: "string" },
            before: { description: "The changed fields before (any JSON)" },
            after: { description: "The changed fields after (any JSON)" },
            status: { type: "string" },
            error: { type: ["string", "null"] },
            changeSetId: { type: ["string", "null"] },
            changeSetTitle: { type: ["string", "null"] },
            revertable: { type: "boolean" },
          },
        },
        SyncState: {
          type: "object",
          required: ["status", "lastSuccessAt", "lastError", "progressDone", "progressTotal", "currentStep"],
          properties: {
            status: { type: "string", enum: ["never", "running", "ok", "failed"] },
            lastSuccessAt: { type: ["string", "null"], format: "date-time" },
            lastError: { type: ["string", "null"] },
            progressDone: { type: "integer" },
            progressTotal: { type: "integer" },
            currentStep: { type: ["string", "null"] },
          },
        },
      },
    },
  };
}
