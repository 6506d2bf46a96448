import { randomUUID } from "node:crypto";
import { addHours, subHours } from "date-fns";
import { z } from "zod";
import { dateIn, zonedToUtc } from "~/lib/dates";
import { getDb } from "../db/db.server";
import type { ChangeResourceKind, HistoryImport } from "../db/schema";
import { fieldName } from "~/lib/change-fields";
import { gaqlString } from "../ads/gaql.server";
import { invalidInput, NotFoundError } from "../domain-errors.server";
import { isRevertable } from "./pipeline.server";
import { requireAdsContext } from "../ads/context.server";
import { nameFromFields, nameResources } from "./history-names.server";
import { appliedChangeWho } from "./origin.server";

export const HISTORY_PAGE_SIZE = 50;
/** change_event reports our own writes too, a little later than we record them. */
const SELF_ECHO_WINDOW_MS = 10 * 60_000;

const ORIGIN_LABEL: Record<string, string> = {
  GOOGLE_ADS_WEB_CLIENT: "Google Ads (web)",
  GOOGLE_ADS_AUTOMATED_RULE: "Google Ads automated rule",
  GOOGLE_ADS_SCRIPTS: "Google Ads script",
  GOOGLE_ADS_BULK_UPLOAD: "Google Ads bulk upload",
  GOOGLE_ADS_API: "Google Ads API (another tool)",
  GOOGLE_ADS_EDITOR: "Google Ads Editor",
  GOOGLE_ADS_MOBILE_APP: "Google Ads mobile app",
  GOOGLE_ADS_RECOMMENDATIONS: "Auto-applied recommendation",
  GOOGLE_ADS_RECOMMENDATIONS_SUBSCRIPTION: "Auto-applied recommendation",
  SEARCH_ADS_360_SYNC: "Search Ads 360",
  SEARCH_ADS_360_POST: "Search Ads 360",
  INTERNAL_TOOL: "Google internal tool",
  OTHER: "Other",
};

const KIND_OF_TYPE: Record<string, ChangeResourceKind> = {
  CAMPAIGN: "campaign",
  CAMPAIGN_BUDGET: "campaign_budget",
  AD_GROUP: "ad_group",
  AD_GROUP_CRITERION: "keyword",
  CAMPAIGN_CRITERION: "campaign_negative_keyword",
  AD_GROUP_AD: "ad",
  AD: "ad",
};

export type HistorySource = "user" | "rule" | "assistant" | "external";

export interface HistoryItem {
  id: string;
  origin: "product" | "external";
  /** ISO UTC: when it was applied (or proposed, if never applied). */
  at: string;
  customerId: string;
  source: HistorySource;
  /** Email of the person; a rule's, a recommendation's or the assistant's change adds "applied by <email>"; Google's user for outside changes. */
  who: string;
  /** "Ads AI Manager", "Google Ads (web)", "Google Ads script", ... */
  originLabel: string;
  resourceKind: string;
  resourceName: string | null;
  label: string;
  operation: string;
  before: unknown;
  after: unknown;
  status: string;
  error: string | null;
  changeSetId: string | null;
  changeSetTitle: string | null;
  revertable: boolean;
  /** The change set that undid this one (applied), when it was reverted. */
  revertedBy: string | null;
}

