// Derives the trimmed GAQL field catalogue the emulator validates queries and
// response shapes against, from Google's own REST discovery document (v24).
// Run: npx tsx emulator/catalogue/build-catalogue.ts [path/to/v24-discovery.json]
// The output is committed so tests never need ../shared (see README.md here).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Catalogue, CatalogueField, CatalogueMessageField, JsonType } from "./catalogue";
import { VIEW_RESOURCES } from "../ads/gaql/views";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "../..");
export const DEFAULT_DISCOVERY_PATH = resolve(repoRoot, "../shared/google-ads-api/v24-discovery.json");
export const CATALOGUE_PATH = resolve(here, "v24-catalogue.json");

/** GAQL resources (FROM / attributed) the product reads, plus the two pseudo-resources. */
const CATALOGUE_RESOURCES = [...VIEW_RESOURCES, "metrics", "segments"] as const;

interface DiscoveryProp {
  type?: string;
  format?: string;
  $ref?: string;
  enum?: string[];
  items?: DiscoveryProp;
  readOnly?: boolean;
}
interface DiscoverySchema {
  id: string;
  properties?: Record<string, DiscoveryProp>;
}
interface Discovery {
  revision: string;
  version: string;
  schemas: Record<string, DiscoverySchema>;
}

const snake = (camel: string): string => camel.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
const shortName = (ref: string): string => ref.replace(/^GoogleAdsGoogleadsV\d+(Resources|Common|Enums|Services|Errors)_+/, "");

// Message-typed fields Google exposes in GAQL as one opaque MESSAGE field instead
// of expanding them (ChangedResource embeds whole resources: expanding would add
// thousands of paths nobody can select).
const OPAQUE_MESSAGES = new Set(["ChangeEvent_ChangedResource"]);
// Ad asset wrappers (AdTextAsset, AdImageAsset, …) are MESSAGE-typed GAQL fields
// too (e.g. ad_group_ad.ad.responsive_display_ad.long_headline), never expanded.
const isOpaque = (shortRef: string) => OPAQUE_MESSAGES.has(shortRef) || /^Ad\w*Asset$/.test(shortRef);
const MAX_DEPTH = 6;

