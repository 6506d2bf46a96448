import type { Context } from "./context.server";
import { negativeBlocksQuery } from "./negatives.server";
import type { Alternative, Finding } from "./types.server";

// Issue 29 point 5: overlapping findings on one entity become one item. A
// keyword found wasteful may also be a bid cut, a quality-score item and the
// source of an excluded search term; a search term may also be covered by an
// n-gram negative. Each group shows its best action (the largest impact) and
// the others as alternatives, and its impact is counted once — in the totals,
// the order and the Performance Score.

/** Union–find over finding indexes. */
function groups(n: number, pairs: Array<[number, number]>): number[][] {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (const [a, b] of pairs) parent[find(a)] = find(b);
  const out = new Map<number, number[]>();
  for (let i = 0; i < n; i++) out.set(find(i), [...(out.get(find(i)) ?? []), i]);
  return [...out.values()];
}

/** The keyword a finding is about: the one its action pauses, cuts or enables, else its first resource. */
function keywordOf(f: Finding): string | null {
  // Campaign-wide findings name several keywords but are about the campaign.
  if (f.type === "rarely_served") return null;
  for (const a of f.actions) {
    if (a.type === "status" && a.kind === "keyword" && a.ids.length === 1) return a.ids[0];
    if (a.type === "bid" && a.kind === "keyword" && a.items.length === 1) return a.items[0].id;
  }
  const first = f.resources[0];
  return first?.kind === "keyword" ? first.id : null;
}

/** A finding that stops the keyword serving (pause or remove): it subsumes what its search terms would need. */
function stopsKeyword(f: Finding): string | null {
  for (const a of f.actions) {
    if (a.type === "status" && a.kind === "keyword" && a.status !== "ENABLED" && a.ids.length === 1) return a.ids[0];
    if (a.type === "remove_keywords" && a.ids.length === 1) return a.ids[0];
  }
  return null;
}

export function mergeOverlaps(ctx: Context, findings: Finding[]): Finding[] {
  const pairs: Array<[number, number]> = [];
  const byKeyword = new Map<string, number>();
  findings.forEach((f, i) => {
    const k = keywordOf(f);
    if (!k) return;
    const first = byKeyword.get(k);
    if (first === undefined) byKeyword.set(k, i);
    else pairs.push([first, i]);
  });
  const stopped = new Map<string, number>();
  findings.forEach((f, i) => {
    const k = stopsKeyword(f);
    if (k) stopped.set(k, i);
  });
  const grams = findings.flatMap((f, i) => (f.type === "negative_ngram" ? [{ i, f }] : []));
  findings.forEach((f, i) => {
    if (f.type !== "wasted_search_term") return;
    const action = f.actions[0];
    if (action?.type !== "add_negatives") return;
    const term = action.keywords[0].text;
    // Every keyword that brought the term is being paused: excluding the term is moot next to the pause.
    const scope = action.level === "campaign" ? ctx.termsByCampaign.get(action.parentId) : ctx.termsByAdGroup.get(action.parentId);
    const via = [...new Set((scope ?? []).filter((t) => t.term === term && t.keywordCriterionId).map((t) => `${t.adGroupId}~${t.keywordCriterionId}`))];
    if (via.length > 0 && via.every((k) => stopped.has(k))) for (const k of via) pairs.push([i, stopped.get(k)!]);
    // An n-gram negative that blocks the term where the term would be excluded covers it (the largest such
    // n-gram only: two n-grams are two different exclusions, not one entity).
    const covering = grams
      .filter((g) =>
        g.f.actions.some(
          (a) =>
            a.type === "add_negatives" &&
            negativeBlocksQuery(a.keywords[0], term) &&
            (a.parentId === action.parentId ||
              (a.level === "campaign" && action.level === "ad_group" && ctx.adGroups.get(action.parentId)?.campaignId === a.parentId)),
        ),
      )
      .sort((a, b) => b.f.sortAmount - a.f.sortAmount || a.f.key.localeCompare(b.f.key));
    if (covering.length > 0) pairs.push([i, covering[0].i]);
  });
  // An n-gram inside a shorter one excluded over the same or a wider scope ("free tent" under a campaign's "free").
  for (const a of grams)
    for (const b of grams) {
      if (a.i === b.i) continue;
      const text = b.f.resources[0]?.id ?? "";
      const within = b.f.actions.every(
        (bx) =>
          bx.type === "add_negatives" &&
          a.f.actions.some(
            (ax) =>
              ax.type === "add_negatives" &&
              negativeBlocksQuery(ax.keywords[0], text) &&
              (ax.parentId === bx.parentId ||
                (ax.level === "campaign" && bx.level === "ad_group" && ctx.adGroups.get(bx.parentId)?.campaignId === ax.parentId)),
          ),
      );
      if (within) pairs.push([b.i, a.i]);
    }
  const out: Finding[] = [];
  for (const members of groups(findings.length, pairs)) {
    const sorted = members
      .map((i) => findings[i])
      .sort((a, b) => b.sortAmount - a.sortAmount || (b.actions.length > 0 ? 1 : 0) - (a.actions.length > 0 ? 1 : 0) || a.key.localeCompare(b.key));
    const [best, ...rest] = sorted;
    out.push(
      rest.length === 0
        ? best
        : {
            ...best,
            alternatives: rest.map((f): Alternative => ({
              key: f.key,
              type: f.type,
              title: f.title,
              confidence: f.confidence,
              impact: f.impact,
              actions: f.actions,
              resources: f.resources,
              evidence: f.evidence,
            })),
          },
    );
  }
  return out;
}
