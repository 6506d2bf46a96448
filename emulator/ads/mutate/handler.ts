// The write side of the Ads API emulator: per-service `{collection}:mutate`
// and `googleAds:mutate` over the in-memory store.
//
// Every request is planned first against a copy-on-write overlay (so later
// operations see earlier ones, temp ids resolve, and nothing touches the
// store), then applied in order. That makes atomic failure and validateOnly
// trivially side-effect free, and partial failure applies exactly the
// operations whose plan succeeded.

import { eastAsianWidth } from "get-east-asian-width";
import { GoogleAdsFailureError, type GoogleAdsErrorEntry } from "../contract";
import type { Account, AdsStore } from "../store/store";
import type { AdGroupAdData, AdTextAsset, CampaignData, EntityStatus, MatchType } from "../store/types";
import { leafPaths, recordChange, type ChangeRecord, type ChangeResourceType } from "./change-events";

export interface MutateHandlerOptions {
  now?: () => Date;
}

/** Mirrors emulator/rest/mutate.ts MutateRequest (the data layer does not import the HTTP layer). */
export interface MutateCall {
  version: string;
  customerId: string;
  collection: string;
  body: Record<string, unknown>;
  userEmail: string;
  requestId: string;
}

type Kind = "campaign" | "campaignBudget" | "adGroup" | "adGroupCriterion" | "adGroupAd" | "campaignCriterion";

interface KindInfo {
  collection: string;
  /** googleAds:mutate operation / result keys. */
  opKey: string;
  opProto: string;
  resultKey: string;
  changeType: ChangeResourceType;
  /** Paths an update may set. */
  updatable: string[];
  /** Known but not updatable here (IMMUTABLE_FIELD rather than FIELD_NOT_FOUND). */
  immutable: string[];
  /** Message-typed paths (FIELD_HAS_SUBFIELDS). */
  messages: string[];
}

const KINDS: Record<Kind, KindInfo> = {
  campaign: {
    collection: "campaigns",
    opKey: "campaignOperation",
    opProto: "campaign_operation",
    resultKey: "campaignResult",
    changeType: "CAMPAIGN",
    updatable: ["status", "name"],
    immutable: ["resourceName", "id", "advertisingChannelType"],
    messages: ["networkSettings", "manualCpc", "maximizeConversions", "targetSpend"],
  },
  campaignBudget: {
    collection: "campaignBudgets",
    opKey: "campaignBudgetOperation",
    opProto: "campaign_budget_operation",
    resultKey: "campaignBudgetResult",
    changeType: "CAMPAIGN_BUDGET",
    updatable: ["amountMicros", "name"],
    immutable: ["resourceName", "id", "period", "type"],
    messages: [],
  },
  adGroup: {
    collection: "adGroups",
    opKey: "adGroupOperation",
    opProto: "ad_group_operation",
    resultKey: "adGroupResult",
    changeType: "AD_GROUP",
    updatable: ["status", "cpcBidMicros", "targetCpaMicros", "name"],
    immutable: ["resourceName", "id", "campaign", "effectiveTargetCpaMicros"],
    messages: [],
  },
  adGroupCriterion: {
    collection: "adGroupCriteria",
    opKey: "adGroupCriterionOperation",
    opProto: "ad_group_criterion_operation",
    resultKey: "adGroupCriterionResult",
    changeType: "AD_GROUP_CRITERION",
    updatable: ["status", "cpcBidMicros"],
    immutable: ["resourceName", "criterionId", "adGroup", "negative", "keyword.text", "keyword.matchType"],
    messages: ["keyword"],
  },
  adGroupAd: {
    collection: "adGroupAds",
    opKey: "adGroupAdOperation",
    opProto: "ad_group_ad_operation",
    resultKey: "adGroupAdResult",
    changeType: "AD_GROUP_AD",
    updatable: ["status"],
    immutable: ["resourceName", "adGroup", "ad.id", "ad.finalUrls", "ad.responsiveSearchAd.headlines", "ad.responsiveSearchAd.descriptions"],
    messages: ["ad", "ad.responsiveSearchAd"],
  },
  campaignCriterion: {
    collection: "campaignCriteria",
    opKey: "campaignCriterionOperation",
    opProto: "campaign_criterion_operation",
    resultKey: "campaignCriterionResult",
    changeType: "CAMPAIGN_CRITERION",
    updatable: [],
    immutable: ["resourceName", "criterionId", "campaign", "negative", "keyword.text", "keyword.matchType", "status"],
    messages: ["keyword"],
  },
};

const KIND_BY_COLLECTION = new Map<string, Kind>(Object.entries(KINDS).map(([k, v]) => [v.collection, k as Kind]));
const KIND_BY_OPKEY = new Map<string, Kind>(Object.entries(KINDS).map(([k, v]) => [v.opKey, k as Kind]));

