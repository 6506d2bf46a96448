import { randomUUID } from "node:crypto";
import type { z } from "zod";
import {
  ActionInput,
  AddKeywordsInput,
  AddNegativesInput,
  BidChangeInput,
  BudgetChangeInput,
  BulkInput,
  CompositeId,
  CreateRsaInput,
  RemoveKeywordsInput,
  RemoveNegativesInput,
  StatusChangeInput,
  TargetCpaChangeInput,
  type Action,
} from "~/lib/change-actions";
import { requireOwnAccount } from "../ads/context.server";
import { getDb, type DB } from "../db/db.server";
import type { ChangeOperation, ChangeResourceKind, ChangeSetOrigin, ChangeSetSource } from "../db/schema";
import { InvalidError, NotFoundError, parseInput } from "../domain-errors.server";
import { resourceName, type Fields } from "./kinds.server";
import { largeMoves } from "./large-moves.server";
import { formatEnum } from "~/lib/format";

export type { Action };

/** One change before it is stored: what the user sees and the exact operation Google will get. */
export interface DraftChange {
  kind: ChangeResourceKind;
  operation: ChangeOperation;
  resourceName: string | null;
  label: string;
  before: Fields | null;
  after: Fields | null;
  /** The Google mutate operation, e.g. { update: {...}, updateMask: "status" }. */
  op: Record<string, unknown>;
}

export interface ProposeMeta {
  source?: ChangeSetSource;
  sourceDetail?: string;
  /** Where it was proposed; by default read from the source (see originOf). */
  origin?: ChangeSetOrigin;
  /** The chat whose assistant proposed it. */
  chatId?: string;
  /** The recommendation this change set comes from (with source "rule"); see ChangeSetsTable.recommendation_id. */
  recommendationId?: string;
  title?: string;
  /** Default true: every change applies or none does. */
  atomic?: boolean;
}

function notFound(field: string, what: string): never {
  throw new NotFoundError(`${what} not found in this account`, { [field]: `${what} not found in this account` });
}

const toMicros = (units: number) => Math.round(units * 100) * 10_000;

function update(rn: string, fields: Record<string, unknown>): Record<string, unknown> {
  const wire: Record<string, unknown> = { resourceName: rn };
  for (const [k, v] of Object.entries(fields)) wire[k] = typeof v === "number" ? String(v) : v;
  return { update: wire, updateMask: Object.keys(fields).join(",") };
}

