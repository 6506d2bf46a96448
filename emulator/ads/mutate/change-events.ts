// change_event rows: the audit trail Google keeps for the last 30 days. API
// writes append them through recordChange(); the demo store also gets a few
// "outside" changes (web UI, scripts, auto-applied recommendations) so an
// importer has something that did not come from this app.

import type { Account, AdsStore } from "../store/store";
import type { ChangeEventData } from "../store/types";
import { Rng } from "../util/prng";
import { MATCH_TYPE_VALUES, STATUS_VALUES } from "../store/columns";

export type ChangeResourceType = "CAMPAIGN" | "CAMPAIGN_BUDGET" | "AD_GROUP" | "AD_GROUP_CRITERION" | "AD_GROUP_AD" | "CAMPAIGN_CRITERION";

/** ChangedResource is a oneof wrapper keyed by the resource's JSON name. */
const CHANGED_RESOURCE_KEY: Record<ChangeResourceType, string> = {
  CAMPAIGN: "campaign",
  CAMPAIGN_BUDGET: "campaignBudget",
  AD_GROUP: "adGroup",
  AD_GROUP_CRITERION: "adGroupCriterion",
  AD_GROUP_AD: "adGroupAd",
  CAMPAIGN_CRITERION: "campaignCriterion",
};

export interface ChangeRecord {
  resourceType: ChangeResourceType;
  resourceName: string;
  operation: "CREATE" | "UPDATE" | "REMOVE";
  /** Only the changed fields, API-shaped (int64 as strings), like Google. */
  oldFields: Record<string, unknown>;
  newFields: Record<string, unknown>;
  /** camelCase FieldMask paths. */
  changedFields: string[];
  campaignIdx: number;
  adGroupIdx: number;
}

export interface ChangeOrigin {
  clientType: string;
  userEmail: string;
  epochMicros: number;
  commandIndex: number;
  mutateIndex: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** "YYYY-MM-DD HH:MM:SS.ffffff" in the account's time zone, Google's change_date_time format. */
export function formatChangeDateTime(epochMicros: number, timeZone: string): string {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, f);
  }
  const ms = Math.floor(epochMicros / 1000);
  const parts = f.formatToParts(new Date(ms));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "00";
  const frac = String(((epochMicros % 1_000_000) + 1_000_000) % 1_000_000).padStart(6, "0");
  return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")}:${get("second")}.${frac}`;
}

export function recordChange(store: AdsStore, acct: Account, rec: ChangeRecord, origin: ChangeOrigin): void {
  const key = CHANGED_RESOURCE_KEY[rec.resourceType];
  const campaign = rec.campaignIdx >= 0 ? acct.campaigns[rec.campaignIdx]?.data.resourceName : undefined;
  const adGroup = rec.adGroupIdx >= 0 ? acct.adGroups[rec.adGroupIdx]?.data.resourceName : undefined;
  const data: ChangeEventData = {
    resourceName: `customers/${acct.customerId}/changeEvents/${origin.epochMicros}~${origin.commandIndex}~${origin.mutateIndex}`,
    changeDateTime: formatChangeDateTime(origin.epochMicros, acct.customer.timeZone),
    changeResourceType: rec.resourceType,
    changeResourceName: rec.resourceName,
    clientType: origin.clientType,
    userEmail: origin.userEmail,
    resourceChangeOperation: rec.operation,
    changedFields: rec.changedFields.join(","),
    oldResource: { [key]: rec.oldFields },
    newResource: { [key]: rec.newFields },
    ...(campaign ? { campaign } : {}),
    ...(adGroup ? { adGroup } : {}),
  };
  store.recordChangeEvent(acct.customerId, {
    timestampMicros: origin.epochMicros,
    campaignIdx: rec.campaignIdx,
    adGroupIdx: rec.adGroupIdx,
    data,
  });
}

/** Leaf paths of an API-shaped object, camelCase, as a FieldMask lists them. */
export function leafPaths(obj: Record<string, unknown>, prefix = ""): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    const p = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length > 0) out.push(...leafPaths(v as Record<string, unknown>, p));
    else out.push(p);
  }
  return out;
}

// ---- demo seeding ----

const PEOPLE = ["jordan.lee@northwind-digital.example", "priya.shah@northwind-digital.example"];
const SCRIPT_OWNER = "automation@northwind-digital.example";
/** What Google shows as the author of auto-applied recommendations. */
const RECOMMENDATIONS_USER = "Recommendations Auto-Apply";

/**
 * A handful of changes made outside this app within the last 30 days, chosen
 * so the new values agree with the generated current state. Deterministic in
 * the seed and "today" (a day number in UTC).
 */
