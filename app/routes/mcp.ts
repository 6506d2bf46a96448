import { handleMcpRequest } from "~/server/mcp/http.server";
import type { Route } from "./+types/mcp";

/** The MCP server for people's own agents (Streamable HTTP, personal access tokens only): app/server/mcp/. */
export const loader = ({ request }: Route.LoaderArgs) => handleMcpRequest(request);
export const action = ({ request }: Route.ActionArgs) => handleMcpRequest(request);