async function statusDrafts(db: DB, customerId: string, input: z.output<typeof StatusChangeInput>, field = "ids"): Promise<DraftChange[]> {
  const out: DraftChange[] = [];
  const verb = input.status === "REMOVED" ? "Remove" : input.status === "PAUSED" ? "Pause" : "Enable";
  for (const [i, id] of input.ids.entries()) {
    let label: string;
    let status: string;
    if (input.kind === "campaign") {
      const row = /^\d+$/.test(id)
        ? await db.selectFrom("ads_campaigns").select(["name", "status"]).where("customer_id", "=", customerId).where("id", "=", id).executeTakeFirst()
        : undefined;
      if (!row) notFound(`${field}.${i}`, "Campaign");
      label = `Campaign “${row.name}”`;
      status = row.status;
    } else if (input.kind === "ad_group") {
      const row = /^\d+$/.test(id)
        ? await db.selectFrom("ads_ad_groups").select(["name", "status"]).where("customer_id", "=", customerId).where("id", "=", id).executeTakeFirst()
        : undefined;
      if (!row) notFound(`${field}.${i}`, "Ad group");
      label = `Ad group “${row.name}”`;
      status = row.status;
    } else if (input.kind === "keyword") {
      const [ag, crit] = CompositeId.safeParse(id).success ? id.split("~") : [];
      const row = ag
        ? await db
            .selectFrom("ads_keywords")
            .select(["text", "match_type", "status", "negative", "cpc_bid_micros"])
            .where("customer_id", "=", customerId)
            .where("ad_group_id", "=", ag)
            .where("criterion_id", "=", crit)
            .executeTakeFirst()
        : undefined;
      if (!row) notFound(`${field}.${i}`, "Keyword");
      label = `${row.negative ? "Negative keyword" : "Keyword"} “${row.text}” (${row.match_type.toLowerCase()})`;
      status = row.status;
      if (input.status === "REMOVED") {
        // Enough to re-create it if the removal is reverted.
        const rn = resourceName(customerId, "keyword", id);
        out.push({
          kind: row.negative ? "negative_keyword" : "keyword",
          operation: "remove",
          resourceName: rn,
          label: `Remove ${label.charAt(0).toLowerCase()}${label.slice(1)}`,
          before: {
            status,
            adGroup: resourceName(customerId, "ad_group", ag),
            text: row.text,
            matchType: row.match_type,
            negative: row.negative === 1,
            cpcBidMicros: row.cpc_bid_micros,
          },
          after: { status: "REMOVED" },
          op: { remove: rn },
        });
        continue;
      }
    } else {
      const [ag, adId] = CompositeId.safeParse(id).success ? id.split("~") : [];
      const row = ag
        ? await db
            .selectFrom("ads_ads")
            .select(["status", "headlines"])
            .where("customer_id", "=", customerId)
            .where("ad_group_id", "=", ag)
            .where("ad_id", "=", adId)
            .executeTakeFirst()
        : undefined;
      if (!row) notFound(`${field}.${i}`, "Ad");
      const first = (JSON.parse(row.headlines) as Array<{ text: string }>)[0]?.text ?? adId;
      label = `Ad “${first}”`;
      status = row.status;
    }
    const rn = resourceName(customerId, input.kind, id);
    if (input.status === "REMOVED") {
      out.push({
        kind: input.kind,
        operation: "remove",
        resourceName: rn,
        label: `Remove ${label}`,
        before: { status },
        after: { status: "REMOVED" },
        op: { remove: rn },
      });
    } else {
      out.push({
        kind: input.kind,
        operation: "update",
        resourceName: rn,
        label: `${verb} ${label}`,
        before: { status },
        after: { status: input.status },
        op: update(rn, { status: input.status }),
      });
    }
  }
  return out;
}

async function budgetDrafts(db: DB, customerId: string, input: z.output<typeof BudgetChangeInput>): Promise<DraftChange[]> {
  const row = await db
    .selectFrom("ads_campaigns")
    .select(["name", "budget_resource_name", "budget_amount_micros", "budget_explicitly_shared"])
    .where("customer_id", "=", customerId)
    .where("id", "=", input.campaignId)
    .executeTakeFirst();
  if (!row) notFound("campaignId", "Campaign");
  if (!row.budget_resource_name) throw new InvalidError("This campaign has no budget to change", { campaignId: "This campaign has no budget to change" });
  const amountMicros = toMicros(input.amount);
  return [
    {
      kind: "campaign_budget",
      operation: "update",
      resourceName: row.budget_resource_name,
      label: `Daily budget of “${row.name}”${row.budget_explicitly_shared ? " (shared budget)" : ""}`,
      before: { amountMicros: row.budget_amount_micros },
      after: { amountMicros },
      op: update(row.budget_resource_name, { amountMicros }),
    },
  ];
}

