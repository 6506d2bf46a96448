// The API tests' check that every response they read is the one the OpenAPI
// document describes. Wrap a route's loader or action once, where it is
// imported: `const loader = documented(rawLoader);` — each call then checks
// its status and body against /api/v1/openapi.json as the app generates it.
import { openApiDocument } from "~/server/api-docs/document.server";
import { apiContract } from "./api-contract";

const contract = apiContract(openApiDocument("http://localhost:3000"));

/** What a loader/action returned, as a client reads it: status and JSON body (null when empty). */
export async function responseOf(result: unknown): Promise<{ status: number; body: unknown }> {
  if (result instanceof Response) {
    const text = await result.clone().text();
    return { status: result.status, body: text ? JSON.parse(text) : null };
  }
  const r = result as { data: unknown; init?: ResponseInit | null };
  return { status: r.init?.status ?? 200, body: r.data };
}

/** Throws unless the route's result is documented for this request. */
export async function checkDocumented(request: Request, result: unknown): Promise<void> {
  const { status, body } = await responseOf(result);
  contract.check(request, status, body);
}

export function documented<A extends { request: Request }, R>(handler: (args: A) => R | Promise<R>): (args: A) => Promise<R> {
  return async (args: A) => {
    const result = await handler(args);
    await checkDocumented(args.request, result);
    return result;
  };
}