export const HistoryQuery = z.object({
  customerId: z
    .string()
    .regex(/^\d{10}$/, "Customer ID must be 10 digits")
    .optional(),
  resourceKind: z.enum(["campaign", "campaign_budget", "ad_group", "keyword", "negative_keyword", "campaign_negative_keyword", "ad"]).optional(),
  status: z.enum(["pending", "valid", "invalid", "applying", "applied", "failed", "unknown"]).optional(),
  source: z.enum(["user", "rule", "assistant", "external"]).optional(),
  from: z.iso.date("from must be YYYY-MM-DD").optional(),
  to: z.iso.date("to must be YYYY-MM-DD").optional(),
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type HistoryFilters = z.input<typeof HistoryQuery>;

interface ChangeEventRow {
  changeEvent?: {
    resourceName?: string;
    changeDateTime?: string;
    changeResourceType?: string;
    changeResourceName?: string;
    clientType?: string;
    userEmail?: string;
    resourceChangeOperation?: string;
    changedFields?: string;
    oldResource?: Record<string, unknown>;
    newResource?: Record<string, unknown>;
  };
}

const only = (wrapper: Record<string, unknown> | undefined) => (wrapper ? (Object.values(wrapper)[0] ?? null) : null);

/** Google's most rows per change_event query (a larger LIMIT is refused with changeEventError.INVALID_LIMIT_CLAUSE). */
export const CHANGE_EVENT_PAGE_ROWS = 10_000;

/**
 * Copies the account's change_event rows of the last 30 days; already imported rows are skipped. Returns rows read.
 * Google answers at most 10,000 rows a query, so a busy account (bulk edits, scripts) is read newest first in
 * pages: each next query ends at the last row's time, inclusive (rows of the same moment are read again and
 * told apart by their resource name), until a page comes back short.
 */
export async function importChangeEvents(userId: string, customerId: string, now: Date = new Date()): Promise<{ read: number; inserted: number }> {
  const db = getDb();
  const { account, client, loginCustomerId } = await requireAdsContext(userId, customerId, { db });
  // Google counts the 30 days in the account's time zone; starting a day later stays inside.
  const from = dateIn(account.time_zone, subHours(now, 29 * 24));
  let until = dateIn(account.time_zone, addHours(now, 24));
  const events = new Map<string, NonNullable<ChangeEventRow["changeEvent"]>>();
  for (;;) {
    const page = (await client.searchStream(
      customerId,
      `SELECT change_event.resource_name, change_event.change_date_time, change_event.change_resource_name, change_event.user_email,
              change_event.client_type, change_event.change_resource_type, change_event.old_resource, change_event.new_resource,
              change_event.resource_change_operation, change_event.changed_fields
       FROM change_event
       WHERE change_event.change_date_time >= ${gaqlString(from)} AND change_event.change_date_time <= ${gaqlString(until)}
       ORDER BY change_event.change_date_time DESC LIMIT ${CHANGE_EVENT_PAGE_ROWS}`,
      { loginCustomerId },
    )) as ChangeEventRow[];
    let added = 0;
    for (const row of page) {
      const e = row.changeEvent;
      const key = e?.resourceName ?? `${e?.changeDateTime}|${e?.changeResourceName}|${e?.changedFields}`;
      if (e && !events.has(key)) {
        events.set(key, e);
        added++;
      }
    }
    const last = page.at(-1)?.changeEvent?.changeDateTime;
    if (page.length < CHANGE_EVENT_PAGE_ROWS || !last) break;
    // A full page of one single moment cannot be paged past by time; what was read is kept.
    if (added === 0 || last === until) break;
    until = last;
  }
  const importedAt = now.toISOString();
  const values = [...events.values()]
    .filter((e): e is NonNullable<ChangeEventRow["changeEvent"]> => !!e?.changeDateTime && !!e.changeResourceName)
    .map((e) => ({
      id: randomUUID(),
      customer_id: customerId,
      change_date_time: e.changeDateTime!,
      changed_at: zonedToUtc(e.changeDateTime!, account.time_zone),
      resource_type: e.changeResourceType ?? "UNSPECIFIED",
      resource_name: e.changeResourceName!,
      client_type: e.clientType ?? "OTHER",
      user_email: e.userEmail ?? null,
      operation: e.resourceChangeOperation ?? "UNSPECIFIED",
      changed_fields: e.changedFields ?? null,
      old_json: e.oldResource ? JSON.stringify(only(e.oldResource)) : null,
      new_json: e.newResource ? JSON.stringify(only(e.newResource)) : null,
      imported_at: importedAt,
    }));
  let inserted = 0;
  for (let i = 0; i < values.length; i += 50) {
    const r = await db
      .insertInto("history_imports")
      .values(values.slice(i, i + 50))
      .onConflict((oc) => oc.columns(["customer_id", "resource_name", "change_date_time"]).doNothing())
      .executeTakeFirst();
    inserted += Number(r.numInsertedOrUpdatedRows ?? 0);
  }
  return { read: values.length, inserted };
}

/** How often an account's outside changes are imported (one Google query each time), at most; see history-import.server.ts. */
export const IMPORT_EVERY_MS = 2 * 60_000;

/**
 * Google's resource (as change_event returns it) in the fields the product's
 * own records use: keyword text and match type flat, micros as numbers, an
 * ad's headlines as texts. What has no such field stays as Google sent it.
 */
export function normalizeGoogleFields(resource: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!resource) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(resource)) {
    if (k === "keyword" && v && typeof v === "object") {
      const kw = v as { text?: unknown; matchType?: unknown };
      if (kw.text !== undefined) out.text = kw.text;
      if (kw.matchType !== undefined) out.matchType = kw.matchType;
    } else if (k === "ad" && v && typeof v === "object") {
      const ad = v as { finalUrls?: unknown; responsiveSearchAd?: { headlines?: Array<{ text?: unknown }>; descriptions?: Array<{ text?: unknown }> } };
      if (ad.responsiveSearchAd?.headlines) out.headlines = ad.responsiveSearchAd.headlines.map((h) => h.text);
      if (ad.responsiveSearchAd?.descriptions) out.descriptions = ad.responsiveSearchAd.descriptions.map((d) => d.text);
      if (ad.finalUrls) out.finalUrls = ad.finalUrls;
    } else if (k.endsWith("Micros") && typeof v === "string" && /^-?\d+$/.test(v)) {
      out[k] = Number(v);
    } else {
      out[k] = v;
    }
  }
  return out;
}

