import { invalidJson } from "../http/google-errors";

/**
 * Request-body checks done by Google's front end (proto3 JSON mapping) before
 * the Ads backend runs: well-formed JSON, a root object, known field names in
 * lowerCamelCase or original snake_case, and scalar types.
 */

type FieldType = "string" | "bool" | "int32" | { message: Record<string, FieldSpec> } | { enum: string; values: string[] };

export interface FieldSpec {
  /** proto field name, as Google quotes it in errors. */
  proto: string;
  type: FieldType;
}

export function parseJsonObject(text: string | undefined, parsed: unknown): Record<string, unknown> {
  let value: unknown = parsed;
  if (parsed === undefined) {
    const trimmed = (text ?? "").trim();
    // An empty body is an empty message to the transcoder.
    if (trimmed === "") return {};
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw invalidJson(`Invalid JSON payload received. ${describeJsonError(error as Error, trimmed)}`);
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidJson("Invalid JSON payload received. Root element must be a message.");
  }
  return value as Record<string, unknown>;
}

function describeJsonError(error: Error, text: string): string {
  const pos = /position (\d+)/.exec(error.message);
  const at = pos ? Number(pos[1]) : text.length;
  const line = text.slice(Math.max(0, at - 20), at + 20).replace(/\s+/g, " ");
  return `Unexpected token.\n${line}\n${" ".repeat(Math.min(20, at))}^`;
}

/** Validates `body` against `spec` (keys are lowerCamelCase JSON names); returns values keyed by JSON name. */
export function checkMessage(body: Record<string, unknown>, spec: Record<string, FieldSpec>, path = ""): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const byAnyName = new Map<string, [string, FieldSpec]>();
  for (const [json, f] of Object.entries(spec)) {
    byAnyName.set(json, [json, f]);
    byAnyName.set(f.proto, [json, f]);
  }
  for (const [key, value] of Object.entries(body)) {
    const hit = byAnyName.get(key);
    if (!hit) {
      const where = path ? ` at '${path}'` : "";
      throw invalidJson(`Invalid JSON payload received. Unknown name "${key}"${where}: Cannot find field.`, path || undefined);
    }
    const [json, field] = hit;
    if (value === null) continue;
    const fieldPath = path ? `${path}.${field.proto}` : field.proto;
    out[json] = checkValue(value, field.type, fieldPath);
  }
  return out;
}

function checkValue(value: unknown, type: FieldType, fieldPath: string): unknown {
  const bad = (protoType: string) => invalidJson(`Invalid value at '${fieldPath}' (${protoType}), ${JSON.stringify(value)}`, fieldPath);
  if (type === "string") {
    if (typeof value !== "string") throw bad("TYPE_STRING");
    return value;
  }
  if (type === "bool") {
    if (typeof value === "boolean") return value;
    if (value === "true" || value === "false") return value === "true";
    throw bad("TYPE_BOOL");
  }
  if (type === "int32") {
    const n = typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value;
    if (typeof n !== "number" || !Number.isInteger(n) || n < -(2 ** 31) || n >= 2 ** 31) throw bad("TYPE_INT32");
    return n;
  }
  if ("enum" in type) {
    if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value < type.values.length) {
      return type.values[value];
    }
    if (typeof value !== "string" || !type.values.includes(value)) throw bad(type.enum);
    return value;
  }
  if (typeof value !== "object" || Array.isArray(value)) throw bad("TYPE_MESSAGE");
  return checkMessage(value as Record<string, unknown>, type.message, fieldPath);
}

export const SEARCH_SETTINGS: Record<string, FieldSpec> = {
  omitResults: { proto: "omit_results", type: "bool" },
  returnSummaryRow: { proto: "return_summary_row", type: "bool" },
  returnTotalResultsCount: { proto: "return_total_results_count", type: "bool" },
};

export const SEARCH_REQUEST: Record<string, FieldSpec> = {
  query: { proto: "query", type: "string" },
  pageToken: { proto: "page_token", type: "string" },
  pageSize: { proto: "page_size", type: "int32" },
  validateOnly: { proto: "validate_only", type: "bool" },
  searchSettings: { proto: "search_settings", type: { message: SEARCH_SETTINGS } },
  // Path parameter; the transcoder accepts it in the body too.
  customerId: { proto: "customer_id", type: "string" },
};

export function searchStreamRequest(version: string): Record<string, FieldSpec> {
  return {
    query: { proto: "query", type: "string" },
    summaryRowSetting: {
      proto: "summary_row_setting",
      type: {
        enum: `type.googleapis.com/google.ads.googleads.${version}.enums.SummaryRowSettingEnum.SummaryRowSetting`,
        values: ["UNSPECIFIED", "UNKNOWN", "NO_SUMMARY_ROW", "SUMMARY_ROW_WITH_RESULTS", "SUMMARY_ROW_ONLY"],
      },
    },
    customerId: { proto: "customer_id", type: "string" },
  };
}
