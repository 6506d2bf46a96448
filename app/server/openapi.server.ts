// The OpenAPI 3.1 description of every /api/v1 endpoint, served at
// /api/v1/openapi.json. Written by hand beside the routes: the API is small,
// and a test checks that every /api/v1 route in app/routes.ts is listed here.

import {
  DESCRIPTION_MAX,
  DESCRIPTION_PINS,
  HEADLINE_MAX,
  HEADLINE_PINS,
  KEYWORD_MATCH_TYPES,
  KEYWORD_MAX_CHARS,
  KEYWORD_MAX_WORDS,
  PATH_MAX,
  RSA_DESCRIPTIONS_MAX,
  RSA_DESCRIPTIONS_MIN,
  RSA_HEADLINES_MAX,
  RSA_HEADLINES_MIN,
} from "~/lib/ad-limits";

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

const changeSetIdParam = {
  name: "changeSetId",
  in: "path",
  required: true,
  description: "The change set's id (a UUID)",
  schema: { type: "string", format: "uuid" },
};

const NOT_FOUND_CHANGE_SET = errorResponse("No such change set among the caller's (a malformed id included)");
const changeSetResponse = (description: string, withProblem = false) => ({
  description,
  content: json(withProblem ? ref("ChangeSetWithValidation") : { type: "object", required: ["changeSet"], properties: { changeSet: ref("ChangeSet") } }),
});

// The actions' input rules, as propose.server.ts checks them.
const MAX_ITEMS = 5000;
const money = (description: string): Schema => ({
  type: "number",
  exclusiveMinimum: 0,
  maximum: 1_000_000_000,
  multipleOf: 0.01,
  description: `${description}, in units of the account's currency (not micros), at most 2 decimals`,
});
const numericId = (description: string): Schema => ({ type: "string", pattern: "^\\d+$", description });
const compositeId = (description: string): Schema => ({ type: "string", pattern: "^\\d+~\\d+$", description });
const keywordText: Schema = {
  type: "string",
  minLength: 1,
  maxLength: KEYWORD_MAX_CHARS,
  description: `At most ${KEYWORD_MAX_CHARS} characters and ${KEYWORD_MAX_WORDS} words; none of ! @ % ^ ( ) = { } ; ~ \` < > ? \\ | , *`,
};
const matchType: Schema = { type: "string", enum: [...KEYWORD_MATCH_TYPES] };
const action = (type: string, description: string, required: string[], properties: Record<string, Schema>): Schema => ({
  type: "object",
  description,
  required: ["type", ...required],
  properties: { type: { type: "string", const: type }, ...properties },
});
const ACTION_TYPES: Record<string, string> = {
  status: "StatusAction",
  budget: "BudgetAction",
  bid: "BidAction",
  add_keywords: "AddKeywordsAction",
  add_negatives: "AddNegativesAction",
  remove_keywords: "RemoveKeywordsAction",
  create_rsa: "CreateRsaAction",
};
const RESOURCE_KINDS = ["campaign", "campaign_budget", "ad_group", "keyword", "negative_keyword", "campaign_negative_keyword", "ad"];
const CHANGE_STATUSES = ["pending", "valid", "invalid", "applying", "applied", "failed", "unknown"];

