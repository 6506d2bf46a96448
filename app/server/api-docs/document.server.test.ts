// @vitest-environment node
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MAX_CHANGE_ITEMS } from "~/lib/change-actions";
import { apiContract } from "../../../tests/support/api-contract";
import { openApiDocument } from "./document.server";
import { defineArea, ok } from "./registry.server";

const doc = openApiDocument("http://localhost:3000/");
type Schema = Record<string, unknown>;
const components = doc.components.schemas as Record<string, Schema>;
const post = (url: string) => ({ method: "POST", url: `http://localhost:3000/api/v1${url}` });

function refsIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsIn);
  if (!node || typeof node !== "object") return [];
  const ref = (node as Schema).$ref;
  return [...(typeof ref === "string" ? [ref] : []), ...Object.values(node).flatMap(refsIn)];
}

describe("the generated OpenAPI document", () => {
  it("is OpenAPI 3.1 whose every $ref resolves to a component", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "http://localhost:3000/api/v1" }]);
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) expect(Object.keys(components), ref).toContain(ref.replace("#/components/schemas/", ""));
    expect(JSON.stringify(doc)).not.toContain("__inline_");
    expect(JSON.stringify(doc)).not.toContain('"$schema"');
  });

  it("states what the server does: login takes any password length, register 8+, tokens expire", () => {
    const login = components.LoginCredentials.properties as Record<string, Schema>;
    const register = components.RegisterCredentials.properties as Record<string, Schema>;
    expect(login.password.minLength).toBe(1);
    expect(register.password.minLength).toBe(8);
    expect(components.Token.required).toEqual(["access_token", "token_type", "expires_at"]);
    expect((components.Token.properties as Record<string, Schema>).expires_at).toMatchObject({ type: "string", format: "date-time" });
  });

  it("takes the item limit from the one constant", () => {
    // Every list of an action is capped by it (the RSA's 15 headlines and 4 descriptions are Google's own limits). Six lists: status ids, bid items, keywords, negatives, removed keywords, removed negatives.
    const limits = [...JSON.stringify(components.Action).matchAll(/"maxItems":(\d+)/g)].map((m) => Number(m[1])).filter((n) => n > 15);
    expect(limits).toHaveLength(6);
    expect(new Set(limits)).toEqual(new Set([MAX_CHANGE_ITEMS]));
    expect((components.ProposeChangeSet.properties as Record<string, Schema>).actions.maxItems).toBe(MAX_CHANGE_ITEMS);
  });

  it("adds the 401 to endpoints behind the bearer token, not to public ones", () => {
    expect(doc.paths["/auth/me"].get).toHaveProperty(["responses", "401"]);
    expect(doc.paths["/auth/login"].post).not.toHaveProperty(["responses", "401", "description"], "Missing, expired or revoked bearer token");
    expect(doc.paths["/auth/login"].post).toHaveProperty("security", []);
  });

  it("registers a new area's endpoint with one entry, named schemas as components", () => {
    const Widget = z.object({ id: z.string(), size: z.int().min(1) });
    const widgets = defineArea({
      tag: "widgets",
      schemas: { Widget },
      paths: {
        "/widgets/{id}": {
          post: {
            summary: "Resize",
            path: z.object({ id: z.string() }),
            body: z.object({ size: z.int().min(1).default(1) }),
            responses: { 200: ok("Resized", z.object({ widget: Widget })) },
          },
        },
      },
    });
    const extended = openApiDocument("http://x", [widgets]);
    expect(extended.components.schemas).toHaveProperty("Widget");
    const op = extended.paths["/widgets/{id}"].post as Record<string, unknown>;
    expect(op).toMatchObject({
      tags: ["widgets"],
      parameters: [{ name: "id", in: "path", required: true }],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", properties: { size: { default: 1 } } } } } },
      responses: { 401: { description: "Missing, expired or revoked bearer token" } },
    });
    const contract = apiContract(extended);
    expect(() => contract.check(post("/widgets/7"), 200, { widget: { id: "7", size: 2 } })).not.toThrow();
    expect(() => contract.check(post("/widgets/7"), 200, { widget: { id: "7" } })).toThrow(/size/);
    expect(() => contract.check(post("/widgets/7"), 500, { detail: "x" })).toThrow(/not documented/);
  });
});

describe("checking a response against the document", () => {
  const contract = apiContract(doc);

  it("accepts a documented body and rejects a wrong or extra field", () => {
    const token = { access_token: "abc", token_type: "bearer", expires_at: "2026-01-01T00:00:00.000Z" };
    expect(() => contract.check(post("/auth/login"), 200, token)).not.toThrow();
    expect(() => contract.check(post("/auth/login"), 200, { ...token, expires_at: "soon" })).toThrow(/expires_at/);
    expect(() => contract.check(post("/auth/login"), 200, { ...token, extra: 1 })).toThrow(/additional/);
    expect(() => contract.check(post("/auth/login"), 401, { detail: "Invalid email or password" })).not.toThrow();
    expect(() => contract.check(post("/auth/login"), 401, { message: "no" })).toThrow(/detail/);
  });

  it("maps concrete paths to their templates and knows bodiless answers", () => {
    expect(contract.templateOf("/change-sets/0f8fad5b-d9cb-469f-a165-70867728950e/apply")).toBe("/change-sets/{changeSetId}/apply");
    expect(() => contract.check(post("/auth/logout"), 204, null)).not.toThrow();
    expect(() => contract.check(post("/auth/logout"), 204, { detail: "x" })).toThrow(/without a body/);
    expect(() => contract.check({ method: "GET", url: "http://h/api/v1/nope" }, 404, { detail: "Not found" })).not.toThrow();
  });
});