async function bidDrafts(db: DB, customerId: string, input: z.output<typeof BidChangeInput>): Promise<DraftChange[]> {
  const out: DraftChange[] = [];
  for (const [i, item] of input.items.entries()) {
    const cpcBidMicros = toMicros(item.cpc);
    let label: string;
    let before: number | null;
    if (input.kind === "ad_group") {
      const row = /^\d+$/.test(item.id)
        ? await db
            .selectFrom("ads_ad_groups")
            .select(["name", "cpc_bid_micros"])
            .where("customer_id", "=", customerId)
            .where("id", "=", item.id)
            .executeTakeFirst()
        : undefined;
      if (!row) notFound(`items.${i}.id`, "Ad group");
      label = `Default CPC bid of ad group “${row.name}”`;
      before = row.cpc_bid_micros;
    } else {
      const [ag, crit] = CompositeId.safeParse(item.id).success ? item.id.split("~") : [];
      const row = ag
        ? await db
            .selectFrom("ads_keywords")
            .select(["text", "match_type", "negative", "cpc_bid_micros"])
            .where("customer_id", "=", customerId)
            .where("ad_group_id", "=", ag)
            .where("criterion_id", "=", crit)
            .executeTakeFirst()
        : undefined;
      if (!row || row.negative) notFound(`items.${i}.id`, "Keyword");
      label = `CPC bid of keyword “${row.text}” (${row.match_type.toLowerCase()})`;
      before = row.cpc_bid_micros;
    }
    const rn = resourceName(customerId, input.kind, item.id);
    out.push({
      kind: input.kind,
      operation: "update",
      resourceName: rn,
      label,
      before: { cpcBidMicros: before },
      after: { cpcBidMicros },
      op: update(rn, { cpcBidMicros }),
    });
  }
  return out;
}

async function targetCpaDrafts(db: DB, customerId: string, input: z.output<typeof TargetCpaChangeInput>): Promise<DraftChange[]> {
  const row = await db
    .selectFrom("ads_ad_groups as g")
    .innerJoin("ads_campaigns as c", (j) => j.onRef("c.customer_id", "=", "g.customer_id").onRef("c.id", "=", "g.campaign_id"))
    .select(["g.name", "g.target_cpa_micros", "c.bidding_strategy_type", "c.target_cpa_micros as campaign_target"])
    .where("g.customer_id", "=", customerId)
    .where("g.id", "=", input.adGroupId)
    .executeTakeFirst();
  if (!row) notFound("adGroupId", "Ad group");
  const before = row.target_cpa_micros === null ? null : Number(row.target_cpa_micros);
  const rn = resourceName(customerId, "ad_group", input.adGroupId);
  const label = `Target CPA of ad group “${row.name}”`;
  const item = (targetCpaMicros: number | null, op: DraftChange["op"]): DraftChange[] => [
    { kind: "ad_group", operation: "update", resourceName: rn, label, before: { targetCpaMicros: before }, after: { targetCpaMicros }, op },
  ];
  if (input.targetCpa === null) {
    if (before === null)
      throw new InvalidError("This ad group has no target CPA of its own to clear", { targetCpa: "This ad group has no target CPA of its own to clear" });
    // Masked but absent is how Google clears a field: the campaign's target applies again.
    return item(null, { update: { resourceName: rn }, updateMask: "targetCpaMicros" });
  }
  // Google ignores an ad group's target unless its campaign bids to a target CPA.
  const bidsToCpa = row.bidding_strategy_type === "TARGET_CPA" || (row.bidding_strategy_type === "MAXIMIZE_CONVERSIONS" && !!row.campaign_target);
  if (!bidsToCpa) {
    const msg = "This ad group's campaign does not bid to a target CPA (Target CPA, or Maximize conversions with a target), so Google would ignore it";
    throw new InvalidError(msg, { targetCpa: msg });
  }
  const targetCpaMicros = toMicros(input.targetCpa);
  return item(targetCpaMicros, update(rn, { targetCpaMicros }));
}

async function adGroupName(db: DB, customerId: string, id: string, field: string) {
  const row = await db.selectFrom("ads_ad_groups").select(["name"]).where("customer_id", "=", customerId).where("id", "=", id).executeTakeFirst();
  if (!row) notFound(field, "Ad group");
  return row.name;
}