export function openApiDocument(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Ads AI Manager API",
      version: "1.0.0",
      description:
        "JSON API of Ads AI Manager. Sign in with POST /auth/login (or the Google flow) to get an access_token, then send it as `Authorization: Bearer <access_token>`. Errors share one shape: `{ \"detail\": string }`. Money is in micros (1,000,000 per unit of the account's currency), except in change actions (amount, cpc), which take units (12.5 = 12.50).",
    },
    servers: [{ url: `${serverUrl.replace(/\/$/, "")}/api/v1` }],
    security: [{ bearerAuth: [] }],
    tags: [{ name: "auth" }, { name: "accounts" }, { name: "reports" }, { name: "changes" }, { name: "history" }, { name: "meta" }],
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
      "/accounts/{customerId}/change-sets": {
        post: {
          tags: ["changes"],
          summary: "Propose changes as one change set; Google validates it, nothing is applied",
          description:
            "Stores the actions as one change set with each change's before and after, then asks Google to validate it (validateOnly). Google's refusals show in changeSet.status (invalid) and each change's error. Apply it with POST /change-sets/{changeSetId}/apply.",
          parameters: [customerIdParam],
          requestBody: { required: true, content: json(ref("ProposeChangeSet")) },
          responses: {
            "201": changeSetResponse("Proposed (status validated, invalid, or proposed when Google could not be reached)", true),
            "400": errorResponse("Invalid body; errors is keyed by the field's path, e.g. actions.0.amount. Also a manager account."),
            "401": UNAUTHORIZED,
            "404": errorResponse("No such account among the caller's, or an id in an action not found in the account"),
            "415": errorResponse("Body is not JSON"),
          },
        },
      },
      "/change-sets/{changeSetId}": {
        get: {
          tags: ["changes"],
          summary: "A change set with every change's before and after and Google's verdict",
          parameters: [changeSetIdParam],
          responses: { "200": changeSetResponse("The change set"), "401": UNAUTHORIZED, "404": NOT_FOUND_CHANGE_SET },
        },
      },
      "/change-sets/{changeSetId}/validate": {
        post: {
          tags: ["changes"],
          summary: "Have Google check the changes again (validateOnly); nothing is applied",
          description: "Re-reads the before values from Google. Only a proposed, validated or invalid change set can be validated.",
          parameters: [changeSetIdParam],
          responses: {
            "200": changeSetResponse("Validated (see changeSet.status) or, with a validationProblem, not validated", true),
            "401": UNAUTHORIZED,
            "404": NOT_FOUND_CHANGE_SET,
            "409": errorResponse("Already applying, applied, failed or discarded"),
          },
        },
      },
      "/change-sets/{changeSetId}/apply": {
        post: {
          tags: ["changes"],
          summary: "Apply the change set at Google (the caller's approval)",
          description:
            "The body is optional (an empty body is {}). A proposed set is validated first. The outcome, applied, partially_applied or failed, is in changeSet.status, and each change's status and error say which changes Google refused.",
          parameters: [changeSetIdParam],
          requestBody: { required: false, content: json(ref("ApplyOptions")) },
          responses: {
            "200": changeSetResponse("Sent to Google; the outcome is in changeSet.status"),
            "400": errorResponse("Invalid body"),
            "401": UNAUTHORIZED,
            "404": NOT_FOUND_CHANGE_SET,
            "409": errorResponse(
              "Not validated, refused by Google, already applied or discarded, the Google Ads connection needs reconnecting, or a large budget/bid move without confirmLargeMoves (errors.confirmLargeMoves)",
            ),
            "415": errorResponse("Body is not JSON"),
            "502": errorResponse("Google Ads could not be reached (e.g. to validate a proposed set first); nothing was applied"),
          },
        },
      },
      "/change-sets/{changeSetId}/discard": {
        post: {
          tags: ["changes"],
          summary: "Discard a proposal: kept as discarded, never applied",
          parameters: [changeSetIdParam],
          responses: {
            "200": changeSetResponse("Discarded"),
            "401": UNAUTHORIZED,
            "404": NOT_FOUND_CHANGE_SET,
            "409": errorResponse("Already applying, applied, failed or discarded"),
          },
        },
      },
      "/change-sets/{changeSetId}/revert": {
        post: {
          tags: ["changes"],
          summary: "Propose a new change set undoing an applied one",
          description:
            "Creates and validates a NEW change set with the inverse of every applied change (the recorded before values); changeSet is that new set, with revertOf set. Apply it like any other.",
          parameters: [changeSetIdParam],
          responses: {
            "201": changeSetResponse("The new, inverse change set", true),
            "401": UNAUTHORIZED,
            "404": NOT_FOUND_CHANGE_SET,
            "409": errorResponse("Not applied, nothing revertable, or already reverted"),
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
        ProposeChangeSet: {
          type: "object",
          required: ["actions"],
          properties: {
            actions: { type: "array", minItems: 1, maxItems: MAX_ITEMS, items: ref("Action") },
            title: { type: "string", minLength: 1, maxLength: 200, description: "Defaults to a description of the changes" },
            atomic: { type: "boolean", default: true, description: "true: every change applies or none does; false: each on its own" },
          },
        },
        ApplyOptions: {
          type: "object",
          properties: {
            confirmLargeMoves: {
              type: "boolean",
              default: false,
              description: "Required (true) when a budget or bid moves by more than the server's CHANGE_CONFIRM_PERCENT (changeSet.needsConfirmation)",
            },
          },
        },
        Action: {
          description: "One requested change; `type` says which. Ids are those of the account's synced data.",
          oneOf: Object.values(ACTION_TYPES).map(ref),
          discriminator: { propertyName: "type", mapping: Object.fromEntries(Object.entries(ACTION_TYPES).map(([type, name]) => [type, `#/components/schemas/${name}`])) },
        },
        StatusAction: action("status", "Enable, pause or remove campaigns, ad groups, keywords or ads", ["kind", "ids", "status"], {
          kind: { type: "string", enum: ["campaign", "ad_group", "keyword", "ad"] },
          ids: {
            type: "array",
            minItems: 1,
            maxItems: MAX_ITEMS,
            items: { type: "string" },
            description: "Campaign and ad group ids are numeric; keyword ids are adGroupId~criterionId, ad ids adGroupId~adId",
          },
          status: { type: "string", enum: ["ENABLED", "PAUSED", "REMOVED"] },
        }),
        BudgetAction: action("budget", "Set a campaign's daily budget", ["campaignId", "amount"], {
          campaignId: numericId("The campaign's id"),
          amount: money("The new daily budget"),
        }),
        BidAction: action("bid", "Set max. CPC bids of keywords or ad groups (default bid)", ["kind", "items"], {
          kind: { type: "string", enum: ["keyword", "ad_group"] },
          items: {
            type: "array",
            minItems: 1,
            maxItems: MAX_ITEMS,
            items: {
              type: "object",
              required: ["id", "cpc"],
              properties: { id: { type: "string", description: "Ad group id, or keyword id adGroupId~criterionId" }, cpc: money("The new max. CPC bid") },
            },
          },
        }),
        AddKeywordsAction: action("add_keywords", "Add keywords to an ad group", ["adGroupId", "keywords"], {
          adGroupId: numericId("The ad group's id"),
          keywords: {
            type: "array",
            minItems: 1,
            maxItems: MAX_ITEMS,
            items: { type: "object", required: ["text", "matchType"], properties: { text: keywordText, matchType, cpc: money("Optional max. CPC bid") } },
          },
        }),
        AddNegativesAction: action("add_negatives", "Add negative keywords to an ad group or a campaign", ["level", "parentId", "keywords"], {
          level: { type: "string", enum: ["ad_group", "campaign"] },
          parentId: numericId("The ad group's or campaign's id, per level"),
          keywords: {
            type: "array",
            minItems: 1,
            maxItems: MAX_ITEMS,
            items: { type: "object", required: ["text", "matchType"], properties: { text: keywordText, matchType } },
          },
        }),
        RemoveKeywordsAction: action("remove_keywords", "Remove keywords (a revert re-creates them)", ["ids"], {
          ids: { type: "array", minItems: 1, maxItems: MAX_ITEMS, items: compositeId("Keyword id adGroupId~criterionId") },
        }),
        CreateRsaAction: action("create_rsa", "Create a responsive search ad (enabled) in an ad group", ["adGroupId", "headlines", "descriptions", "finalUrl"], {
          adGroupId: numericId("The ad group's id"),
          headlines: {
            type: "array",
            minItems: RSA_HEADLINES_MIN,
            maxItems: RSA_HEADLINES_MAX,
            items: {
              type: "object",
              required: ["text"],
              properties: { text: { type: "string", minLength: 1, maxLength: HEADLINE_MAX }, pin: { type: "string", enum: [...HEADLINE_PINS] } },
            },
          },
          descriptions: {
            type: "array",
            minItems: RSA_DESCRIPTIONS_MIN,
            maxItems: RSA_DESCRIPTIONS_MAX,
            items: {
              type: "object",
              required: ["text"],
              properties: { text: { type: "string", minLength: 1, maxLength: DESCRIPTION_MAX }, pin: { type: "string", enum: [...DESCRIPTION_PINS] } },
            },
          },
          path1: { type: "string", maxLength: PATH_MAX },
          path2: { type: "string", maxLength: PATH_MAX, description: "Needs path1" },
          finalUrl: { type: "string", format: "uri", description: "An http(s) URL" },
        }),
        ChangeSetWithValidation: {
          type: "object",
          required: ["changeSet", "validationProblem"],
          properties: {
            changeSet: ref("ChangeSet"),
            validationProblem: {
              type: ["string", "null"],
              description: "Why Google's validation did not run (e.g. Google unreachable: the set stays proposed; validate again later). Google's refusals are not problems here: they are in changeSet.status and each change.",
            },
          },
        },
        ChangeSet: {
          type: "object",
          required: ["id", "customerId", "title", "status", "source", "sourceDetail", "proposedBy", "atomic", "needsConfirmation", "confirmPercent", "createdAt", "validatedAt", "approvedAt", "appliedAt", "error", "revertOf", "revertedBy", "canApply", "canValidate", "canDiscard", "canRevert", "counts", "changes"],
          properties: {
            id: { type: "string", format: "uuid" },
            customerId: { type: "string", pattern: "^\\d{10}$" },
            title: { type: "string" },
            status: { type: "string", enum: ["proposed", "validated", "invalid", "applying", "applied", "partially_applied", "failed", "discarded"] },
            source: { type: "string", enum: ["user", "rule", "assistant"] },
            sourceDetail: { type: ["string", "null"] },
            proposedBy: { type: "string", description: "The proposer's email, or Rule / Assistant" },
            atomic: { type: "boolean", description: "Every change applies or none does" },
            needsConfirmation: { type: "boolean", description: "A budget or bid moves by more than confirmPercent: apply needs confirmLargeMoves" },
            confirmPercent: { type: "integer" },
            createdAt: { type: "string", format: "date-time" },
            validatedAt: { type: ["string", "null"], format: "date-time" },
            approvedAt: { type: ["string", "null"], format: "date-time" },
            appliedAt: { type: ["string", "null"], format: "date-time" },
            error: { type: ["string", "null"] },
            revertOf: { type: ["string", "null"], description: "The change set this one undoes" },
            revertedBy: { type: ["string", "null"], description: "The applied change set that undid this one" },
            canApply: { type: "boolean" },
            canValidate: { type: "boolean" },
            canDiscard: { type: "boolean" },
            canRevert: { type: "boolean" },
            counts: {
              type: "object",
              required: ["total", "valid", "invalid", "applied", "failed"],
              properties: {
                total: { type: "integer" },
                valid: { type: "integer" },
                invalid: { type: "integer" },
                applied: { type: "integer" },
                failed: { type: "integer" },
              },
            },
            changes: { type: "array", items: ref("Change") },
          },
        },
        Change: {
          type: "object",
          required: ["id", "resourceKind", "operation", "resourceName", "label", "status", "errorCode", "errorMessage", "fieldPath", "largeMove", "fields", "before", "after"],
          properties: {
            id: { type: "string" },
            resourceKind: { type: "string", enum: RESOURCE_KINDS },
            operation: { type: "string", enum: ["create", "update", "remove"] },
            resourceName: { type: ["string", "null"], description: "Google's resource name; for a create, once applied" },
            label: { type: "string" },
            status: { type: "string", enum: CHANGE_STATUSES },
            errorCode: { type: ["string", "null"], description: "Google's error code when refused or failed, e.g. RangeError.TOO_LOW" },
            errorMessage: { type: ["string", "null"] },
            fieldPath: { type: ["string", "null"] },
            largeMove: { type: "boolean", description: "A budget or bid move beyond confirmPercent" },
            fields: { type: "array", items: ref("FieldDiff") },
            before: { description: "The changed fields before, as stored (micros as numbers); null for a create" },
            after: { description: "The changed fields after, as stored (micros as numbers)" },
          },
        },
        FieldDiff: {
          type: "object",
          required: ["field", "before", "after", "percent"],
          description: "One changed field formatted for people, e.g. Daily budget: €50.00 → €60.00",
          properties: {
            field: { type: "string" },
            before: { type: ["string", "null"] },
            after: { type: ["string", "null"] },
            percent: { type: ["number", "null"], description: "Signed change in percent for budgets and bids" },
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
