import type { DB } from "../db/db.server";
import type { Change, ChangeOperation, ChangeResourceKind } from "../db/schema";
import { getConfig } from "../env.server";
import type { Fields } from "./kinds.server";

/**
 * Which budget, bid or target moves are large enough to need the person's
 * explicit confirmation (CHANGE_CONFIRM_PERCENT, up or down). A move is
 * measured from the value in force: the item's own value, or, when it has
 * none, what applies to it instead. A keyword without a bid of its own bids
 * its ad group's default bid, a new keyword with a bid is compared with that
 * same default, and an ad group without a target CPA of its own follows its
 * campaign's target; without this, a bid set from "not set" to ten times the
 * ad group's bid would never ask.
 */

/** Whether moving from `before` to `after` is large enough to need an explicit confirmation. */
export function isLargeMove(before: unknown, after: unknown, percent = getConfig().CHANGE_CONFIRM_PERCENT): boolean {
  if (typeof before !== "number" || typeof after !== "number" || before <= 0) return false;
  return (Math.abs(after - before) / before) * 100 > percent;
}

/** A change as proposed or stored: enough to tell what it moves and from where. */
export interface MoveLike {
  kind: ChangeResourceKind;
  operation: ChangeOperation;
  resourceName: string | null;
  before: Fields | null;
  after: Fields | null;
}

/** A stored change as a move. */
export function moveOf(c: Pick<Change, "resource_kind" | "operation" | "resource_name" | "before_json" | "after_json">): MoveLike {
  const parse = (s: string | null) => (s === null ? null : (JSON.parse(s) as Fields));
  return { kind: c.resource_kind, operation: c.operation, resourceName: c.resource_name, before: parse(c.before_json), after: parse(c.after_json) };
}

const adGroupOf = (c: MoveLike): string | null => {
  if (c.kind === "keyword") {
    const fromName = /\/adGroupCriteria\/(\d+)~/.exec(c.resourceName ?? "")?.[1];
    const fromParent = /\/adGroups\/(\d+)$/.exec(String(c.after?.adGroup ?? ""))?.[1];
    return fromName ?? fromParent ?? null;
  }
  if (c.kind === "ad_group") return /\/adGroups\/(\d+)$/.exec(c.resourceName ?? "")?.[1] ?? null;
  return null;
};

/**
 * The values in force for each change's money fields when the item has none of its own,
 * read from the synced copy (one read per ad group, however many changes).
 */
export async function valuesInForce(db: DB, customerId: string, changes: MoveLike[]): Promise<Array<Fields>> {
  const ids = [...new Set(changes.map(adGroupOf).filter((id): id is string => id !== null))];
  const rows = ids.length
    ? await db
        .selectFrom("ads_ad_groups as g")
        .innerJoin("ads_campaigns as c", (j) => j.onRef("c.customer_id", "=", "g.customer_id").onRef("c.id", "=", "g.campaign_id"))
        .select(["g.id", "g.cpc_bid_micros", "c.target_cpa_micros"])
        .where("g.customer_id", "=", customerId)
        .where("g.id", "in", ids)
        .execute()
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return changes.map((c) => {
    const group = byId.get(adGroupOf(c) ?? "");
    if (!group) return {};
    if (c.kind === "keyword") return { cpcBidMicros: group.cpc_bid_micros };
    return { targetCpaMicros: group.target_cpa_micros };
  });
}

/** The money field's starting point: the item's own value, else the value in force. */
export function startingValue(c: MoveLike, key: string, inForce: Fields): unknown {
  const own = c.operation === "update" ? c.before?.[key] : undefined;
  return typeof own === "number" && own > 0 ? own : inForce[key];
}

/** Per change: does it move a budget, bid or target by more than CHANGE_CONFIRM_PERCENT from the value in force? */
export async function largeMoves(db: DB, customerId: string, changes: MoveLike[]): Promise<boolean[]> {
  const inForce = await valuesInForce(db, customerId, changes);
  return changes.map((c, i) => {
    if (c.operation === "remove" || !c.after) return false;
    // Creates: only a keyword's own bid has something in force to compare with.
    const keys = Object.keys(c.after).filter((k) => k.endsWith("Micros") && (c.operation === "update" || (c.kind === "keyword" && k === "cpcBidMicros")));
    return keys.some((k) => isLargeMove(startingValue(c, k, inForce[i]), c.after![k]));
  });
}
