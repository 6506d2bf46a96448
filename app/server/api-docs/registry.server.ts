import { z } from "zod";

// The building blocks of the OpenAPI document: an endpoint is described with
// the same zod schemas the route parses with (request) and a zod schema of
// what it answers (responses); document.server.ts turns them into OpenAPI 3.1
// with z.toJSONSchema, so the document cannot drift from the code.
//
// Adding an endpoint (see docs/decisions/008-one-contract-domain-errors-one-door.md):
//   1. In the area's module (app/server/api-docs/<area>.server.ts, e.g.
//      change-sets.server.ts), add its path to the area's `paths`:
//        "/accounts/{customerId}/widgets": {
//          get: {
//            summary: "…", path: CustomerIdParams, query: WidgetQuery,
//            responses: { 200: ok("The widgets", WidgetList), 404: errorResponse("No such account") },
//          },
//        },
//      `body` is the zod schema the route's readJsonBody uses; a response's
//      `body` the schema of the JSON it answers. A 401 is added to every
//      endpoint with a bearer token (the default; `auth: false` for public ones).
//   2. Schemas worth a name (shared, or long) go in the area's `schemas`:
//      they become components/schemas/<Name> and are referred to by $ref.
//   3. A new area: a new module exporting `defineArea({...})`, listed once in
//      AREAS in document.server.ts.
// The route table test (app/routes/reports.test.ts) fails until every /api/v1
// route is in the document, and the API tests check every response they see
// against it (tests/support/api-contract.ts).

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

export interface ResponseSpec {
  description: string;
  /** The JSON body; none for e.g. 204 or a redirect. */
  body?: z.ZodType;
  /** Response headers worth documenting, name → description. */
  headers?: Record<string, string>;
}

export interface Endpoint {
  summary: string;
  description?: string;
  /** Defaults to the area's tag. */
  tags?: string[];
  /** false: no bearer token needed (sign-in, Google's redirects, this document). Default true. */
  auth?: boolean;
  /**
   * The scope a personal access token needs (the route's apiRoute `tokenScope`);
   * null: a person's session token only. Default: `read` for GET, null otherwise.
   */
  tokenScope?: "read" | "propose" | null;
  /** Path parameters, one key per {name} in the path. */
  path?: z.ZodObject;
  /** Query parameters. */
  query?: z.ZodObject;
  /** The JSON request body, as the route parses it. */
  body?: z.ZodType;
  /** Default true; false for a body that may be empty. */
  bodyRequired?: boolean;
  responses: Record<number, ResponseSpec>;
}

export interface ApiArea {
  /** The OpenAPI tag of the area's endpoints. */
  tag: string;
  description?: string;
  paths: Record<string, Partial<Record<HttpMethod, Endpoint>>>;
  /** Schemas worth a name: components/schemas/<Name>. */
  schemas?: Record<string, z.ZodType>;
}

/** Typed identity: an area module is `export default defineArea({...})`. */
export const defineArea = (area: ApiArea): ApiArea => area;

// ---- shared pieces

/** The API's one error shape. */
export const ApiErrorBody = z.object({
  detail: z.string(),
  errors: z
    .record(z.string(), z.string())
    .optional()
    .describe("Per-field messages, when a body failed validation, keyed by the field's path (e.g. actions.0.amount)"),
});

export const ok = (description: string, body?: z.ZodType): ResponseSpec => ({ description, body });
export const errorResponse = (description: string): ResponseSpec => ({ description, body: ApiErrorBody });

export const UNAUTHORIZED = errorResponse("Missing, expired or revoked bearer token");
export const FORBIDDEN_TO_TOKEN = errorResponse(
  "A personal access token without the scope this endpoint needs, or one where only a person's session token is accepted",
);
export const NOT_JSON = errorResponse("Body is not JSON");
export const TOO_MANY = { ...errorResponse("Too many attempts; see Retry-After"), headers: { "Retry-After": "Seconds to wait" } };
export const TOKEN_TOO_MANY = {
  ...errorResponse(
    "Too many requests with this personal access token (ACCESS_TOKEN_RATE_LIMIT a minute) or, where documented, too many attempts; see Retry-After",
  ),
  headers: { "Retry-After": "Seconds to wait" },
};

export const CustomerIdParams = z.object({
  customerId: z
    .string()
    .regex(/^\d{10}$/)
    .describe("Google Ads customer id, 10 digits without dashes"),
});

/** ISO timestamps as the server writes them (toISOString). */
export const Timestamp = z.string().describe("ISO 8601 date-time, UTC").meta({ format: "date-time" });
export const NullableTimestamp = Timestamp.nullable();

/**
 * Compile-time check that a service's return type has exactly the documented
 * fields: `export type X = SameFields<ServiceType, z.output<typeof Schema>>;`
 * fails typecheck when a field is added to or dropped from one side only.
 */
export type SameFields<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never]
  ? true
  : { missing: Exclude<keyof A, keyof B>; extra: Exclude<keyof B, keyof A> };
export type Assert<T extends true> = T;