async function addKeywordDrafts(db: DB, customerId: string, input: z.output<typeof AddKeywordsInput>): Promise<DraftChange[]> {
  const name = await adGroupName(db, customerId, input.adGroupId, "adGroupId");
  const adGroup = resourceName(customerId, "ad_group", input.adGroupId);
  // A keyword the ad group already has (same text and match type) would be created a second time.
  const existing = await db
    .selectFrom("ads_keywords")
    .select(["text", "match_type"])
    .where("customer_id", "=", customerId)
    .where("ad_group_id", "=", input.adGroupId)
    .where("negative", "=", 0)
    .where("status", "!=", "REMOVED")
    .execute();
  const keyOf = (text: string, matchType: string) => `${matchType}:${text.trim().toLowerCase()}`;
  const taken = new Set(existing.map((k) => keyOf(k.text, k.match_type)));
  for (const [i, k] of input.keywords.entries()) {
    const key = keyOf(k.text, k.matchType);
    if (taken.has(key)) {
      const keyword = `“${k.text}” (${k.matchType.toLowerCase()})`;
      const message = existing.some((e) => keyOf(e.text, e.match_type) === key)
        ? `${keyword} is already a keyword of ad group “${name}”`
        : `${keyword} is in the list twice`;
      throw new InvalidError(message, { [`keywords.${i}.text`]: message });
    }
    taken.add(key);
  }
  return input.keywords.map((k) => {
    const create: Record<string, unknown> = { adGroup, status: "ENABLED", keyword: { text: k.text, matchType: k.matchType } };
    const after: Fields = { adGroup, status: "ENABLED", text: k.text, matchType: k.matchType };
    if (k.cpc !== undefined) {
      create.cpcBidMicros = String(toMicros(k.cpc));
      after.cpcBidMicros = toMicros(k.cpc);
    }
    return {
      kind: "keyword",
      operation: "create",
      resourceName: null,
      label: `Add keyword “${k.text}” (${k.matchType.toLowerCase()}) to “${name}”`,
      before: null,
      after,
      op: { create },
    };
  });
}

async function addNegativeDrafts(db: DB, customerId: string, input: z.output<typeof AddNegativesInput>): Promise<DraftChange[]> {
  if (input.level === "ad_group") {
    const name = await adGroupName(db, customerId, input.parentId, "parentId");
    const adGroup = resourceName(customerId, "ad_group", input.parentId);
    return input.keywords.map((k) => ({
      kind: "negative_keyword",
      operation: "create",
      resourceName: null,
      label: `Exclude “${k.text}” (${k.matchType.toLowerCase()}) in ad group “${name}”`,
      before: null,
      after: { adGroup, negative: true, text: k.text, matchType: k.matchType },
      op: { create: { adGroup, negative: true, status: "ENABLED", keyword: { text: k.text, matchType: k.matchType } } },
    }));
  }
  const row = await db.selectFrom("ads_campaigns").select(["name"]).where("customer_id", "=", customerId).where("id", "=", input.parentId).executeTakeFirst();
  if (!row) notFound("parentId", "Campaign");
  const campaign = resourceName(customerId, "campaign", input.parentId);
  return input.keywords.map((k) => ({
    kind: "campaign_negative_keyword",
    operation: "create",
    resourceName: null,
    label: `Exclude “${k.text}” (${k.matchType.toLowerCase()}) in campaign “${row.name}”`,
    before: null,
    after: { campaign, text: k.text, matchType: k.matchType },
    op: { create: { campaign, negative: true, keyword: { text: k.text, matchType: k.matchType } } },
  }));
}