const MAX_OPERATIONS = 10_000;
const STATUS_SETTABLE = ["ENABLED", "PAUSED"];
const STATUS_ENUM = ["ENABLED", "PAUSED", "REMOVED"];
const MATCH_TYPES: MatchType[] = ["EXACT", "PHRASE", "BROAD"];
const PIN_HEADLINE = ["HEADLINE_1", "HEADLINE_2", "HEADLINE_3"];
const PIN_DESCRIPTION = ["DESCRIPTION_1", "DESCRIPTION_2"];
/** Characters Google rejects in keyword text (KEYWORD_HAS_INVALID_CHARS). */
const KEYWORD_INVALID = /[!@%^()={};~`<>?\\|,*]/;

// ---- errors ----

type PathElement = string | [string, number];

class OpError extends Error {
  constructor(readonly entries: GoogleAdsErrorEntry[]) {
    super(entries[0]?.message);
  }
}

function snake(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function entry(
  code: Record<string, string>,
  message: string,
  path: PathElement[],
  trigger?: { stringValue?: string; int64Value?: string },
): GoogleAdsErrorEntry {
  return {
    errorCode: code,
    message,
    ...(trigger ? { trigger } : {}),
    location: {
      fieldPathElements: path.map((p) => (typeof p === "string" ? { fieldName: snake(p) } : { fieldName: snake(p[0]), index: p[1] })),
    },
  };
}

function fail(code: Record<string, string>, message: string, path: PathElement[], trigger?: { stringValue?: string; int64Value?: string }): never {
  throw new OpError([entry(code, message, path, trigger)]);
}

const MSG = {
  REQUIRED: "The required field was not present.",
  NOT_FOUND: "Resource was not found.",
  MALFORMED: "Resource name is malformed.",
  TOO_LOW: "Too low.",
  TOO_LONG: "Too long.",
  EMPTY: "The specified field should have a least one non-whitespace character in it.",
  IMMUTABLE: "The field's value cannot be modified.",
  REMOVED: "The operation is not permitted on removed resources.",
  PERMISSION:
    "User doesn't have permission to access customer. Note: If you're accessing a client customer, the manager's customer id must be set in the 'login-customer-id' header.",
  ENUM: "Invalid enum value.",
};

// ---- small value helpers ----

function camelKey(k: string): string {
  return k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The transcoder accepts proto (snake_case) or JSON (camelCase) names; normalise to camelCase. */
function camelize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(camelize);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [camelKey(k), camelize(x)]));
  }
  return v;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function int64(v: unknown, path: PathElement[]): number {
  const n = typeof v === "number" ? v : typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n)) fail({ fieldError: "INVALID_VALUE" }, "The field is not a valid int64 value.", path, { stringValue: String(v) });
  return n;
}

function str(v: unknown, path: PathElement[]): string {
  if (typeof v !== "string") fail({ fieldError: "INVALID_VALUE" }, "The field is not a string.", path);
  return v;
}

function enumValue<T extends string>(v: unknown, allowed: readonly string[], path: PathElement[]): T {
  if (typeof v !== "string" || !allowed.includes(v)) fail({ requestError: "INVALID_ENUM_VALUE" }, MSG.ENUM, path, { stringValue: String(v) });
  return v as T;
}

function settableStatus(v: unknown, path: PathElement[]): EntityStatus {
  const s = enumValue<EntityStatus>(v, STATUS_ENUM, path);
  // Removal is its own operation; an update or create cannot set REMOVED.
  if (!STATUS_SETTABLE.includes(s))
    fail({ operationAccessDeniedError: "CREATE_AS_REMOVED_NOT_PERMITTED" }, "Status REMOVED can only be set with a remove operation.", path, {
      stringValue: s,
    });
  return s;
}

function positiveMicros(v: unknown, path: PathElement[]): number {
  const n = int64(v, path);
  if (n <= 0) fail({ rangeError: "TOO_LOW" }, "Too low.", path, { int64Value: String(n) });
  return n;
}

function textLength(v: unknown, max: number, path: PathElement[], measure: (s: string) => number = (s) => [...s].length): string {
  const s = str(v, path);
  if (s.trim() === "") fail({ stringLengthError: "EMPTY" }, MSG.EMPTY, path);
  if (measure(s) > max) fail({ stringLengthError: "TOO_LONG" }, `${MSG.TOO_LONG} The maximum length is ${max}.`, path, { stringValue: s });
  return s;
}

/**
 * How Google measures ad text: a keyword-insertion tag ({KeyWord:Default}) counts its default
 * text, and a double-width (CJK, full-width) character counts 2, which halves the limits.
 */
function adTextWidth(s: string): number {
  let width = 0;
  for (const ch of s.replace(/\{(?:keyword|Keyword|KeyWord|KEYWord|KeyWORD):([^{}]*)\}/g, "$1").normalize("NFC")) {
    width += eastAsianWidth(ch.codePointAt(0)!) === 2 ? 2 : 1;
  }
  return width;
}

function keywordText(v: unknown, path: PathElement[]): string {
  if (v === undefined || v === "") fail({ fieldError: "REQUIRED" }, MSG.REQUIRED, path);
  const s = str(v, path).trim().replace(/\s+/g, " ");
  if ([...s].length > 80) fail({ criterionError: "KEYWORD_TEXT_TOO_LONG" }, "Keyword text is too long.", path, { stringValue: s });
  if (s.split(" ").length > 10) fail({ criterionError: "KEYWORD_HAS_TOO_MANY_WORDS" }, "Keyword has too many words.", path, { stringValue: s });
  if (KEYWORD_INVALID.test(s)) fail({ criterionError: "KEYWORD_HAS_INVALID_CHARS" }, "Keyword has invalid characters.", path, { stringValue: s });
  return s;
}

function checkUrl(v: unknown, path: PathElement[]): string {
  const s = str(v, path);
  if (!/^[a-z][a-z0-9+.-]*:/i.test(s)) fail({ adError: "URL_NO_SCHEME" }, "The URL has no scheme.", path, { stringValue: s });
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    fail({ adError: "URL_MALFORMED" }, "The URL is malformed.", path, { stringValue: s });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    fail({ adError: "URL_INVALID_SCHEME" }, "The URL has an invalid scheme.", path, { stringValue: s });
  if (!url.hostname.includes(".")) fail({ adError: "URL_NO_TOP_LEVEL_DOMAIN" }, "The URL has no top-level domain.", path, { stringValue: s });
  return s;
}

/** int64 fields go out as strings in proto3 JSON. */
function toApiJson(v: unknown, key = ""): unknown {
  if (Array.isArray(v)) return v.map((x) => toApiJson(x));
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toApiJson(x, k)]));
  if (typeof v === "number" && (key === "id" || key === "criterionId" || key.endsWith("Micros"))) return String(v);
  return v;
}

function pick(obj: Record<string, unknown>, paths: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of paths) {
    const parts = p.split(".");
    let src: unknown = obj;
    for (const k of parts) src = isObject(src) ? src[k] : undefined;
    if (src === undefined) continue;
    let dst = out;
    for (const k of parts.slice(0, -1)) dst = (dst[k] ??= {}) as Record<string, unknown>;
    dst[parts[parts.length - 1]] = structuredClone(src);
  }
  return out;
}

// ---- planning ----

interface Planned {
  resourceName: string;
  kind: Kind;
  remove: boolean;
  apply: () => void;
}

/** Per-request state: overlay of planned changes and temp ids. */
class Plan {
  /** resource name → API-shaped snapshot after the planned changes (null = not existing). */
  private overlay = new Map<string, Record<string, unknown>>();
  /** temp id ("-1") → real resource name, or null when its create failed. */
  readonly tempIds = new Map<string, string | null>();
  /** Resource names created by this request, per collection (for duplicate-name checks). */
  readonly created: Array<{ kind: Kind; resourceName: string }> = [];

  constructor(
    readonly store: AdsStore,
    readonly acct: Account,
    readonly customerId: string,
  ) {}

  view(resourceName: string): Record<string, unknown> | undefined {
    return this.overlay.get(resourceName) ?? this.store.get(resourceName);
  }

  set(resourceName: string, data: Record<string, unknown>): void {
    this.overlay.set(resourceName, data);
  }

  /** Resolves a (possibly temp-id) resource name of `collection` owned by this customer. */
  ref(raw: unknown, collection: string, path: PathElement[], what: "target" | "reference"): { name: string; data: Record<string, unknown> } {
    if (raw === undefined || raw === null || raw === "") {
      if (what === "target") fail({ requestError: "RESOURCE_NAME_MISSING" }, "Resource name is missing.", path);
      fail({ fieldError: "REQUIRED" }, MSG.REQUIRED, path);
    }
    const name = str(raw, path);
    const m = /^customers\/(\d+)\/([A-Za-z]+)\/(-?\d+)(?:~(-?\d+))?$/.exec(name);
    if (!m || m[2] !== collection || (m[4] === undefined) !== (collection === "campaigns" || collection === "campaignBudgets" || collection === "adGroups")) {
      fail({ requestError: "RESOURCE_NAME_MALFORMED" }, MSG.MALFORMED, path, { stringValue: name });
    }
    if (m[1] !== this.customerId) fail({ authorizationError: "USER_PERMISSION_DENIED" }, MSG.PERMISSION, path, { stringValue: name });
    let resolved = name;
    const first = m[3];
    if (first.startsWith("-")) {
      const real = this.tempIds.get(first);
      if (real === null)
        fail({ newResourceCreationError: "TEMP_ID_RESOURCE_HAD_ERRORS" }, "The temporary ID refers to a resource that had errors.", path, {
          stringValue: name,
        });
      if (
        real === undefined ||
        !real.includes(
          `/${collection === "adGroupCriteria" || collection === "adGroupAds" ? "adGroups" : collection === "campaignCriteria" ? "campaigns" : collection}/`,
        )
      ) {
        fail({ mutateError: "RESOURCE_NOT_FOUND" }, MSG.NOT_FOUND, path, { stringValue: name });
      }
      const realId = real.slice(real.lastIndexOf("/") + 1);
      resolved = `customers/${m[1]}/${collection}/${realId}${m[4] !== undefined ? `~${m[4]}` : ""}`;
    }
    const data = this.view(resolved);
    if (!data) fail({ mutateError: "RESOURCE_NOT_FOUND" }, MSG.NOT_FOUND, path, { stringValue: name });
    return { name: resolved, data };
  }
}

interface OpContext {
  plan: Plan;
  kind: Kind;
  /** Location prefix: ["operations", i] or ["mutate_operations", i], "campaign_operation". */
  at: PathElement[];
  origin: { userEmail: string; epochMicros: number; mutateIndex: number };
}

type ParsedOp =
  { type: "create"; res: Record<string, unknown> } | { type: "update"; res: Record<string, unknown>; mask: string[] } | { type: "remove"; name: unknown };

function parseOperation(raw: unknown, at: PathElement[]): ParsedOp {
  if (!isObject(raw)) fail({ requestError: "OPERATION_REQUIRED" }, "Operation is required.", at);
  const op = camelize(raw) as Record<string, unknown>;
  const present = (["create", "update", "remove"] as const).filter((k) => op[k] !== undefined && op[k] !== null);
  if (present.length === 0) fail({ requestError: "OPERATION_REQUIRED" }, "Operation is required.", at);
  const type = present[0];
  if (type !== "update" && op.updateMask !== undefined)
    fail({ fieldMaskError: "FIELD_MASK_NOT_ALLOWED" }, "The field mask is only allowed for update operations.", [...at, "updateMask"]);
  if (type === "remove") return { type, name: op.remove };
  if (!isObject(op[type])) fail({ fieldError: "INVALID_VALUE" }, "The operation must carry a resource.", [...at, type]);
  const res = op[type] as Record<string, unknown>;
  if (type === "create") return { type, res };
  const rawMask = op.updateMask;
  if (rawMask === undefined || rawMask === "" || (Array.isArray(rawMask) && rawMask.length === 0)) {
    fail({ fieldMaskError: "FIELD_MASK_MISSING" }, "The field mask must be provided for update operations.", [...at, "updateMask"]);
  }
  const list = typeof rawMask === "string" ? rawMask.split(",") : Array.isArray(rawMask) ? rawMask.map(String) : [String(rawMask)];
  const mask = list.map((p) => p.trim().split(".").map(camelKey).join(".")).filter((p) => p !== "");
  return { type, res, mask };
}

function checkMask(info: KindInfo, mask: string[], at: PathElement[]): void {
  for (const p of mask) {
    const where: PathElement[] = [...at, "updateMask"];
    if (info.updatable.includes(p)) continue;
    if (info.messages.includes(p))
      fail({ fieldMaskError: "FIELD_HAS_SUBFIELDS" }, `The field mask contained a field with subfields: '${p}'.`, where, { stringValue: p });
    if (info.immutable.includes(p)) fail({ fieldError: "IMMUTABLE_FIELD" }, MSG.IMMUTABLE, [...at, "update", ...p.split(".")], { stringValue: p });
    fail({ fieldMaskError: "FIELD_NOT_FOUND" }, `The field mask contained an invalid field: '${snake(p)}'.`, where, { stringValue: p });
  }
}

function planOperation(ctx: OpContext, raw: unknown): Planned {
  const { plan, kind, at } = ctx;
  const info = KINDS[kind];
  const op = parseOperation(raw, at);
  if (op.type === "remove") return planRemove(ctx, op.name);
  if (op.type === "update") {
    checkMask(info, op.mask, at);
    return planUpdate(ctx, op.res, op.mask);
  }
  const p: PathElement[] = [...at, "create"];
  // A create may name a temp id (googleAds:mutate); a real id is the server's to assign.
  let tempId: string | undefined;
  if (op.res.resourceName !== undefined) {
    const name = str(op.res.resourceName, [...p, "resourceName"]);
    const m = /^customers\/(\d+)\/([A-Za-z]+)\/([^/]+)$/.exec(name);
    if (!m || m[2] !== info.collection) fail({ requestError: "RESOURCE_NAME_MALFORMED" }, MSG.MALFORMED, [...p, "resourceName"], { stringValue: name });
    if (m[1] !== plan.customerId) fail({ authorizationError: "USER_PERMISSION_DENIED" }, MSG.PERMISSION, [...p, "resourceName"], { stringValue: name });
    const last = m[3].split("~").pop() as string;
    if (!/^-\d+$/.test(last))
      fail(
        { newResourceCreationError: "CANNOT_SET_ID_FOR_CREATE" },
        "Cannot set the id of a new resource; use a negative temporary id.",
        [...p, "resourceName"],
        { stringValue: name },
      );
    if (plan.tempIds.has(last))
      fail({ newResourceCreationError: "DUPLICATE_TEMP_IDS" }, "Temporary ids must be unique in a request.", [...p, "resourceName"], { stringValue: name });
    tempId = last;
  }
  try {
    const planned = planCreate(ctx, op.res, p);
    if (tempId) plan.tempIds.set(tempId, planned.resourceName);
    return planned;
  } catch (e) {
    if (tempId) plan.tempIds.set(tempId, null);
    throw e;
  }
}

function change(
  ctx: OpContext,
  rec: Omit<ChangeRecord, "campaignIdx" | "adGroupIdx" | "resourceType">,
  parents: { campaign?: string; adGroup?: string },
): void {
  const { plan } = ctx;
  const acct = plan.acct;
  const adGroupIdx = parents.adGroup ? acct.indexOf(`adGroups/${parents.adGroup.split("/").pop()}`) : -1;
  let campaignIdx = parents.campaign ? acct.indexOf(`campaigns/${parents.campaign.split("/").pop()}`) : -1;
  if (campaignIdx < 0 && adGroupIdx >= 0) campaignIdx = acct.adGroups[adGroupIdx].campaignIdx;
  recordChange(
    plan.store,
    acct,
    { ...rec, resourceType: KINDS[ctx.kind].changeType, campaignIdx, adGroupIdx },
    {
      clientType: "GOOGLE_ADS_API",
      userEmail: ctx.origin.userEmail,
      epochMicros: ctx.origin.epochMicros,
      commandIndex: 0,
      mutateIndex: ctx.origin.mutateIndex,
    },
  );
}

function parentsOf(kind: Kind, data: Record<string, unknown>, resourceName: string): { campaign?: string; adGroup?: string } {
  switch (kind) {
    case "campaign":
      return { campaign: resourceName };
    case "adGroup":
      return { campaign: data.campaign as string, adGroup: resourceName };
    case "adGroupCriterion":
    case "adGroupAd":
      return { adGroup: data.adGroup as string };
    case "campaignCriterion":
      return { campaign: data.campaign as string };
    default:
      return {};
  }
}

function planRemove(ctx: OpContext, rawName: unknown): Planned {
  const { plan, kind, at } = ctx;
  const info = KINDS[kind];
  const path: PathElement[] = [...at, "remove"];
  const { name, data } = plan.ref(rawName, info.collection, path, "target");
  if (data.status === "REMOVED") {
    if (kind === "adGroupAd")
      fail({ adGroupAdError: "CANNOT_OPERATE_ON_REMOVED_ADGROUPAD" }, "Cannot operate on a removed ad group ad.", path, { stringValue: name });
    fail({ operationAccessDeniedError: "OPERATION_NOT_PERMITTED_FOR_REMOVED_RESOURCE" }, MSG.REMOVED, path, { stringValue: name });
  }
  if (kind === "campaignBudget") {
    const id = name.split("/").pop();
    const inUse = plan.acct.campaigns.some((c) => {
      const cur = plan.view(c.data.resourceName);
      return cur?.status !== "REMOVED" && String(cur?.campaignBudget).endsWith(`/campaignBudgets/${id}`);
    });
    if (inUse) fail({ campaignBudgetError: "CAMPAIGN_BUDGET_IN_USE" }, "The campaign budget is in use by a campaign.", path, { stringValue: name });
  }
  const oldStatus = data.status;
  plan.set(name, { ...data, status: "REMOVED" });
  return {
    resourceName: name,
    kind,
    remove: true,
    apply: () => {
      plan.store.update(name, { status: "REMOVED" });
      change(
        ctx,
        { resourceName: name, operation: "REMOVE", oldFields: { status: oldStatus }, newFields: { status: "REMOVED" }, changedFields: ["status"] },
        parentsOf(kind, data, name),
      );
    },
  };
}

function planUpdate(ctx: OpContext, res: Record<string, unknown>, mask: string[]): Planned {
  const { plan, kind, at } = ctx;
  const info = KINDS[kind];
  const p: PathElement[] = [...at, "update"];
  const { name, data } = plan.ref(res.resourceName, info.collection, [...p, "resourceName"], "target");
  if (data.status === "REMOVED") {
    if (kind === "adGroupAd")
      fail({ adGroupAdError: "CANNOT_OPERATE_ON_REMOVED_ADGROUPAD" }, "Cannot operate on a removed ad group ad.", p, { stringValue: name });
    fail({ operationAccessDeniedError: "OPERATION_NOT_PERMITTED_FOR_REMOVED_RESOURCE" }, MSG.REMOVED, p, { stringValue: name });
  }
  if (kind === "adGroupCriterion" && data.negative === true) {
    fail({ adGroupCriterionError: "CANT_UPDATE_NEGATIVE" }, "Negative criteria cannot be updated.", p, { stringValue: name });
  }
  const patch: Record<string, unknown> = {};
  for (const field of mask) {
    const v = res[field];
    const fp: PathElement[] = [...p, field];
    if (v === undefined || v === null) {
      // Masked but absent means "clear"; only a keyword bid and an ad group's own target CPA may be cleared here.
      if ((kind === "adGroupCriterion" && field === "cpcBidMicros") || (kind === "adGroup" && field === "targetCpaMicros")) {
        patch[field] = undefined;
        continue;
      }
      fail({ fieldError: "FIELD_CANNOT_BE_CLEARED" }, "The field cannot be cleared.", fp);
    }
    if (field === "status") patch.status = settableStatus(v, fp);
    else if (field === "cpcBidMicros") patch.cpcBidMicros = positiveMicros(v, fp);
    else if (field === "targetCpaMicros") patch.targetCpaMicros = targetCpa(v, fp);
    else if (field === "amountMicros") patch.amountMicros = budgetAmount(v, fp);
    else if (field === "name") patch.name = checkName(ctx, v, fp, name, data);
  }
  if (kind === "adGroup" && "targetCpaMicros" in patch) {
    // Output only: the ad group's own target, or else its campaign's.
    patch.effectiveTargetCpaMicros = patch.targetCpaMicros ?? campaignTargetCpa(plan, data.campaign);
  }
  // Output-only fields follow, but change history lists only what was set.
  const changedFields = Object.keys(patch).filter((k) => k !== "effectiveTargetCpaMicros" && JSON.stringify(patch[k]) !== JSON.stringify(data[k]));
  const oldFields = toApiJson(pick(data, changedFields)) as Record<string, unknown>;
  const newFields = toApiJson(pick(patch, changedFields)) as Record<string, unknown>;
  const next = { ...data, ...patch };
  for (const k of Object.keys(patch)) if (patch[k] === undefined) delete next[k];
  plan.set(name, next);
  return {
    resourceName: name,
    kind,
    remove: false,
    apply: () => {
      plan.store.update(name, patch);
      // Google logs an event only when something actually changed.
      if (changedFields.length > 0) change(ctx, { resourceName: name, operation: "UPDATE", oldFields, newFields, changedFields }, parentsOf(kind, data, name));
    },
  };
}

/** A bid target: positive, and whole cents of the currency like every bid (Google's BiddingError). */
function targetCpa(v: unknown, path: PathElement[]): number {
  const n = positiveMicros(v, path);
  if (n % 10_000 !== 0)
    fail({ biddingError: "BID_TOO_MANY_FRACTIONAL_DIGITS" }, "Bid has too many fractional digit precision.", path, { int64Value: String(n) });
  return n;
}

function campaignTargetCpa(plan: Plan, campaign: unknown): number | undefined {
  const c = typeof campaign === "string" ? plan.view(campaign) : undefined;
  const t =
    (c?.targetCpa as { targetCpaMicros?: number } | undefined)?.targetCpaMicros ??
    (c?.maximizeConversions as { targetCpaMicros?: number } | undefined)?.targetCpaMicros;
  return t || undefined;
}

function budgetAmount(v: unknown, path: PathElement[]): number {
  const n = int64(v, path);
  if (n < 0) fail({ campaignBudgetError: "NEGATIVE_MONEY_AMOUNT" }, "The budget amount must not be negative.", path, { int64Value: String(n) });
  if (n === 0) fail({ rangeError: "TOO_LOW" }, "Too low.", path, { int64Value: String(n) });
  if (n % 10_000 !== 0)
    fail({ campaignBudgetError: "NON_MULTIPLE_OF_MINIMUM_CURRENCY_UNIT" }, "The budget amount must be a multiple of the minimum currency unit.", path, {
      int64Value: String(n),
    });
  if (n > 1_000_000_000_000_000) fail({ campaignBudgetError: "MONEY_AMOUNT_TOO_LARGE" }, "The budget amount is too large.", path, { int64Value: String(n) });
  return n;
}

/** Name rules per kind: length, and uniqueness where Google enforces it. */
function checkName(ctx: OpContext, v: unknown, path: PathElement[], self: string | undefined, scope: Record<string, unknown>): string {
  const { plan, kind } = ctx;
  if (v === undefined || v === "") {
    if (kind === "adGroup") fail({ adGroupError: "MISSING_ADGROUP_NAME" }, "Ad group name is missing.", path);
    fail({ fieldError: "REQUIRED" }, MSG.REQUIRED, path);
  }
  const name = textLength(v, 255, path);
  const acct = plan.acct;
  const others: string[] =
    kind === "campaign"
      ? acct.campaigns.map((c) => c.data.resourceName)
      : kind === "adGroup"
        ? acct.adGroups.map((g) => g.data.resourceName)
        : kind === "campaignBudget"
          ? acct.budgets.map((b) => b.data.resourceName)
          : [];
  others.push(...plan.created.filter((c) => c.kind === kind).map((c) => c.resourceName));
  for (const rn of others) {
    if (rn === self) continue;
    const o = plan.view(rn);
    if (!o || o.status === "REMOVED" || o.name !== name) continue;
    if (kind === "adGroup" && o.campaign !== scope.campaign) continue;
    if (kind === "campaign") fail({ campaignError: "DUPLICATE_CAMPAIGN_NAME" }, "A campaign with this name already exists.", path, { stringValue: name });
    if (kind === "adGroup")
      fail({ adGroupError: "DUPLICATE_ADGROUP_NAME" }, "An ad group with this name already exists in the campaign.", path, { stringValue: name });
    if (kind === "campaignBudget") fail({ campaignBudgetError: "DUPLICATE_NAME" }, "A budget with this name already exists.", path, { stringValue: name });
  }
  return name;
}

function activeParent(plan: Plan, raw: unknown, collection: string, path: PathElement[]): { name: string; data: Record<string, unknown> } {
  const parent = plan.ref(raw, collection, path, "reference");
  if (parent.data.status === "REMOVED")
    fail({ operationAccessDeniedError: "OPERATION_NOT_PERMITTED_FOR_REMOVED_RESOURCE" }, MSG.REMOVED, path, { stringValue: parent.name });
  return parent;
}

function planCreate(ctx: OpContext, res: Record<string, unknown>, p: PathElement[]): Planned {
  const { plan, kind } = ctx;
  const { store, acct, customerId } = plan;
  const base = `customers/${customerId}`;
  const at = (...rest: PathElement[]): PathElement[] => [...p, ...rest];
  let resourceName: string;
  let snapshot: Record<string, unknown>;
  let apply: () => void;
  let parents: { campaign?: string; adGroup?: string };

  switch (kind) {
    case "campaignBudget": {
      const name = checkName(ctx, res.name, at("name"), undefined, {});
      if (res.amountMicros === undefined) fail({ fieldError: "REQUIRED" }, MSG.REQUIRED, at("amountMicros"));
      const amountMicros = budgetAmount(res.amountMicros, at("amountMicros"));
      const deliveryMethod =
        res.deliveryMethod === undefined
          ? "STANDARD"
          : enumValue<"STANDARD" | "ACCELERATED">(res.deliveryMethod, ["STANDARD", "ACCELERATED"], at("deliveryMethod"));
      if (deliveryMethod === "ACCELERATED")
        fail({ campaignBudgetError: "CANNOT_USE_ACCELERATED_DELIVERY_MODE" }, "Accelerated delivery is no longer available.", at("deliveryMethod"));
      const id = store.allocateId();
      resourceName = `${base}/campaignBudgets/${id}`;
      const data = {
        resourceName,
        id,
        name,
        amountMicros,
        deliveryMethod,
        // The API's default for creates.
        explicitlyShared: res.explicitlyShared === undefined ? true : res.explicitlyShared === true,
        period: "DAILY" as const,
        status: "ENABLED" as const,
        type: "STANDARD" as const,
      };
      snapshot = data;
      parents = {};
      apply = () => {
        acct.budgets.push({ idx: acct.budgets.length, data: structuredClone(data) });
        store.touch();
      };
      break;
    }
    case "campaign": {
      const name = checkName(ctx, res.name, at("name"), undefined, {});
      const budget = activeParent(plan, res.campaignBudget, "campaignBudgets", at("campaignBudget"));
      if (res.advertisingChannelType === undefined) fail({ fieldError: "REQUIRED" }, MSG.REQUIRED, at("advertisingChannelType"));
      const channel = enumValue<"SEARCH" | "DISPLAY">(res.advertisingChannelType, ["SEARCH", "DISPLAY"], at("advertisingChannelType"));
      const status = res.status === undefined ? "ENABLED" : settableStatus(res.status, at("status"));
      if (res.containsEuPoliticalAdvertising === undefined) {
        fail(
          { mutateError: "EU_POLITICAL_ADVERTISING_DECLARATION_REQUIRED" },
          "The campaign must declare whether it contains EU political advertising.",
          at("containsEuPoliticalAdvertising"),
        );
      }
      const eu = enumValue<CampaignData["containsEuPoliticalAdvertising"]>(
        res.containsEuPoliticalAdvertising,
        ["CONTAINS_EU_POLITICAL_ADVERTISING", "DOES_NOT_CONTAIN_EU_POLITICAL_ADVERTISING"],
        at("containsEuPoliticalAdvertising"),
      );
      let bidding: Pick<CampaignData, "biddingStrategyType" | "manualCpc" | "maximizeConversions" | "targetSpend">;
      if (isObject(res.manualCpc)) bidding = { biddingStrategyType: "MANUAL_CPC", manualCpc: { enhancedCpcEnabled: false } };
      else if (isObject(res.maximizeConversions)) bidding = { biddingStrategyType: "MAXIMIZE_CONVERSIONS", maximizeConversions: {} };
      else if (isObject(res.targetSpend)) bidding = { biddingStrategyType: "TARGET_SPEND", targetSpend: {} };
      else fail({ fieldError: "REQUIRED" }, "A bidding strategy (manualCpc, maximizeConversions or targetSpend) is required.", at("campaignBiddingStrategy"));
      const ns = isObject(res.networkSettings) ? res.networkSettings : {};
      const networkSettings = {
        targetGoogleSearch: ns.targetGoogleSearch === undefined ? channel === "SEARCH" : ns.targetGoogleSearch === true,
        targetSearchNetwork: ns.targetSearchNetwork === undefined ? channel === "SEARCH" : ns.targetSearchNetwork === true,
        targetContentNetwork: ns.targetContentNetwork === undefined ? channel === "DISPLAY" : ns.targetContentNetwork === true,
        targetPartnerSearchNetwork: ns.targetPartnerSearchNetwork === true,
      };
      if (!networkSettings.targetGoogleSearch && !networkSettings.targetSearchNetwork && !networkSettings.targetContentNetwork) {
        fail({ campaignError: "CAMPAIGN_MUST_TARGET_AT_LEAST_ONE_NETWORK" }, "The campaign must target at least one network.", at("networkSettings"));
      }
      const id = store.allocateId();
      resourceName = `${base}/campaigns/${id}`;
      const data: CampaignData = {
        resourceName,
        id,
        name,
        status,
        servingStatus: "SERVING",
        advertisingChannelType: channel,
        campaignBudget: budget.name,
        networkSettings,
        containsEuPoliticalAdvertising: eu,
        ...bidding,
      };
      snapshot = data as unknown as Record<string, unknown>;
      parents = { campaign: resourceName };
      apply = () => {
        const budgetIdx = acct.indexOf(`campaignBudgets/${budget.name.split("/").pop()}`);
        acct.campaigns.push({ idx: acct.campaigns.length, budgetIdx, mobileShare: 0.6, tabletShare: 0.05, data: structuredClone(data) });
        store.touch();
      };
      break;
    }
    case "adGroup": {
      const campaign = activeParent(plan, res.campaign, "campaigns", at("campaign"));
      const name = checkName(ctx, res.name, at("name"), undefined, { campaign: campaign.name });
      const status = res.status === undefined ? "ENABLED" : settableStatus(res.status, at("status"));
      const defaultType = campaign.data.advertisingChannelType === "DISPLAY" ? "DISPLAY_STANDARD" : "SEARCH_STANDARD";
      const type =
        res.type === undefined ? defaultType : enumValue<"SEARCH_STANDARD" | "DISPLAY_STANDARD">(res.type, ["SEARCH_STANDARD", "DISPLAY_STANDARD"], at("type"));
      if (type !== defaultType)
        fail(
          { adGroupError: "AD_GROUP_TYPE_NOT_VALID_FOR_ADVERTISING_CHANNEL_TYPE" },
          "The ad group type is not valid for the campaign's channel type.",
          at("type"),
          { stringValue: type },
        );
      const cpcBidMicros = res.cpcBidMicros === undefined ? undefined : positiveMicros(res.cpcBidMicros, at("cpcBidMicros"));
      const id = store.allocateId();
      resourceName = `${base}/adGroups/${id}`;
      const data = { resourceName, id, name, status, type, campaign: campaign.name, ...(cpcBidMicros !== undefined ? { cpcBidMicros } : {}) };
      snapshot = data;
      parents = { campaign: campaign.name, adGroup: resourceName };
      apply = () => {
        const campaignIdx = acct.indexOf(`campaigns/${campaign.name.split("/").pop()}`);
        acct.adGroups.push({ idx: acct.adGroups.length, campaignIdx, data: structuredClone(data) });
        store.touch();
      };
      break;
    }
    case "adGroupCriterion": {
      const adGroup = activeParent(plan, res.adGroup, "adGroups", at("adGroup"));
      if (!isObject(res.keyword)) fail({ criterionError: "CONCRETE_TYPE_REQUIRED" }, "A criterion type (keyword) is required.", at("keyword"));
      const kw = res.keyword;
      const text = keywordText(kw.text, at("keyword", "text"));
      if (kw.matchType === undefined) fail({ fieldError: "REQUIRED" }, MSG.REQUIRED, at("keyword", "matchType"));
      const matchType = enumValue<MatchType>(kw.matchType, MATCH_TYPES, at("keyword", "matchType"));
      const negative = res.negative === true;
      const status = res.status === undefined ? "ENABLED" : settableStatus(res.status, at("status"));
      let cpcBidMicros: number | undefined;
      if (res.cpcBidMicros !== undefined) {
        if (negative) fail({ fieldError: "VALUE_MUST_BE_UNSET" }, "Negative criteria cannot have bids.", at("cpcBidMicros"));
        cpcBidMicros = positiveMicros(res.cpcBidMicros, at("cpcBidMicros"));
      }
      const criterionId = store.allocateId();
      const agId = adGroup.name.split("/").pop();
      resourceName = `${base}/adGroupCriteria/${agId}~${criterionId}`;
      snapshot = {
        resourceName,
        criterionId,
        adGroup: adGroup.name,
        status,
        type: "KEYWORD",
        negative,
        keyword: { text, matchType },
        ...(cpcBidMicros !== undefined ? { cpcBidMicros } : {}),
      };
      parents = { adGroup: adGroup.name };
      apply = () => {
        const adGroupIdx = acct.indexOf(`adGroups/${agId}`);
        acct.keywords.add({ criterionId, adGroupIdx, text, matchType, status, negative, cpcBidMicros });
        store.touch();
      };
      break;
    }
    case "campaignCriterion": {
      const campaign = activeParent(plan, res.campaign, "campaigns", at("campaign"));
      if (!isObject(res.keyword)) fail({ criterionError: "CONCRETE_TYPE_REQUIRED" }, "A criterion type (keyword) is required.", at("keyword"));
      if (res.negative !== true) fail({ criterionError: "CANNOT_ADD_CRITERIA_TYPE" }, "Keywords can only be excluded at the campaign level.", at("negative"));
      const text = keywordText(res.keyword.text, at("keyword", "text"));
      if (res.keyword.matchType === undefined) fail({ fieldError: "REQUIRED" }, MSG.REQUIRED, at("keyword", "matchType"));
      const matchType = enumValue<MatchType>(res.keyword.matchType, MATCH_TYPES, at("keyword", "matchType"));
      const criterionId = store.allocateId();
      const campaignId = campaign.name.split("/").pop();
      resourceName = `${base}/campaignCriteria/${campaignId}~${criterionId}`;
      const data = {
        resourceName,
        campaign: campaign.name,
        criterionId,
        type: "KEYWORD" as const,
        negative: true,
        status: "ENABLED" as const,
        keyword: { text, matchType },
      };
      snapshot = data;
      parents = { campaign: campaign.name };
      apply = () => {
        const campaignIdx = acct.indexOf(`campaigns/${campaignId}`);
        acct.campaignCriteria.push({ idx: acct.campaignCriteria.length, campaignIdx, data: structuredClone(data) });
        store.touch();
      };
      break;
    }
    case "adGroupAd": {
      const adGroup = activeParent(plan, res.adGroup, "adGroups", at("adGroup"));
      const status = res.status === undefined ? "ENABLED" : settableStatus(res.status, at("status"));
      if (!isObject(res.ad)) fail({ fieldError: "REQUIRED" }, MSG.REQUIRED, at("ad"));
      const ad = res.ad;
      const finalUrls = Array.isArray(ad.finalUrls) ? ad.finalUrls : [];
      if (finalUrls.length === 0) fail({ fieldError: "REQUIRED" }, MSG.REQUIRED, at("ad", "finalUrls"));
      const urls = finalUrls.map((u, i) => checkUrl(u, at("ad", ["finalUrls", i])));
      if (!isObject(ad.responsiveSearchAd)) fail({ adError: "INVALID_AD_TYPE" }, "Only responsive search ads can be created here.", at("ad"));
      const rsa = ad.responsiveSearchAd;
      const assets = (field: "headlines" | "descriptions", min: number, max: number, maxLen: number, pins: string[]): AdTextAsset[] => {
        const list = Array.isArray(rsa[field]) ? (rsa[field] as unknown[]) : [];
        const where = at("ad", "responsiveSearchAd", field);
        if (list.length < min)
          fail({ collectionSizeError: "TOO_FEW" }, `Too few ${field}: at least ${min} are required.`, where, { int64Value: String(list.length) });
        if (list.length > max)
          fail({ collectionSizeError: "TOO_MANY" }, `Too many ${field}: at most ${max} are allowed.`, where, { int64Value: String(list.length) });
        return list.map((h, i) => {
          const ip: PathElement[] = [...at("ad", "responsiveSearchAd"), [field, i]];
          if (!isObject(h)) fail({ fieldError: "REQUIRED" }, MSG.REQUIRED, ip);
          const text = textLength(h.text, maxLen, [...ip, "text"], adTextWidth);
          if (h.pinnedField === undefined) return { text };
          return { text, pinnedField: enumValue<NonNullable<AdTextAsset["pinnedField"]>>(h.pinnedField, pins, [...ip, "pinnedField"]) };
        });
      };
      const headlines = assets("headlines", 3, 15, 30, PIN_HEADLINE);
      const descriptions = assets("descriptions", 2, 4, 90, PIN_DESCRIPTION);
      const path1 = rsa.path1 === undefined || rsa.path1 === "" ? undefined : textLength(rsa.path1, 15, at("ad", "responsiveSearchAd", "path1"), adTextWidth);
      const path2 = rsa.path2 === undefined || rsa.path2 === "" ? undefined : textLength(rsa.path2, 15, at("ad", "responsiveSearchAd", "path2"), adTextWidth);
      if (path2 !== undefined && path1 === undefined)
        fail({ adError: "CANNOT_SET_PATH2_WITHOUT_PATH1" }, "path2 cannot be set without path1.", at("ad", "responsiveSearchAd", "path2"));
      const adId = store.allocateId();
      const agId = adGroup.name.split("/").pop();
      resourceName = `${base}/adGroupAds/${agId}~${adId}`;
      const data: AdGroupAdData = {
        resourceName,
        adGroup: adGroup.name,
        status,
        adStrength: "PENDING",
        ad: {
          resourceName: `${base}/ads/${adId}`,
          id: adId,
          type: "RESPONSIVE_SEARCH_AD",
          finalUrls: urls,
          responsiveSearchAd: { headlines, descriptions, ...(path1 ? { path1 } : {}), ...(path2 ? { path2 } : {}) },
        },
        policySummary: { approvalStatus: "APPROVED", reviewStatus: "REVIEWED" },
      };
      snapshot = data as unknown as Record<string, unknown>;
      parents = { adGroup: adGroup.name };
      apply = () => {
        const adGroupIdx = acct.indexOf(`adGroups/${agId}`);
        // New ads have no history: weight 0 keeps past ad-level metrics unchanged.
        acct.ads.push({ idx: acct.ads.length, adGroupIdx, trafficWeight: 0, data: structuredClone(data) });
        store.touch();
      };
      break;
    }
  }
  plan.set(resourceName, snapshot);
  plan.created.push({ kind, resourceName });
  const created = toApiJson(snapshot) as Record<string, unknown>;
  delete created.resourceName;
  delete created.id;
  delete created.criterionId;
  if (isObject(created.ad)) {
    delete created.ad.resourceName;
    delete created.ad.id;
  }
  const name = resourceName;
  const doApply = apply;
  return {
    resourceName: name,
    kind,
    remove: false,
    apply: () => {
      doApply();
      change(ctx, { resourceName: name, operation: "CREATE", oldFields: {}, newFields: created, changedFields: leafPaths(created) }, parents);
    },
  };
}

// ---- request ----

const TOP_LEVEL = new Set(["operations", "mutateOperations", "partialFailure", "validateOnly", "responseContentType"]);

function grpcCode(entries: GoogleAdsErrorEntry[]): { http: number; status: string; message: string; code: number } {
  if (entries.some((e) => "authorizationError" in e.errorCode)) {
    return { http: 403, status: "PERMISSION_DENIED", message: "The caller does not have permission", code: 7 };
  }
  return { http: 400, status: "INVALID_ARGUMENT", message: "Request contains an invalid argument.", code: 3 };
}

function locationText(e: GoogleAdsErrorEntry): string {
  return (e.location?.fieldPathElements ?? []).map((f) => (f.index !== undefined ? `${f.fieldName}[${f.index}]` : f.fieldName)).join(".");
}

/** Monotonic per store, so change_event resource names never collide. */
const lastMicros = new WeakMap<AdsStore, number>();

export function createMutateHandler(store: AdsStore, options: MutateHandlerOptions = {}) {
  // The store's clock by default, so change history moves with it (advanceClock).
  const now = options.now ?? (() => store.now());

  return function mutate(call: MutateCall): Record<string, unknown> {
    const acct = store.account(call.customerId);
    if (!acct) {
      throw new GoogleAdsFailureError([{ errorCode: { requestError: "INVALID_CUSTOMER_ID" }, message: "The customer id is invalid." }]);
    }
    const googleAds = call.collection === "googleAds";
    const singleKind = googleAds ? undefined : KIND_BY_COLLECTION.get(call.collection);
    if (!googleAds && !singleKind) {
      throw new GoogleAdsFailureError([], 501, "UNIMPLEMENTED", "Operation is not implemented, or supported, or enabled.");
    }
    const body = camelize(call.body) as Record<string, unknown>;
    for (const key of Object.keys(body)) {
      if (!TOP_LEVEL.has(key) || (googleAds ? key === "operations" : key === "mutateOperations")) {
        throw new GoogleAdsFailureError([], 400, "INVALID_ARGUMENT", `Invalid JSON payload received. Unknown name "${key}": Cannot find field.`);
      }
    }
    if (acct.customer.manager) {
      throw new GoogleAdsFailureError([
        { errorCode: { requestError: "CANNOT_BE_EXECUTED_BY_MANAGER_ACCOUNT" }, message: "Manager accounts cannot be modified by this operation." },
      ]);
    }
    const listKey = googleAds ? "mutateOperations" : "operations";
    const ops = Array.isArray(body[listKey]) ? (body[listKey] as unknown[]) : [];
    if (ops.length === 0) {
      throw new GoogleAdsFailureError([
        {
          errorCode: { requestError: "OPERATION_REQUIRED" },
          message: "At least one operation is required.",
          location: { fieldPathElements: [{ fieldName: snake(listKey) }] },
        },
      ]);
    }
    if (ops.length > MAX_OPERATIONS) {
      throw new GoogleAdsFailureError([
        {
          errorCode: { requestError: "TOO_MANY_MUTATE_OPERATIONS" },
          message: `Too many operations: at most ${MAX_OPERATIONS} per request.`,
          trigger: { int64Value: String(ops.length) },
        },
      ]);
    }
    const partialFailure = body.partialFailure === true;
    const validateOnly = body.validateOnly === true;
    const mutableResource = body.responseContentType === "MUTABLE_RESOURCE";

    let micros = now().getTime() * 1000;
    const last = lastMicros.get(store) ?? 0;
    if (micros <= last) micros = last + 1;
    lastMicros.set(store, micros);

    const plan = new Plan(store, acct, call.customerId);
    const planned: Array<Planned | undefined> = [];
    const errors: GoogleAdsErrorEntry[] = [];
    ops.forEach((raw, i) => {
      let kind = singleKind;
      let at: PathElement[] = [[listKey, i]];
      let opBody = raw;
      try {
        if (googleAds) {
          const wrapper = isObject(raw) ? raw : {};
          const keys = Object.keys(wrapper).map(camelKey);
          const found = keys.map((k) => KIND_BY_OPKEY.get(k)).find((k) => k !== undefined);
          if (!found) {
            const other = keys[0];
            if (other) throw new OpError([entry({ mutateError: "MUTATE_NOT_ALLOWED" }, `The emulator does not support '${snake(other)}'.`, [...at, other])]);
            fail({ requestError: "OPERATION_REQUIRED" }, "Operation is required.", at);
          }
          kind = found;
          const opKey = KINDS[found].opKey;
          opBody = wrapper[opKey] ?? wrapper[KINDS[found].opProto];
          at = [...at, opKey];
        }
        planned[i] = planOperation({ plan, kind: kind as Kind, at, origin: { userEmail: call.userEmail, epochMicros: micros, mutateIndex: i } }, opBody);
      } catch (e) {
        if (!(e instanceof OpError)) throw e;
        errors.push(...e.entries);
        planned[i] = undefined;
      }
    });

    if (errors.length > 0 && !partialFailure) {
      const g = grpcCode(errors);
      throw new GoogleAdsFailureError(errors, g.http, g.status, g.message);
    }
    const partialFailureError =
      errors.length > 0
        ? {
            code: grpcCode(errors).code,
            message:
              errors.length === 1
                ? `${errors[0].message}, at ${locationText(errors[0])}`
                : `Multiple errors in ‘details’. First error: ${errors[0].message}, at ${locationText(errors[0])}`,
            details: [{ "@type": `type.googleapis.com/google.ads.googleads.${call.version}.errors.GoogleAdsFailure`, errors, requestId: call.requestId }],
          }
        : undefined;
    if (validateOnly) return partialFailureError ? { partialFailureError } : {};

    for (const p of planned) p?.apply();

    const results = planned.map((p) => {
      if (!p) return {};
      const r: Record<string, unknown> = { resourceName: p.resourceName };
      if (mutableResource && !p.remove) {
        const data = store.get(p.resourceName);
        if (data) r[p.kind] = toApiJson(data);
      }
      return googleAds ? { [KINDS[p.kind].resultKey]: r } : r;
    });
    return {
      ...(partialFailureError ? { partialFailureError } : {}),
      [googleAds ? "mutateOperationResponses" : "results"]: results,
    };
  };
}
