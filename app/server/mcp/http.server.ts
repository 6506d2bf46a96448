import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getConfig } from "../env.server";
import { requireAccessToken } from "../http/api-auth.server";
import { HttpError } from "../http/errors.server";
import { errorMessage, log } from "../log.server";
import { mcpServerFor } from "./server.server";

/**
 * POST /mcp: MCP's Streamable HTTP transport, stateless (no session to keep:
 * a new server and transport per request, answered as one JSON body), so two
 * instances on one database answer alike and nothing is held between
 * requests. Only a personal access token gets in (never a session's token, nor
 * a cookie: a browser's cross-site POST is refused before this by server.ts).
 * Each request counts against the token's rate limit. GET (a server-sent
 * stream) and DELETE (ending a session) are 405: there is no session.
 */

const NO_STORE = { "Cache-Control": "no-store" };

/** A refusal in JSON-RPC's shape, with the HTTP status and headers (WWW-Authenticate, Retry-After, Allow) that say why. */
function httpFailure(status: number, message: string, headers: Record<string, string> = {}) {
  // -32001: the transport's own code for a request that is not processed (authentication, limits).
  return Response.json({ jsonrpc: "2.0", error: { code: -32001, message }, id: null }, { status, headers: { ...NO_STORE, ...headers } });
}

export async function handleMcpRequest(request: Request): Promise<Response> {
  if (request.method !== "POST") return httpFailure(405, "Method not allowed: this MCP server is stateless; POST JSON-RPC messages to /mcp", { Allow: "POST" });
  let caller;
  try {
    caller = await requireAccessToken(request, "mcp");
  } catch (error) {
    if (error instanceof HttpError) return httpFailure(error.status, error.detail, error.headers);
    throw error;
  }
  const server = mcpServerFor(caller);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: getConfig().MAX_BODY_BYTES,
  });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    response.headers.set("Cache-Control", "no-store");
    return response;
  } finally {
    // The answer is complete (JSON mode): nothing of this request's server is needed any more.
    await server.close().catch((error: unknown) => log.warn(`Closing an MCP request's server: ${errorMessage(error)}`));
  }
}
