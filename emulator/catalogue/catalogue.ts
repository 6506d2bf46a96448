// Runtime access to the committed, discovery-derived field catalogue.
// Imported (not read from disk) so the bundled server build carries it; tsx,
// vitest and esbuild all inline JSON imports.
import rawCatalogue from "./v24-catalogue.json";

export type JsonType = "string" | "int64" | "int32" | "double" | "float" | "boolean" | "enum" | "bytes" | "fieldMask" | "duration" | "message";

export interface CatalogueField {
  /** Full lowerCamelCase JSON path inside GoogleAdsRow, e.g. "campaign.targetCpa.targetCpaMicros". */
  json: string;
  type: JsonType;
  repeated?: true;
  /** Key into Catalogue.enums. */
  enum?: string;
  /** Key into Catalogue.messages, for MESSAGE-typed fields. */
  message?: string;
  readOnly?: true;
}

export interface CatalogueMessageField {
  type: JsonType;
  repeated?: true;
  enum?: string;
  message?: string;
}

export interface Catalogue {
  version: string;
  discoveryRevision: string;
  attribution: string;
  /** Every resource a GoogleAdsRow can carry (snake_case), so "unknown" and "not emulated" differ. */
  allRowResources: string[];
  resources: Record<string, { schema: string; fields: Record<string, CatalogueField> }>;
  messages: Record<string, Record<string, CatalogueMessageField>>;
  enums: Record<string, string[]>;
}

export interface ResolvedField extends CatalogueField {
  /** snake_case GAQL name, e.g. "campaign.target_cpa.target_cpa_micros". */
  name: string;
  /** First path segment: the GAQL resource ("campaign", "metrics", "segments", ...). */
  resource: string;
  enumValues?: readonly string[];
}

let cached: Catalogue | undefined;
const resolvedCache = new Map<string, ResolvedField | null>();

export function loadCatalogue(): Catalogue {
  if (!cached) {
    cached = rawCatalogue as unknown as Catalogue;
  }
  return cached;
}

/** Looks a snake_case GAQL field up in the catalogue; undefined when unknown. */
export function resolveField(name: string): ResolvedField | undefined {
  const hit = resolvedCache.get(name);
  if (hit !== undefined) return hit ?? undefined;
  const cat = loadCatalogue();
  const dot = name.indexOf(".");
  const resource = dot < 0 ? name : name.slice(0, dot);
  const f = cat.resources[resource]?.fields[name];
  const resolved: ResolvedField | null = f ? { ...f, name, resource, ...(f.enum ? { enumValues: cat.enums[f.enum] } : {}) } : null;
  resolvedCache.set(name, resolved);
  return resolved ?? undefined;
}
