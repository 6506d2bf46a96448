import type { Action } from "~/lib/change-actions";
import { KIND_NOUN, loadAdGroups, loadCampaigns, loadKeywords, mentionsIn, normalize, type Entity } from "./entities.server";

/**
 * A proposal says what it changes in its title ("Raise the daily budget of
 * Search | Tents …") and does it in its actions (ids). A model that picked the
 * wrong id writes one and does the other; a person reviewing the title would
 * approve a change to a different campaign. So a proposal whose title names
 * campaigns, ad groups or quoted keywords none of which its actions touch,
 * while its actions touch something the title does not name, is refused, with
 * both named so the model can correct it.
 */

interface Touched {
  label: string;
  /** What the change is to: a keyword (or a keyword text added), an ad group, a campaign. */
  level: Level;
  id: string;
  campaignId: string | null;
  adGroupId: string | null;
  keywordText: string | null;
}

type Level = "campaign" | "ad_group" | "keyword";

/** Quoted spans (“…”, "…", ‘…’): keyword and search-term texts, not campaign names. */
const QUOTED = /“([^”]{1,120})”|"([^"]{1,120})"|‘([^’]{1,120})’/g;

function touchedBy(actions: Action[], campaigns: Map<string, Entity>, adGroups: Map<string, Entity>, keywords: Map<string, Entity>): Touched[] {
  const campaign = (id: string): Touched => ({
    label: `campaign “${campaigns.get(id)?.name ?? id}” (${id})`,
    level: "campaign",
    id,
    campaignId: id,
    adGroupId: null,
    keywordText: null,
  });
  const adGroup = (id: string): Touched => {
    const g = adGroups.get(id);
    return { label: `ad group “${g?.name ?? id}” (${id})`, level: "ad_group", id, campaignId: g?.campaignId ?? null, adGroupId: id, keywordText: null };
  };
  const keyword = (id: string): Touched => {
    const k = keywords.get(id);
    const groupId = id.split("~")[0];
    const g = adGroups.get(groupId);
    return {
      label: `keyword “${k?.name ?? id}” in ad group “${g?.name ?? groupId}”`,
      level: "keyword",
      id,
      campaignId: g?.campaignId ?? null,
      adGroupId: groupId,
      keywordText: k ? normalize(k.name) : null,
    };
  };
  const texts = (parent: Touched, list: Array<{ text: string }>): Touched[] =>
    list.map((k) => ({ ...parent, label: `keyword “${k.text}” in ${parent.label}`, level: "keyword", id: normalize(k.text), keywordText: normalize(k.text) }));
  return actions.flatMap((a): Touched[] => {
    switch (a.type) {
      case "status":
        return a.ids.map((id) =>
          a.kind === "campaign" ? campaign(id) : a.kind === "ad_group" ? adGroup(id) : a.kind === "keyword" ? keyword(id) : adGroup(id.split("~")[0]),
        );
      case "budget":
        return [campaign(a.campaignId)];
      case "bid":
        return a.items.map((i) => (a.kind === "keyword" ? keyword(i.id) : adGroup(i.id)));
      case "target_cpa":
      case "create_rsa":
        return [adGroup(a.adGroupId)];
      case "add_keywords":
        return [adGroup(a.adGroupId), ...texts(adGroup(a.adGroupId), a.keywords)];
      case "add_negatives": {
        const parent = a.level === "campaign" ? campaign(a.parentId) : adGroup(a.parentId);
        return [parent, ...texts(parent, a.keywords)];
      }
      case "remove_keywords":
        return a.ids.map(keyword);
      case "remove_negatives":
        return a.ids.map((id) => (a.level === "campaign" ? campaign(id.split("~")[0]) : adGroup(id.split("~")[0])));
    }
  });
}

type Named = { entity: Entity } | { text: string };

function relates(n: Named, t: Touched): boolean {
  if ("text" in n) return t.keywordText === n.text;
  const e = n.entity;
  if (e.kind === "campaign") return t.campaignId === e.id;
  // An ad group relates to changes inside it, and to changes of its whole campaign.
  return t.adGroupId === e.id || (t.adGroupId === null && t.campaignId === e.campaignId);
}

const describeNamed = (n: Named) => ("text" in n ? `keyword “${n.text}”` : `${KIND_NOUN[n.entity.kind]} “${n.entity.name}”`);

/** Why the proposal's title and actions disagree, for the model to read; null when they agree (or the title names nothing). */
export async function titleMismatch(customerId: string, title: string, actions: Action[]): Promise<string | null> {
  const quoted = [...title.matchAll(QUOTED)].map((m) => (m[1] ?? m[2] ?? m[3]).trim()).filter(Boolean);
  const plain = title.replace(QUOTED, " ");
  const keywordIds = actions.flatMap((a) =>
    a.type === "remove_keywords" || (a.type === "status" && a.kind === "keyword")
      ? a.ids
      : a.type === "bid" && a.kind === "keyword"
        ? a.items.map((i) => i.id)
        : [],
  );
  const [campaigns, adGroups, keywords] = await Promise.all([
    loadCampaigns(customerId),
    loadAdGroups(customerId),
    loadKeywords(customerId, { ids: keywordIds, phrases: quoted }),
  ]);
  const byId = (list: Entity[]) => new Map(list.map((e) => [e.id, e]));
  const touched = touchedBy(actions, byId(campaigns), byId(adGroups), byId(keywords));
  const keywordTexts = new Set(keywords.map((k) => normalize(k.name)));
  const named: Named[] = [
    ...mentionsIn(plain, [...campaigns, ...adGroups], { typos: false }).map((m) => ({ entity: m.entity })),
    // A quoted text is a keyword the title names only when the account has such a keyword.
    ...[...new Set(quoted.map(normalize))].filter((t) => keywordTexts.has(t)).map((text) => ({ text })),
  ];
  if (named.length === 0 || touched.length === 0) return null;
  // Most specific first: a title naming keyword A in ad group G, with actions on keyword B of G, names the wrong keyword.
  for (const level of ["keyword", "ad_group", "campaign"] as const) {
    const namedHere = named.filter((n) => levelOf(n) === level);
    const touchedHere = touched.filter((t) => t.level === level);
    const same = (n: Named, t: Touched) => ("text" in n ? t.keywordText === n.text : t.id === n.entity.id);
    const wrong = disagreement(namedHere, touchedHere, same);
    if (wrong) return refusal(...wrong);
  }
  const wrong = disagreement(named, touched, relates);
  return wrong ? refusal(...wrong) : null;
}

const levelOf = (n: Named): Level => ("text" in n ? "keyword" : n.entity.kind);

/** A name no change is about, and a change no name is about; null when there is not both. */
function disagreement(named: Named[], touched: Touched[], match: (n: Named, t: Touched) => boolean): [Named, Touched] | null {
  const unnamedChange = touched.find((t) => !named.some((n) => match(n, t)));
  const untouchedName = named.find((n) => !touched.some((t) => match(n, t)));
  return unnamedChange && untouchedName ? [untouchedName, unnamedChange] : null;
}

function refusal(name: Named, change: Touched): string {
  return (
    `Not proposed: the title names ${describeNamed(name)}, but the actions change ${change.label}, which the title does not name. ` +
    "A proposal must change what its title says: use the ids of the entity the title names (from list_campaigns, get_campaign or get_keywords), or title it after what the actions change."
  );
}
