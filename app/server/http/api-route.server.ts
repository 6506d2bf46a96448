import { data } from "react-router";
import type { TokenScope } from "../auth/access-tokens.server";
import { requireApiCaller, type ApiCaller } from "./api-auth.server";
import { apiError, HttpError } from "./errors.server";

// The one edge of every /api/v1 route: method check, bearer token (a session's,
// or a personal access token with the scope the route names), the result as
// JSON with its status, and every expected failure (domain errors, Google
// unreachable, HttpError) mapped to { detail, errors? } by apiError.
// A route module is then one line per method:
//
//   export const loader = postOnly;
//   export const action = apiRoute({ method: "POST", status: 201 }, ({ params, request }, { user }) =>
//     proposeForApi(user.id, params.customerId, request));

export const NO_STORE = { "Cache-Control": "no-store" };

interface RouteArgs {
  request: Request;
  params: Record<string, string | undefined>;
}

export interface ApiRouteOptions {
  /** Only this method; any other is a 405 with Allow. */
  method?: "POST" | "PUT";
  /** The Allow header of that 405, when the path also serves GET (default: the method). */
  allow?: string;
  /** The success status (default 200). */
  status?: number;
  /** Headers of every answer, errors included (default: never cached). */
  headers?: Record<string, string>;
  /**
   * The scope a personal access token needs here; null: a person's session
   * only. Default: `read` for reads, null for a POST (what changes anything is
   * closed to tokens unless the route opens it). The API document states the
   * same per endpoint (api-docs, `tokenScope`); a test holds the two together.
   */
  tokenScope?: TokenScope | null;
}

/** The scope a route's handler lets personal access tokens in with (read by the test that compares it with the document). */
export const TOKEN_SCOPE = Symbol("tokenScope");

export const defaultTokenScope = (method: string | undefined): TokenScope | null => (method && method.toUpperCase() !== "GET" ? null : "read");

/** A bearer-authenticated JSON endpoint; the handler returns the body. */
export function apiRoute<A extends RouteArgs, T>(options: ApiRouteOptions, handler: (args: A, caller: ApiCaller) => Promise<T>) {
  const headers = options.headers ?? NO_STORE;
  const scope = options.tokenScope === undefined ? defaultTokenScope(options.method) : options.tokenScope;
  const route = async (args: A) => {
    try {
      if (options.method && args.request.method !== options.method) {
        throw new HttpError(405, "Method not allowed", undefined, { Allow: options.allow ?? options.method });
      }
      const caller = await requireApiCaller(args.request, scope);
      return data(await handler(args, caller), { status: options.status ?? 200, headers });
    } catch (error) {
      return apiError(error, headers);
    }
  };
  return Object.assign(route, { [TOKEN_SCOPE]: scope });
}

/** The answer of a POST-only path to GET. */
export function postOnly() {
  return data({ detail: "Method not allowed" }, { status: 405, headers: { Allow: "POST", ...NO_STORE } });
}
