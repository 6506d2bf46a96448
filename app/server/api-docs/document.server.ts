import { z } from "zod";
import adCopy from "./ad-copy.server";
import auth from "./auth.server";
import changeSets from "./change-sets.server";
import chat from "./chat.server";
import drafts from "./drafts.server";
import recommendations from "./recommendations.server";
import history from "./history.server";
import impact from "./impact.server";
import meta from "./meta.server";
import { defaultTokenScope } from "../http/api-route.server";
import { ApiErrorBody, FORBIDDEN_TO_TOKEN, TOKEN_TOO_MANY, UNAUTHORIZED, type ApiArea, type Endpoint, type HttpMethod } from "./registry.server";
import reports from "./reports.server";
import agency from "./agency.server";

// The OpenAPI 3.1 document of /api/v1, served at /api/v1/openapi.json and
// generated from the areas' zod schemas (z.toJSONSchema, JSON Schema
// 2020-12 as OpenAPI 3.1 uses). How to add an endpoint: registry.server.ts.

/** Every area of the API, in the document's order. A new area is one more module here. */
export const AREAS: ApiArea[] = [auth, reports, agency, changeSets, impact, drafts, recommendations, adCopy, history, chat, meta];

type JsonSchema = Record<string, unknown>;
type Side = "input" | "output";

const COMPONENT = "#/components/schemas/";
const INLINE = "__inline_";

/**
 * Turns the zod schemas into JSON Schemas in one pass per side (requests are
 * described as accepted, "input"; responses as sent, "output"): named schemas
 * become components referred to by $ref, the rest are inlined where used.
 */
class SchemaSet {
  private readonly named = new Map<z.ZodType, string>();
  private readonly inline = { input: new Map<z.ZodType, string>(), output: new Map<z.ZodType, string>() };
  /** Which side(s) use a named schema directly (an endpoint's body or response). */
  private readonly sideOf = new Map<string, Set<Side>>();
  private count = 0;

  name(name: string, schema: z.ZodType) {
    const existing = this.named.get(schema);
    if (existing && existing !== name) throw new Error(`One schema, two names: ${existing} and ${name}`);
    if ([...this.named.values()].includes(name) && existing !== name) throw new Error(`Two schemas named ${name}`);
    this.named.set(schema, name);
  }

  /** A placeholder now ({ $ref }), filled in by resolve(). */
  use(schema: z.ZodType, side: Side): JsonSchema {
    const name = this.named.get(schema);
    if (name) {
      this.sideOf.set(name, new Set([...(this.sideOf.get(name) ?? []), side]));
      return { $ref: COMPONENT + name };
    }
    let id = this.inline[side].get(schema);
    if (!id) this.inline[side].set(schema, (id = `${INLINE}${side}_${this.count++}`));
    return { $ref: COMPONENT + id };
  }

  /** Generates every schema; returns the components and a function that swaps an inline placeholder for its schema. */
  resolve(): { components: Record<string, JsonSchema>; inlineOf: (ref: string) => JsonSchema | undefined } {
    const generated: Record<Side, Record<string, JsonSchema>> = { input: {}, output: {} };
    for (const side of ["input", "output"] as const) {
      const registry = z.registry<{ id: string }>();
      for (const [schema, id] of this.named) registry.add(schema, { id });
      for (const [schema, id] of this.inline[side]) registry.add(schema, { id });
      const { schemas } = z.toJSONSchema(registry, { uri: (id) => COMPONENT + id, io: side, unrepresentable: "any" });
      for (const [id, schema] of Object.entries(schemas)) {
        const { $schema: _schema, $id: _id, ...rest } = schema as JsonSchema;
        generated[side][id] = rest;
      }
    }
    // A named schema used by requests only is described as accepted, otherwise as sent.
    const components: Record<string, JsonSchema> = {};
    const used = this.referencedNames(generated);
    for (const name of this.named.values()) {
      const sides = used.get(name) ?? new Set<Side>(["output"]);
      const side: Side = sides.has("output") ? "output" : "input";
      if (sides.size === 2 && JSON.stringify(generated.input[name]) !== JSON.stringify(generated.output[name])) {
        throw new Error(`${name} differs between requests and responses (a transform or default?): give each side its own schema`);
      }
      components[name] = generated[side][name];
    }
    const inlineOf = (ref: string) => {
      const id = ref.slice(COMPONENT.length);
      if (!id.startsWith(INLINE)) return undefined;
      return generated[id.startsWith(`${INLINE}input`) ? "input" : "output"][id];
    };
    return { components, inlineOf };
  }

  /** Which side(s) each named schema is reached from, following $refs between components. */
  private referencedNames(generated: Record<Side, Record<string, JsonSchema>>): Map<string, Set<Side>> {
    const out = new Map<string, Set<Side>>();
    for (const side of ["input", "output"] as const) {
      const seen = new Set<string>();
      const visit = (node: unknown) => {
        if (Array.isArray(node)) return node.forEach(visit);
        if (!node || typeof node !== "object") return;
        const ref = (node as JsonSchema).$ref;
        if (typeof ref === "string" && ref.startsWith(COMPONENT)) {
          const name = ref.slice(COMPONENT.length);
          if (!seen.has(name)) {
            seen.add(name);
            visit(generated[side][name]);
          }
        }
        Object.values(node).forEach(visit);
      };
      for (const [id, schema] of Object.entries(generated[side])) if (id.startsWith(`${INLINE}${side}`)) visit(schema);
      for (const [name, sides] of this.sideOf) if (sides.has(side)) visit({ $ref: COMPONENT + name });
      for (const name of seen) if (!name.startsWith(INLINE)) out.set(name, new Set([...(out.get(name) ?? []), side]));
    }
    return out;
  }
}

