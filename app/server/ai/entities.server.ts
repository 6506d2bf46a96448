import { distance } from "fastest-levenshtein";
import { sql } from "kysely";
import { getDb } from "../db/db.server";

/**
 * The one place a name a person (or a model) wrote becomes a campaign, an ad
 * group or a keyword of the account. Exact names win; then names within a
 * typo; then names that contain what was typed. One fit is the entity; two or
 * more are a choice to offer; none is "I found no campaign called …". It
 * never falls back to a different entity: a wrong guess drafts a change to the
 * wrong campaign, which is worse than a question.
 */

export type EntityKind = "campaign" | "ad_group" | "keyword";

export interface Entity {
  kind: EntityKind;
  /** The change-set API's id (keywords: adGroupId~criterionId). */
  id: string;
  name: string;
  status: string;
  campaignId: string;
  campaignName: string;
  adGroupId: string | null;
  adGroupName: string | null;
  matchType: string | null;
}

export type Resolution =
  { status: "found"; entity: Entity } | { status: "ambiguous"; phrase: string; options: Entity[] } | { status: "none"; phrase: string; kind: EntityKind };

export const KIND_NOUN: Record<EntityKind, string> = { campaign: "campaign", ad_group: "ad group", keyword: "keyword" };

// ---- text

/** Lower case, no accents, "&" as "and", everything but letters and digits a single space. */
export function normalize(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

const words = (s: string) => (s ? normalize(s).split(" ").filter(Boolean) : []);

/** Same word, a plural of it, or within a typo (one edit; two in long words). Short words must be exact. */
function closeWord(a: string, b: string): boolean {
  if (a === b) return true;
  if (a + "s" === b || b + "s" === a || a + "es" === b || b + "es" === a) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter < 4 || /\d/.test(a + b)) return false;
  return distance(a, b) <= (shorter >= 8 ? 2 : 1);
}

/** A name's forms people type: the whole name, and the part after the last "|" ("Search | Tents" → "Tents"). */
function forms(name: string): string[][] {
  const whole = words(name);
  const bar = name.lastIndexOf("|");
  const short = bar >= 0 ? words(name.slice(bar + 1)) : [];
  return short.length && short.length < whole.length ? [whole, short] : [whole];
}

const EXACT = 1;
const CLOSE = 0.9;

/** How well a typed phrase names a name: 1 exact, 0.9 within typos, less when the name only contains it, 0 not at all. */
function phraseScore(phrase: string[], name: string[]): number {
  if (phrase.length === 0 || name.length === 0) return 0;
  if (phrase.length === name.length) {
    if (phrase.every((w, i) => w === name[i])) return EXACT;
    if (phrase.every((w, i) => closeWord(w, name[i]))) return CLOSE;
  }
  if (phrase.length >= name.length) return 0;
  const ratio = phrase.length / name.length;
  // A run of the name's words ("core" in "brand core plus"), then the same words in any order.
  for (let i = 0; i + phrase.length <= name.length; i++) {
    if (phrase.every((w, j) => closeWord(w, name[i + j]))) return 0.5 + 0.3 * ratio;
  }
  if (phrase.every((w) => name.some((n) => closeWord(w, n)))) return 0.4 + 0.3 * ratio;
  return 0;
}

export interface Ranked {
  entity: Entity;
  score: number;
}