async function removeNegativeDrafts(db: DB, customerId: string, input: z.output<typeof RemoveNegativesInput>): Promise<DraftChange[]> {
  const out: DraftChange[] = [];
  for (const [i, id] of input.ids.entries()) {
    const [parent, crit] = CompositeId.safeParse(id).success ? id.split("~") : [];
    if (input.level === "ad_group") {
      const row = parent
        ? await db
            .selectFrom("ads_keywords")
            .select("negative")
            .where("customer_id", "=", customerId)
            .where("ad_group_id", "=", parent)
            .where("criterion_id", "=", crit)
            .executeTakeFirst()
        : undefined;
      if (!row || row.negative !== 1) notFound(`ids.${i}`, "Negative keyword");
      out.push(...(await statusDrafts(db, customerId, { customerId, kind: "keyword", ids: [id], status: "REMOVED" }, `ids.${i}`)));
      continue;
    }
    const row = parent
      ? await db
          .selectFrom("ads_campaign_negative_keywords")
          .innerJoin("ads_campaigns", (j) =>
            j
              .onRef("ads_campaigns.customer_id", "=", "ads_campaign_negative_keywords.customer_id")
              .onRef("ads_campaigns.id", "=", "ads_campaign_negative_keywords.campaign_id"),
          )
          .select(["ads_campaign_negative_keywords.text", "ads_campaign_negative_keywords.match_type", "ads_campaigns.name"])
          .where("ads_campaign_negative_keywords.customer_id", "=", customerId)
          .where("ads_campaign_negative_keywords.campaign_id", "=", parent)
          .where("ads_campaign_negative_keywords.criterion_id", "=", crit)
          .executeTakeFirst()
      : undefined;
    if (!row) notFound(`ids.${i}`, "Negative keyword");
    const rn = resourceName(customerId, "campaign_negative_keyword", id);
    out.push({
      kind: "campaign_negative_keyword",
      operation: "remove",
      resourceName: rn,
      label: `Remove negative keyword “${row.text}” (${row.match_type.toLowerCase()}) from campaign “${row.name}”`,
      // Enough to re-create it if the removal is reverted.
      before: { status: "ENABLED", campaign: resourceName(customerId, "campaign", parent), text: row.text, matchType: row.match_type },
      after: { status: "REMOVED" },
      op: { remove: rn },
    });
  }
  return out;
}

async function rsaDrafts(db: DB, customerId: string, input: z.output<typeof CreateRsaInput>): Promise<DraftChange[]> {
  const name = await adGroupName(db, customerId, input.adGroupId, "adGroupId");
  const adGroup = resourceName(customerId, "ad_group", input.adGroupId);
  const asset = (a: { text: string; pin?: string }) => (a.pin ? { text: a.text, pinnedField: a.pin } : { text: a.text });
  const rsa: Record<string, unknown> = { headlines: input.headlines.map(asset), descriptions: input.descriptions.map(asset) };
  if (input.path1) rsa.path1 = input.path1;
  if (input.path2) rsa.path2 = input.path2;
  const pins = [...input.headlines, ...input.descriptions].filter((a) => a.pin).map((a) => `“${a.text}” → ${formatEnum(a.pin!)}`);
  return [
    {
      kind: "ad",
      operation: "create",
      resourceName: null,
      label: `New responsive search ad “${input.headlines[0].text}” in “${name}”`,
      before: null,
      after: {
        adGroup,
        status: "ENABLED",
        headlines: input.headlines.map((h) => h.text),
        descriptions: input.descriptions.map((d) => d.text),
        finalUrls: [input.finalUrl],
        // Everything sent to Google is shown in the review: the display path and the pins too.
        ...(input.path1 ? { path1: input.path1 } : {}),
        ...(input.path2 ? { path2: input.path2 } : {}),
        ...(pins.length > 0 ? { pins } : {}),
      },
      op: { create: { adGroup, status: "ENABLED", ad: { finalUrls: [input.finalUrl], responsiveSearchAd: rsa } } },
    },
  ];
}

async function draftsFor(db: DB, customerId: string, action: z.output<typeof ActionInput>): Promise<DraftChange[]> {
  switch (action.type) {
    case "status":
      return statusDrafts(db, customerId, { ...action, customerId });
    case "budget":
      return budgetDrafts(db, customerId, { ...action, customerId });
    case "bid":
      return bidDrafts(db, customerId, { ...action, customerId });
    case "target_cpa":
      return targetCpaDrafts(db, customerId, { ...action, customerId });
    case "add_keywords":
      return addKeywordDrafts(db, customerId, { ...action, customerId });
    case "add_negatives":
      return addNegativeDrafts(db, customerId, { ...action, customerId });
    case "remove_keywords":
      return statusDrafts(db, customerId, { kind: "keyword", ids: action.ids, status: "REMOVED", customerId });
    case "remove_negatives":
      return removeNegativeDrafts(db, customerId, { ...action, customerId });
    case "create_rsa":
      return rsaDrafts(db, customerId, { ...action, customerId });
  }
}