export function seedDemoChangeEvents(store: AdsStore, acct: Account, seed: number, today: number): void {
  const rng = new Rng(seed ^ 0xc4a9_e001);
  const events: Array<{ rec: ChangeRecord; clientType: string; userEmail: string; daysAgo: number }> = [];
  const person = () => PEOPLE[rng.int(0, PEOPLE.length - 1)];

  const campaigns = acct.campaigns.filter((c) => c.data.status !== "REMOVED");
  if (campaigns.length > 0) {
    const c = campaigns[rng.int(0, campaigns.length - 1)];
    const b = acct.budgets[c.budgetIdx];
    if (b) {
      const old = Math.max(10_000, Math.round((b.data.amountMicros * 0.8) / 10_000) * 10_000);
      events.push({
        rec: {
          resourceType: "CAMPAIGN_BUDGET",
          resourceName: b.data.resourceName,
          operation: "UPDATE",
          oldFields: { amountMicros: String(old) },
          newFields: { amountMicros: String(b.data.amountMicros) },
          changedFields: ["amountMicros"],
          campaignIdx: c.idx,
          adGroupIdx: -1,
        },
        clientType: "GOOGLE_ADS_RECOMMENDATIONS",
        userEmail: RECOMMENDATIONS_USER,
        daysAgo: rng.int(12, 25),
      });
    }
    const renamed = campaigns[rng.int(0, campaigns.length - 1)];
    events.push({
      rec: {
        resourceType: "CAMPAIGN",
        resourceName: renamed.data.resourceName,
        operation: "UPDATE",
        oldFields: { name: `${renamed.data.name} (old)` },
        newFields: { name: renamed.data.name },
        changedFields: ["name"],
        campaignIdx: renamed.idx,
        adGroupIdx: -1,
      },
      clientType: "GOOGLE_ADS_WEB_CLIENT",
      userEmail: person(),
      daysAgo: rng.int(15, 28),
    });
  }

  const kw = acct.keywords;
  const pick = (want: (i: number) => boolean): number => {
    if (kw.count === 0) return -1;
    const start = rng.int(0, kw.count - 1);
    for (let n = 0; n < kw.count; n++) {
      const i = (start + n) % kw.count;
      if (want(i)) return i;
    }
    return -1;
  };
  const kwEvent = (i: number, op: ChangeRecord["operation"], oldFields: Record<string, unknown>, newFields: Record<string, unknown>): ChangeRecord => {
    const g = kw.adGroupIdx[i];
    return {
      resourceType: "AD_GROUP_CRITERION",
      resourceName: acct.keywordResourceName(i),
      operation: op,
      oldFields,
      newFields,
      changedFields: Object.keys(newFields).flatMap((k) => leafPaths({ [k]: newFields[k] })),
      campaignIdx: acct.adGroups[g].campaignIdx,
      adGroupIdx: g,
    };
  };
  const paused = pick((i) => STATUS_VALUES[kw.status[i]] === "PAUSED" && kw.negative[i] === 0);
  if (paused >= 0) {
    events.push({
      rec: kwEvent(paused, "UPDATE", { status: "ENABLED" }, { status: "PAUSED" }),
      clientType: "GOOGLE_ADS_WEB_CLIENT",
      userEmail: person(),
      daysAgo: rng.int(3, 10),
    });
  }
  const bid = pick((i) => !Number.isNaN(kw.cpcBid[i]) && kw.negative[i] === 0 && STATUS_VALUES[kw.status[i]] === "ENABLED");
  if (bid >= 0) {
    const cur = kw.cpcBid[bid];
    const old = Math.max(10_000, Math.round((cur * 0.85) / 10_000) * 10_000);
    events.push({
      rec: kwEvent(bid, "UPDATE", { cpcBidMicros: String(old) }, { cpcBidMicros: String(cur) }),
      clientType: "GOOGLE_ADS_SCRIPTS",
      userEmail: SCRIPT_OWNER,
      daysAgo: rng.int(1, 6),
    });
  }
  const neg = pick((i) => kw.negative[i] === 1 && STATUS_VALUES[kw.status[i]] === "ENABLED");
  if (neg >= 0) {
    const g = kw.adGroupIdx[neg];
    events.push({
      rec: kwEvent(
        neg,
        "CREATE",
        {},
        {
          adGroup: acct.adGroups[g].data.resourceName,
          status: "ENABLED",
          negative: true,
          keyword: { text: kw.text[neg], matchType: MATCH_TYPE_VALUES[kw.matchType[neg]] },
        },
      ),
      clientType: "GOOGLE_ADS_WEB_CLIENT",
      userEmail: person(),
      daysAgo: rng.int(5, 20),
    });
  }
  const ad = acct.ads.find((a) => a.data.status === "PAUSED") ?? acct.ads[0];
  if (ad) {
    const g = ad.adGroupIdx;
    events.push({
      rec: {
        resourceType: "AD_GROUP_AD",
        resourceName: ad.data.resourceName,
        operation: "UPDATE",
        oldFields: { status: ad.data.status === "PAUSED" ? "ENABLED" : "PAUSED" },
        newFields: { status: ad.data.status },
        changedFields: ["status"],
        campaignIdx: acct.adGroups[g].campaignIdx,
        adGroupIdx: g,
      },
      clientType: "GOOGLE_ADS_WEB_CLIENT",
      userEmail: person(),
      daysAgo: rng.int(2, 14),
    });
  }

  // Midday UTC ± a few hours, at least a day back: never in the account's future.
  const stamped = events.map((e) => ({
    ...e,
    micros: ((today - e.daysAgo) * 86_400 + rng.int(8 * 3600, 16 * 3600)) * 1_000_000 + rng.int(0, 999_999),
  }));
  stamped.sort((a, b) => a.micros - b.micros);
  for (const e of stamped) {
    recordChange(store, acct, e.rec, { clientType: e.clientType, userEmail: e.userEmail, epochMicros: e.micros, commandIndex: 0, mutateIndex: 0 });
  }
}