function parameters(set: SchemaSet, where: "path" | "query", schema: z.ZodObject | undefined) {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, property]) => ({
    name,
    in: where,
    required: where === "path" || !(property as z.ZodType).safeParse(undefined).success,
    schema: set.use(property as z.ZodType, "input"),
  }));
}

/** The scope a personal access token needs for this endpoint, null: a session token only (the default as apiRoute's). */
export function tokenScopeOf(method: HttpMethod, endpoint: Endpoint): "read" | "propose" | null {
  return endpoint.tokenScope === undefined ? defaultTokenScope(method) : endpoint.tokenScope;
}

/** A session's token always; a personal access token with its scope where the endpoint takes one. */
function security(method: HttpMethod, endpoint: Endpoint) {
  if (endpoint.auth === false) return [];
  const scope = tokenScopeOf(method, endpoint);
  return scope ? [{ bearerAuth: [] }, { personalAccessToken: [scope] }] : [{ bearerAuth: [] }];
}

function operation(set: SchemaSet, area: ApiArea, method: HttpMethod, endpoint: Endpoint) {
  const responses: Record<string, unknown> = {};
  const tokenErrors = tokenScopeOf(method, endpoint) ? { 403: FORBIDDEN_TO_TOKEN, 429: TOKEN_TOO_MANY } : { 403: FORBIDDEN_TO_TOKEN };
  const all = endpoint.auth === false ? endpoint.responses : { 401: UNAUTHORIZED, ...tokenErrors, ...endpoint.responses };
  for (const [status, spec] of Object.entries(all).sort(([a], [b]) => Number(a) - Number(b))) {
    responses[status] = {
      description: spec.description,
      ...(spec.headers
        ? { headers: Object.fromEntries(Object.entries(spec.headers).map(([h, description]) => [h, { description, schema: { type: "string" } }])) }
        : {}),
      ...(spec.body ? { content: { "application/json": { schema: set.use(spec.body, "output") } } } : {}),
    };
  }
  const params = [...parameters(set, "path", endpoint.path), ...parameters(set, "query", endpoint.query)];
  return {
    tags: endpoint.tags ?? [area.tag],
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    security: security(method, endpoint),
    ...(params.length ? { parameters: params } : {}),
    ...(endpoint.body
      ? { requestBody: { required: endpoint.bodyRequired !== false, content: { "application/json": { schema: set.use(endpoint.body, "input") } } } }
      : {}),
    responses,
  };
}

/** Replaces inline placeholders with their schemas, everywhere in the tree. */
function inlined<T>(node: T, inlineOf: (ref: string) => JsonSchema | undefined): T {
  if (Array.isArray(node)) return node.map((n) => inlined(n, inlineOf)) as T;
  if (!node || typeof node !== "object") return node;
  const ref = (node as JsonSchema).$ref;
  if (typeof ref === "string") {
    const schema = inlineOf(ref);
    if (schema) return inlined(schema, inlineOf) as T;
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inlined(v, inlineOf)])) as T;
}

export function openApiDocument(serverUrl: string, areas: ApiArea[] = AREAS) {
  const set = new SchemaSet();
  set.name("Error", ApiErrorBody);
  for (const area of areas) for (const [name, schema] of Object.entries(area.schemas ?? {})) set.name(name, schema);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const area of areas) {
    for (const [path, methods] of Object.entries(area.paths)) {
      if (paths[path]) throw new Error(`${path} is described twice`);
      paths[path] = {};
      for (const [method, endpoint] of Object.entries(methods) as Array<[HttpMethod, Endpoint]>) paths[path][method] = operation(set, area, method, endpoint);
    }
  }
  const { components, inlineOf } = set.resolve();
  const tags = [...new Set(Object.values(paths).flatMap((methods) => Object.values(methods).flatMap((op) => (op as { tags: string[] }).tags)))];
  return {
    openapi: "3.1.0",
    info: {
      title: "Ads AI Manager API",
      version: "1.0.0",
      description:
        'JSON API of Ads AI Manager. Sign in with POST /auth/login (or the Google flow) to get an access_token, then send it as `Authorization: Bearer <access_token>`. A script or agent can instead use a personal access token (created in Settings → Access tokens, `aam_pat_…`) where an endpoint lists `personalAccessToken` with the scope it needs (`read` or `propose`); applying, discarding and reverting change sets stay with a signed-in person. Errors share one shape: `{ "detail": string, "errors"?: { field: message } }`. Money is in micros (1,000,000 per unit of the account\'s currency), except in change actions (amount, cpc), which take units (12.5 = 12.50).',
    },
    servers: [{ url: `${serverUrl.replace(/\/$/, "")}/api/v1` }],
    security: [{ bearerAuth: [] }],
    tags: tags.map((name) => ({ name })),
    paths: inlined(paths, inlineOf),
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "The access_token from /auth/login or the Google sign-in" },
        personalAccessToken: {
          type: "http",
          scheme: "bearer",
          description:
            "A personal access token (aam_pat_…) from Settings → Access tokens; the scopes listed per endpoint are the ones the token needs: read (look) or propose (draft change sets; never apply)",
        },
      },
      schemas: inlined(components, inlineOf),
    },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