/** Every entity the phrase could name, best first; the short form ("Tents") counts a hair less than the whole name. */
export function rankMatches(phrase: string, entities: Entity[]): Ranked[] {
  const typed = words(phrase);
  return entities
    .map((entity) => ({
      entity,
      score: Math.max(...forms(entity.name).map((f, i) => phraseScore(typed, f) - (i === 0 ? 0 : 0.01))),
    }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || statusRank(a.entity) - statusRank(b.entity) || a.entity.name.localeCompare(b.entity.name));
}

const statusRank = (e: Entity) => (e.status === "ENABLED" ? 0 : e.status === "PAUSED" ? 1 : 2);

/** The best tier decides: one exact name, else one within typos, else one that contains the phrase. Two or more in it: ask. */
export function resolveIn(phrase: string, kind: EntityKind, entities: Entity[]): Resolution {
  const ranked = rankMatches(phrase, entities);
  if (ranked.length === 0) return { status: "none", phrase: phrase.trim(), kind };
  const tier = (s: number) => (s >= EXACT - 0.01 ? 2 : s >= CLOSE - 0.01 ? 1 : 0);
  const best = tier(ranked[0].score);
  const fits = ranked.filter((r) => tier(r.score) === best);
  if (fits.length === 1) return { status: "found", entity: fits[0].entity };
  return { status: "ambiguous", phrase: phrase.trim(), options: fits.slice(0, 6).map((r) => r.entity) };
}

// ---- names in a sentence

export interface Mention {
  entity: Entity;
  /** Word positions [start, end) in the sentence. */
  start: number;
  end: number;
  exact: boolean;
  /** The words as the sentence has them. */
  text: string;
}

/**
 * The entities whose name (or the part after "|") appears in a sentence. Longer
 * names win over names inside them ("Family Tents" over "Tents", "Brand - Core
 * Plus" over "Brand - Core"); entities named by the same words are all kept (a
 * choice). `typos` allows a typo per word (people's questions, not titles).
 */
export function mentionsIn(sentence: string, entities: Entity[], opts: { typos: boolean }): Mention[] {
  const text = words(sentence);
  const found: Mention[] = [];
  for (const entity of entities) {
    for (const form of forms(entity.name)) {
      // One-word names within a typo only from 5 letters on: "tens" is not "tents", "Tennts" is.
      const fuzzy = opts.typos && (form.length > 1 || form[0].length >= 5);
      for (let i = 0; i + form.length <= text.length; i++) {
        const exact = form.every((w, j) => w === text[i + j] || w + "s" === text[i + j] || w === text[i + j] + "s");
        if (exact || (fuzzy && form.every((w, j) => closeWord(w, text[i + j])))) {
          found.push({ entity, start: i, end: i + form.length, exact, text: text.slice(i, i + form.length).join(" ") });
          break;
        }
      }
    }
  }
  const longest = found.sort((a, b) => b.end - b.start - (a.end - a.start) || Number(b.exact) - Number(a.exact));
  const kept: Mention[] = [];
  for (const m of longest) {
    if (kept.some((k) => k.entity === m.entity)) continue;
    const inside = kept.some((k) => m.start < k.end && k.start < m.end && !(k.start === m.start && k.end === m.end));
    if (!inside) kept.push(m);
  }
  return kept;
}

// ---- the account's entities

const MAX_KEYWORDS = 2000;

export async function loadCampaigns(customerId: string): Promise<Entity[]> {
  const rows = await getDb().selectFrom("ads_campaigns").select(["id", "name", "status"]).where("customer_id", "=", customerId).execute();
  return rows.map((r) => ({
    kind: "campaign",
    id: r.id,
    name: r.name,
    status: r.status,
    campaignId: r.id,
    campaignName: r.name,
    adGroupId: null,
    adGroupName: null,
    matchType: null,
  }));
}

export async function loadAdGroups(customerId: string): Promise<Entity[]> {
  const rows = await getDb()
    .selectFrom("ads_ad_groups as g")
    .innerJoin("ads_campaigns as c", (j) => j.onRef("c.customer_id", "=", "g.customer_id").onRef("c.id", "=", "g.campaign_id"))
    .select(["g.id", "g.name", "g.status", "g.campaign_id", "c.name as campaign_name"])
    .where("g.customer_id", "=", customerId)
    .execute();
  return rows.map((r) => ({
    kind: "ad_group",
    id: r.id,
    name: r.name,
    status: r.status,
    campaignId: r.campaign_id,
    campaignName: r.campaign_name,
    adGroupId: r.id,
    adGroupName: r.name,
    matchType: null,
  }));
}

/** Positive, not removed keywords: those with the given ids, and those containing any word of `phrases` (a typo in every word finds none). */
export async function loadKeywords(customerId: string, by: { ids?: string[]; phrases?: string[] }): Promise<Entity[]> {
  const pairs = (by.ids ?? []).map((id) => id.split("~")).filter((p) => p.length === 2);
  const terms = [...new Set((by.phrases ?? []).flatMap((p) => words(p)).filter((w) => w.length >= 2))].slice(0, 12);
  if (pairs.length === 0 && terms.length === 0) return [];
  const rows = await getDb()
    .selectFrom("ads_keywords as k")
    .innerJoin("ads_ad_groups as g", (j) => j.onRef("g.customer_id", "=", "k.customer_id").onRef("g.id", "=", "k.ad_group_id"))
    .innerJoin("ads_campaigns as c", (j) => j.onRef("c.customer_id", "=", "k.customer_id").onRef("c.id", "=", "k.campaign_id"))
    .select(["k.ad_group_id", "k.criterion_id", "k.text", "k.match_type", "k.status", "k.campaign_id", "c.name as campaign_name", "g.name as ad_group_name"])
    .where("k.customer_id", "=", customerId)
    .where("k.negative", "=", 0)
    .where("k.status", "!=", "REMOVED")
    .where((eb) =>
      eb.or([
        ...pairs.map(([g, c]) => eb.and([eb("k.ad_group_id", "=", g), eb("k.criterion_id", "=", c)])),
        ...terms.map((t) => eb(sql`lower(${sql.ref("k.text")})`, "like", `%${t}%`)),
      ]),
    )
    .orderBy("k.criterion_id")
    .limit(MAX_KEYWORDS)
    .execute();
  return rows.map((r) => ({
    kind: "keyword",
    id: `${r.ad_group_id}~${r.criterion_id}`,
    name: r.text,
    status: r.status,
    campaignId: r.campaign_id,
    campaignName: r.campaign_name,
    adGroupId: r.ad_group_id,
    adGroupName: r.ad_group_name,
    matchType: r.match_type,
  }));
}

/** What the phrase a person typed names, among the account's entities of one kind. */
export async function resolveEntity(customerId: string, kind: EntityKind, phrase: string): Promise<Resolution> {
  const entities =
    kind === "campaign"
      ? await loadCampaigns(customerId)
      : kind === "ad_group"
        ? await loadAdGroups(customerId)
        : await loadKeywords(customerId, { phrases: [phrase] });
  return resolveIn(phrase, kind, entities);
}

// ---- saying it

/** "**Brand - Core** (campaign, enabled)", with where an ad group or keyword lives. */
export function describeEntity(e: Entity): string {
  const where =
    e.kind === "ad_group"
      ? ` in ${e.campaignName}`
      : e.kind === "keyword"
        ? ` (${String(e.matchType).toLowerCase()}) in ${e.adGroupName}, ${e.campaignName}`
        : "";
  return `**${e.name}**${where}${e.status === "ENABLED" ? "" : `, ${e.status.toLowerCase()}`}`;
}

/** The answer when the name did not resolve to exactly one entity: a choice, or "I found no … called …". */
export function unresolvedText(r: Exclude<Resolution, { status: "found" }>, kind: EntityKind): string {
  const noun = KIND_NOUN[kind];
  if (r.status === "none") {
    return `I found no ${noun} called “${r.phrase}” in this account, so I changed nothing and drafted nothing. Check the name in the ${noun === "keyword" ? "campaign's Keywords tab" : "campaigns list"}, or ask again with the name as it is written there.`;
  }
  return [
    `More than one ${noun} fits “${r.phrase}”; which one do you mean?`,
    r.options.map((e, i) => `${i + 1}. ${describeEntity(e)}`).join("\n"),
    `Ask again with the full name${kind === "keyword" ? " and its ad group" : ""}; I drafted nothing yet.`,
  ].join("\n\n");
}
