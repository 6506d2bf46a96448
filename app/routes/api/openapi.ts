import { openApiDocument } from "~/server/api-docs/document.server";
import { getConfig } from "~/server/env.server";

/** The OpenAPI 3.1 description of /api/v1 (public: it holds no data), generated from the routes' zod schemas. */
export function loader() {
  return Response.json(openApiDocument(getConfig().APP_URL), { headers: { "Cache-Control": "public, max-age=300" } });
}