export const parseJson = (s: string | null): unknown => (s === null ? null : JSON.parse(s));

/** An outside change's resource as the product's kinds name it (an ad-group negative is a negative_keyword). */
export function outsideResourceKind(resourceType: string, oldFields: Record<string, unknown> | null, newFields: Record<string, unknown> | null): string {
  const kind = KIND_OF_TYPE[resourceType] ?? resourceType.toLowerCase();
  const negative = (newFields?.negative ?? oldFields?.negative) === true;
  return kind === "keyword" && negative ? "negative_keyword" : kind;
}

/**
 * Recognises change_event's echo of a write we recorded ourselves (the API
 * client, within minutes of our own apply), whatever the filters: such a row
 * is not an outside change.
 */
export async function ownEchoes(customers: string[]): Promise<(row: Pick<HistoryImport, "client_type" | "resource_name" | "changed_at">) => boolean> {
  const ownTimes = new Map<string, number[]>();
  const written = await getDb()
    .selectFrom("changes")
    .innerJoin("change_sets", "change_sets.id", "changes.change_set_id")
    .select(["changes.resource_name", "changes.result_resource_name", "changes.applied_at"])
    .where("change_sets.customer_id", "in", customers)
    .where("changes.applied_at", "is not", null)
    .execute();
  for (const w of written) {
    const rn = w.result_resource_name ?? w.resource_name;
    if (rn) ownTimes.set(rn, [...(ownTimes.get(rn) ?? []), Date.parse(w.applied_at!)]);
  }
  return (row) => {
    if (row.client_type !== "GOOGLE_ADS_API") return false;
    const t = Date.parse(row.changed_at);
    return (ownTimes.get(row.resource_name) ?? []).some((o) => Math.abs(o - t) <= SELF_ECHO_WINDOW_MS);
  };
}

/**
 * Who made a person's change, as the viewer may see it: their own address, or
 * "Another user" for someone else who shares the Google Ads account (their
 * address is theirs to share; there are no teams in which it would be known).
 */
function personWho(authorId: string, authorEmail: string | null, viewerId: string): string {
  return authorId === viewerId ? (authorEmail ?? "Deleted user") : "Another user";
}

/**
 * The product's own changes and imported outside changes, newest first.
 * Outside rows that are our own writes echoed back by change_event are dropped.
 */