/** Where a proposal comes from when its caller doesn't say: a revert, the assistant's chat, a recommendation's Apply, else a campaign screen's form. */
function originOf(meta: ProposeMeta & { revertOf?: string }): ChangeSetOrigin {
  if (meta.origin) return meta.origin;
  if (meta.revertOf) return "revert";
  if (meta.source === "assistant") return "chat";
  if (meta.source === "rule") return "recommendation";
  return "campaign";
}

/** Stores a proposed change set; nothing is sent to Google yet. Returns its id. */
export async function storeChangeSet(
  db: DB,
  userId: string,
  customerId: string,
  drafts: DraftChange[],
  meta: ProposeMeta & { title: string; revertOf?: string },
): Promise<string> {
  if (drafts.length === 0) throw new InvalidError("Nothing to change");
  const id = randomUUID();
  const now = new Date().toISOString();
  const large = (await largeMoves(db, customerId, drafts)).some(Boolean);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("change_sets")
      .values({
        id,
        user_id: userId,
        customer_id: customerId,
        source: meta.source ?? "user",
        source_detail: meta.sourceDetail ?? null,
        title: meta.title,
        status: "proposed",
        atomic: meta.atomic === false ? 0 : 1,
        needs_confirmation: large ? 1 : 0,
        revert_of: meta.revertOf ?? null,
        recommendation_id: meta.recommendationId ?? null,
        origin: originOf(meta),
        chat_id: meta.chatId ?? null,
        created_at: now,
        validated_at: null,
        approved_at: null,
        applied_at: null,
        error: null,
      })
      .execute();
    // Chunked: SQLite caps bound parameters per statement.
    for (let i = 0; i < drafts.length; i += 50) {
      await trx
        .insertInto("changes")
        .values(
          drafts.slice(i, i + 50).map((d, j) => ({
            id: randomUUID(),
            change_set_id: id,
            seq: i + j,
            resource_kind: d.kind,
            operation: d.operation,
            resource_name: d.resourceName,
            label: d.label,
            before_json: d.before === null ? null : JSON.stringify(d.before),
            after_json: d.after === null ? null : JSON.stringify(d.after),
            operation_json: JSON.stringify(d.op),
            status: "pending" as const,
            error_code: null,
            error_message: null,
            field_path: null,
            result_resource_name: null,
            request_id: null,
            applied_at: null,
          })),
        )
        .execute();
    }
  });
  return id;
}

async function propose<S extends z.ZodType<{ customerId: string }>>(
  userId: string,
  schema: S,
  input: unknown,
  meta: ProposeMeta,
  build: (db: DB, data: z.output<S>) => Promise<DraftChange[]>,
  title: (data: z.output<S>, drafts: DraftChange[]) => string,
): Promise<string> {
  const data = parseInput(schema, input);
  const db = getDb();
  await requireOwnAccount(userId, data.customerId, { db, field: "customerId" });
  const drafts = await build(db, data);
  refuseNoOps(drafts);
  return storeChangeSet(db, userId, data.customerId, drafts, { ...meta, title: meta.title ?? title(data, drafts) });
}

const sameValue = (a: unknown, b: unknown) =>
  a === b || (a !== null && b !== null && a !== undefined && b !== undefined && typeof a !== "object" && String(a) === String(b));

/**
 * An update that sets what is already there (a budget of $41 to $41, pausing a paused campaign)
 * would go to review, to Google and into History as a change that changed nothing: refused.
 */
function refuseNoOps(drafts: DraftChange[]) {
  for (const d of drafts) {
    if (d.operation !== "update" || !d.before || !d.after) continue;
    if (Object.keys(d.after).every((k) => sameValue(d.before?.[k], d.after?.[k]))) {
      throw new InvalidError(`Nothing to change: ${d.label} already has that value`);
    }
  }
}

