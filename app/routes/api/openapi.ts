import { getConfig } from "~/server/env.server";
import { openApiDocument } from "~/server/openapi.server";

/** The OpenAPI 3.1 description of /api/v1 (public: it holds no data). */
export function loader() {
  return Response.json(openApiDocument(getConfig().APP_URL), { headers: { "Cache-Control": "public, max-age=300" } });
}