export async function listHistory(
  userId: string,
  filters: HistoryFilters = {},
  opts: { allPages?: boolean } = {},
): Promise<{ items: HistoryItem[]; total: number }> {
  const parsed = HistoryQuery.safeParse(filters);
  if (!parsed.success) throw invalidInput(parsed.error);
  const f = parsed.data;
  const db = getDb();
  const accounts = (await db.selectFrom("ads_accounts").select("customer_id").where("user_id", "=", userId).execute()).map((a) => a.customer_id);
  if (f.customerId && !accounts.includes(f.customerId)) throw new NotFoundError("Account not found", { customerId: "Account not found" });
  const customers = f.customerId ? [f.customerId] : accounts;
  if (customers.length === 0) return { items: [], total: 0 };
  const fromIso = f.from ? `${f.from}T00:00:00.000Z` : undefined;
  const toIso = f.to ? `${f.to}T23:59:59.999Z` : undefined;

  let q = db
    .selectFrom("changes")
    .innerJoin("change_sets", "change_sets.id", "changes.change_set_id")
    .leftJoin("users", "users.id", "change_sets.user_id")
    .select([
      "changes.id",
      "changes.resource_kind",
      "changes.operation",
      "changes.resource_name",
      "changes.result_resource_name",
      "changes.label",
      "changes.before_json",
      "changes.after_json",
      "changes.status",
      "changes.error_message",
      "changes.applied_at",
      "change_sets.id as set_id",
      "change_sets.title as set_title",
      "change_sets.status as set_status",
      "change_sets.source",
      "change_sets.recommendation_id",
      "change_sets.customer_id",
      "change_sets.created_at",
      "change_sets.user_id",
      "users.email",
    ])
    .where("change_sets.customer_id", "in", customers)
    // Proposals nobody approved never reached Google: they are on review pages, not in history.
    .where("change_sets.approved_at", "is not", null);
  if (f.resourceKind) q = q.where("changes.resource_kind", "=", f.resourceKind);
  if (f.status) q = q.where("changes.status", "=", f.status);
  if (f.source && f.source !== "external") q = q.where("change_sets.source", "=", f.source);
  const own = f.source === "external" ? [] : await q.execute();

  let iq = db.selectFrom("history_imports").selectAll().where("customer_id", "in", customers);
  if (fromIso) iq = iq.where("changed_at", ">=", fromIso);
  if (toIso) iq = iq.where("changed_at", "<=", toIso);
  const imports = f.source && f.source !== "external" ? [] : f.status && f.status !== "applied" ? [] : await iq.execute();

  const setIds = [...new Set(own.map((r) => r.set_id))];
  // Reverted set → the (applied or applying) change set that undid it.
  const revertedSets = new Map<string, string>();
  const setChanges = new Map<string, Parameters<typeof isRevertable>[1]>();
  for (let i = 0; i < setIds.length; i += 200) {
    const chunk = setIds.slice(i, i + 200);
    for (const r of await db
      .selectFrom("change_sets")
      .select(["id", "revert_of"])
      .where("revert_of", "in", chunk)
      .where("status", "in", ["applied", "partially_applied", "applying"])
      .execute()) {
      if (r.revert_of) revertedSets.set(r.revert_of, r.id);
    }
    for (const c of await db.selectFrom("changes").selectAll().where("change_set_id", "in", chunk).execute()) {
      setChanges.set(c.change_set_id, [...(setChanges.get(c.change_set_id) ?? []), c]);
    }
  }

  const isEcho = imports.length > 0 ? await ownEchoes(customers) : () => false;

  const items: HistoryItem[] = [];
  for (const r of own) {
    const at = r.applied_at ?? r.created_at;
    const rn = r.result_resource_name ?? r.resource_name;
    if ((fromIso && at < fromIso) || (toIso && at > toIso)) continue;
    items.push({
      id: r.id,
      origin: "product",
      at,
      customerId: r.customer_id,
      source: r.source,
      // A recommendation's Apply is source "rule" with its id: history names where it came from, and who applied it.
      who: appliedChangeWho(r, personWho(r.user_id, r.email, userId)),
      originLabel: "Ads AI Manager",
      resourceKind: r.resource_kind,
      resourceName: rn,
      label: r.label,
      operation: r.operation,
      before: parseJson(r.before_json),
      after: parseJson(r.after_json),
      status: r.status,
      error: r.error_message,
      changeSetId: r.set_id,
      changeSetTitle: r.set_title,
      revertable: r.status === "applied" && isRevertable({ status: r.set_status }, setChanges.get(r.set_id) ?? [], revertedSets.has(r.set_id)),
      revertedBy: r.status === "applied" ? (revertedSets.get(r.set_id) ?? null) : null,
    });
  }
  // Outside changes name only a resource: say which keyword, ad or campaign it was.
  const names = await nameResources(imports.map((r) => r.resource_name));
  for (const r of imports) {
    const oldFields = normalizeGoogleFields(parseJson(r.old_json) as Record<string, unknown> | null);
    const newFields = normalizeGoogleFields(parseJson(r.new_json) as Record<string, unknown> | null);
    const resourceKind = outsideResourceKind(r.resource_type, oldFields, newFields);
    if (f.resourceKind && resourceKind !== f.resourceKind) continue;
    if (isEcho(r)) continue;
    items.push({
      id: r.id,
      origin: "external",
      at: r.changed_at,
      customerId: r.customer_id,
      source: "external",
      who: r.user_email ?? "Google",
      originLabel: ORIGIN_LABEL[r.client_type] ?? r.client_type,
      resourceKind,
      resourceName: r.resource_name,
      label: `${r.operation.charAt(0)}${r.operation.slice(1).toLowerCase()} ${
        names.get(r.resource_name) ?? nameFromFields(resourceKind, newFields ?? oldFields) ?? resourceKind.replace(/_/g, " ")
      }${r.changed_fields ? ` — ${[...new Set(r.changed_fields.split(",").map(fieldName))].join(", ")}` : ""}`,
      operation: r.operation.toLowerCase(),
      before: oldFields,
      after: newFields,
      status: "applied",
      error: null,
      changeSetId: null,
      changeSetTitle: null,
      revertable: false,
      revertedBy: null,
    });
  }

  const needle = f.q?.toLowerCase();
  const filtered = needle
    ? items.filter((i) => [i.label, i.resourceName ?? "", i.who, i.changeSetTitle ?? ""].some((s) => s.toLowerCase().includes(needle)))
    : items;
  filtered.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.id < b.id ? -1 : 1));
  if (opts.allPages) return { items: filtered, total: filtered.length };
  const start = (f.page - 1) * HISTORY_PAGE_SIZE;
  return { items: filtered.slice(start, start + HISTORY_PAGE_SIZE), total: filtered.length };
}
