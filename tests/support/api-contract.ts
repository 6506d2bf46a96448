// Checks an API response against the generated OpenAPI document: the status
// must be documented for that path and method, and the JSON body must match
// the documented schema (JSON Schema 2020-12, by ajv). The API tests call it
// on every response they read, so the document cannot drift from the routes.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> };

const DOC_ID = "https://ads-ai-manager.local/openapi.json";

export function apiContract(doc: unknown) {
  const document = doc as Doc;
  // strict off: the document is an OpenAPI object, not a schema, around the schemas.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...(doc as object), $id: DOC_ID });
  const compiled = new Map<string, ValidateFunction>();
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^/]+")}$`),
  }));

  /** The documented path for a concrete one: "/change-sets/abc" → "/change-sets/{changeSetId}". */
  function templateOf(path: string): string | undefined {
    return templates.find((t) => t.pattern.test(path) && !t.template.includes("{"))?.template ?? templates.find((t) => t.pattern.test(path))?.template;
  }

  /** Throws, naming every mismatch, unless the response is what the document says. */
  function check(request: { method: string; url: string }, status: number, body: unknown): void {
    const path = new URL(request.url).pathname.replace(/^\/api\/v1/, "");
    const method = request.method.toLowerCase();
    const where = `${request.method} ${path} → ${status}`;
    const template = templateOf(path);
    if (!template) {
      // The catch-all: an unknown path is a plain 404 in the error shape.
      if (status !== 404) throw new Error(`${where}: path not in the OpenAPI document`);
      return checkSchema(where, "#/components/schemas/Error", body);
    }
    const operation = document.paths[template][method];
    if (!operation) {
      // A method the path doesn't serve is a 405 in the error shape.
      if (status !== 405) throw new Error(`${where}: ${method} not documented for ${template}`);
      return checkSchema(where, "#/components/schemas/Error", body);
    }
    const response = operation.responses[String(status)];
    if (!response)
      throw new Error(`${where}: status ${status} not documented for ${method} ${template} (documented: ${Object.keys(operation.responses).join(", ")})`);
    if (!response.content) {
      if (body !== null && body !== undefined && body !== "") throw new Error(`${where}: documented without a body, got ${JSON.stringify(body).slice(0, 200)}`);
      return;
    }
    const pointer = `#/paths/${template.replace(/~/g, "~0").replace(/\//g, "~1")}/${method}/responses/${status}/content/application~1json/schema`;
    checkSchema(where, pointer, body);
  }

  function checkSchema(where: string, pointer: string, body: unknown) {
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOC_ID}${pointer}` });
      compiled.set(pointer, validate);
    }
    if (!validate(body)) {
      const errors = (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || "(body)"} ${e.message} ${JSON.stringify(e.params)}`);
      throw new Error(`${where}: body does not match the OpenAPI document:\n  ${errors.join("\n  ")}\nbody: ${JSON.stringify(body).slice(0, 500)}`);
    }
  }

  return { check, templateOf };
}