/** Builds the trimmed catalogue from a discovery document (pure: no files written). */
export function buildCatalogue(discoveryPath: string): Catalogue {
  const doc = JSON.parse(readFileSync(discoveryPath, "utf8")) as Discovery;
  const schemas = doc.schemas;
  const rowName = Object.keys(schemas).find((n) => /Services__GoogleAdsRow$/.test(n));
  if (!rowName) throw new Error("GoogleAdsRow schema not found in discovery document");
  const row = schemas[rowName];

  const enums: Record<string, string[]> = {};
  const enumKeyByValues = new Map<string, string>();
  const internEnum = (path: string, values: string[]): string => {
    const sig = values.join("|");
    const existing = enumKeyByValues.get(sig);
    if (existing) return existing;
    enums[path] = values;
    enumKeyByValues.set(sig, path);
    return path;
  };

  const messages: Record<string, Record<string, CatalogueMessageField>> = {};
  const scalarType = (p: DiscoveryProp): JsonType => {
    if (p.enum) return "enum";
    switch (p.type) {
      case "boolean":
        return "boolean";
      case "integer":
        return "int32";
      case "number":
        return p.format === "float" ? "float" : "double";
      case "string":
        if (p.format === "int64" || p.format === "uint64") return "int64";
        if (p.format === "byte") return "bytes";
        if (p.format === "google-fieldmask") return "fieldMask";
        if (p.format === "google-duration") return "duration";
        return "string";
      default:
        return "message";
    }
  };

  // Flattened description of a message used as a MESSAGE-typed GAQL field
  // (e.g. AdTextAsset inside responsive_search_ad.headlines), so response
  // values nested inside it can be type-checked too.
  const describeMessage = (ref: string, depth = 0): string => {
    const name = shortName(ref);
    if (messages[name] || OPAQUE_MESSAGES.has(name)) return name;
    const schema = schemas[ref];
    const out: Record<string, CatalogueMessageField> = {};
    messages[name] = out;
    for (const [prop, p] of Object.entries(schema.properties ?? {})) {
      const isArray = p.type === "array" && p.items;
      const target = isArray ? (p.items as DiscoveryProp) : p;
      const f: CatalogueMessageField = { type: target.$ref ? "message" : scalarType(target) };
      if (isArray) f.repeated = true;
      if (target.enum) f.enum = internEnum(`${name}.${prop}`, target.enum);
      if (target.$ref && depth < 3) f.message = describeMessage(target.$ref, depth + 1);
      else if (target.$ref) f.message = shortName(target.$ref);
      out[prop] = f;
    }
    return name;
  };

  const resources: Catalogue["resources"] = {};
  for (const resource of CATALOGUE_RESOURCES) {
    const camel = resource.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    const prop = row.properties?.[camel];
    if (!prop?.$ref) throw new Error(`GoogleAdsRow has no ${camel}`);
    const fields: Record<string, CatalogueField> = {};
    const walk = (ref: string, gaqlPrefix: string, jsonPrefix: string, depth: number, seen: Set<string>): void => {
      const schema = schemas[ref];
      for (const [name, p] of Object.entries(schema.properties ?? {})) {
        const gaql = `${gaqlPrefix}.${snake(name)}`;
        const json = `${jsonPrefix}.${name}`;
        if (p.type === "array" && p.items) {
          const it = p.items;
          const f: CatalogueField = { json, type: it.$ref ? "message" : scalarType(it), repeated: true };
          if (it.enum) f.enum = internEnum(gaql, it.enum);
          if (it.$ref) f.message = describeMessage(it.$ref);
          if (p.readOnly) f.readOnly = true;
          fields[gaql] = f;
        } else if (p.$ref) {
          const sub = shortName(p.$ref);
          if (isOpaque(sub) || depth >= MAX_DEPTH || seen.has(p.$ref)) {
            const message = OPAQUE_MESSAGES.has(sub) ? sub : describeMessage(p.$ref);
            fields[gaql] = { json, type: "message", message, ...(p.readOnly ? { readOnly: true as const } : {}) };
          } else {
            walk(p.$ref, gaql, json, depth + 1, new Set([...seen, p.$ref]));
          }
        } else {
          const f: CatalogueField = { json, type: scalarType(p) };
          if (p.enum) f.enum = internEnum(gaql, p.enum);
          if (p.readOnly) f.readOnly = true;
          fields[gaql] = f;
        }
      }
    };
    walk(prop.$ref, resource, camel, 0, new Set([prop.$ref]));
    const sorted: Record<string, CatalogueField> = {};
    for (const k of Object.keys(fields).sort()) sorted[k] = fields[k];
    resources[resource] = { schema: shortName(prop.$ref), fields: sorted };
  }

  const allRowResources = Object.keys(row.properties ?? {})
    .filter((k) => k !== "metrics" && k !== "segments")
    .map(snake)
    .sort();

  const catalogue: Catalogue = {
    version: doc.version,
    discoveryRevision: doc.revision,
    attribution:
      "Derived from the Google Ads API v24 REST discovery document (Google LLC), as stored in google/ads-api-report-fetcher " +
      "(js/src/lib/schemas/v24/api-schema.json), licensed under the Apache License 2.0. See README.md.",
    allRowResources,
    resources,
    messages,
    enums,
  };
  return catalogue;
}

export function serializeCatalogue(c: Catalogue): string {
  return JSON.stringify(c, null, 1) + "\n";
}

function main(): void {
  const input = resolve(process.argv[2] ?? DEFAULT_DISCOVERY_PATH);
  const catalogue = buildCatalogue(input);
  writeFileSync(CATALOGUE_PATH, serializeCatalogue(catalogue));
  const fieldCount = Object.values(catalogue.resources).reduce((n, r) => n + Object.keys(r.fields).length, 0);
  console.log(
    `wrote ${CATALOGUE_PATH}: ${Object.keys(catalogue.resources).length} resources, ${fieldCount} fields, ${Object.keys(catalogue.enums).length} enums`,
  );
}

// Run as a script (npx tsx emulator/catalogue/build-catalogue.ts [discovery.json]); importable for tests.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