const titled = (drafts: DraftChange[], many: string) => (drafts.length === 1 ? drafts[0].label : many);

export function proposeStatusChange(userId: string, input: z.input<typeof StatusChangeInput>, meta: ProposeMeta = {}) {
  return propose(
    userId,
    StatusChangeInput,
    input,
    meta,
    (db, d) => statusDrafts(db, d.customerId, d),
    (d, drafts) =>
      titled(drafts, `${d.status === "REMOVED" ? "Remove" : d.status === "PAUSED" ? "Pause" : "Enable"} ${drafts.length} ${d.kind.replace("_", " ")}s`),
  );
}

export function proposeBudgetChange(userId: string, input: z.input<typeof BudgetChangeInput>, meta: ProposeMeta = {}) {
  return propose(
    userId,
    BudgetChangeInput,
    input,
    meta,
    (db, d) => budgetDrafts(db, d.customerId, d),
    (_d, drafts) => `Change ${drafts[0].label.charAt(0).toLowerCase()}${drafts[0].label.slice(1)}`,
  );
}

export function proposeBidChange(userId: string, input: z.input<typeof BidChangeInput>, meta: ProposeMeta = {}) {
  return propose(
    userId,
    BidChangeInput,
    input,
    meta,
    (db, d) => bidDrafts(db, d.customerId, d),
    (d, drafts) => titled(drafts, `Change ${drafts.length} ${d.kind.replace("_", " ")} bids`),
  );
}

export function proposeTargetCpaChange(userId: string, input: z.input<typeof TargetCpaChangeInput>, meta: ProposeMeta = {}) {
  return propose(
    userId,
    TargetCpaChangeInput,
    input,
    meta,
    (db, d) => targetCpaDrafts(db, d.customerId, d),
    (_d, drafts) => `Change ${drafts[0].label.charAt(0).toLowerCase()}${drafts[0].label.slice(1)}`,
  );
}

export function proposeAddKeywords(userId: string, input: z.input<typeof AddKeywordsInput>, meta: ProposeMeta = {}) {
  return propose(
    userId,
    AddKeywordsInput,
    input,
    meta,
    (db, d) => addKeywordDrafts(db, d.customerId, d),
    (_d, drafts) => titled(drafts, `Add ${drafts.length} keywords`),
  );
}

export function proposeAddNegatives(userId: string, input: z.input<typeof AddNegativesInput>, meta: ProposeMeta = {}) {
  return propose(
    userId,
    AddNegativesInput,
    input,
    meta,
    (db, d) => addNegativeDrafts(db, d.customerId, d),
    (_d, drafts) => titled(drafts, `Add ${drafts.length} negative keywords`),
  );
}

export function proposeRemoveKeywords(userId: string, input: z.input<typeof RemoveKeywordsInput>, meta: ProposeMeta = {}) {
  return propose(
    userId,
    RemoveKeywordsInput,
    input,
    meta,
    (db, d) => statusDrafts(db, d.customerId, { customerId: d.customerId, kind: "keyword", ids: d.ids, status: "REMOVED" }),
    (_d, drafts) => titled(drafts, `Remove ${drafts.length} keywords`),
  );
}

export function proposeCreateRsa(userId: string, input: z.input<typeof CreateRsaInput>, meta: ProposeMeta = {}) {
  return propose(
    userId,
    CreateRsaInput,
    input,
    meta,
    (db, d) => rsaDrafts(db, d.customerId, d),
    (_d, drafts) => drafts[0].label,
  );
}

/** Many actions, one change set (one review, one apply). */
export function proposeBulk(userId: string, input: z.input<typeof BulkInput>, meta: ProposeMeta = {}) {
  return propose(
    userId,
    BulkInput,
    input,
    meta,
    async (db, d) => {
      const all: DraftChange[] = [];
      for (const action of d.actions) all.push(...(await draftsFor(db, d.customerId, action)));
      return all;
    },
    (_d, drafts) => titled(drafts, `${drafts.length} changes`),
  );
}
