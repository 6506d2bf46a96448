import { data } from "react-router";
import type { SessionContext } from "../auth/session.server";
import { requireApiSession } from "./api-auth.server";
import { apiError, HttpError } from "./errors.server";

// The one edge of every /api/v1 route: method check, bearer session, the
// result as JSON with its status, and every expected failure (domain errors,
// Google unreachable, HttpError) mapped to { detail, errors? } by apiError.
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
  method?: "POST";
  /** The Allow header of that 405, when the path also serves GET (default: the method). */
  allow?: string;
  /** The success status (default 200). */
  status?: number;
  /** Headers of every answer, errors included (default: never cached). */
  headers?: Record<string, string>;
}

/** A bearer-authenticated JSON endpoint; the handler returns the body. */
export function apiRoute<A extends RouteArgs, T>(options: ApiRouteOptions, handler: (args: A, session: SessionContext) => Promise<T>) {
  const headers = options.headers ?? NO_STORE;
  return async (args: A) => {
    try {
      if (options.method && args.request.method !== options.method) {
        throw new HttpError(405, "Method not allowed", undefined, { Allow: options.allow ?? options.method });
      }
      const session = await requireApiSession(args.request);
      return data(await handler(args, session), { status: options.status ?? 200, headers });
    } catch (error) {
      return apiError(error, headers);
    }
  };
}

/** The answer of a POST-only path to GET. */
export function postOnly() {
  return data({ detail: "Method not allowed" }, { status: 405, headers: { Allow: "POST", ...NO_STORE } });
}
