// New days of metrics as the emulator's clock moves on (a long-running demo
// server passing midnight, or a test advancing the clock): each new day repeats
// the same weekday of the week before, entity by entity, so the weekly shape
// and every level's sums stay as consistent as the generated history. Past days
// never change. Campaigns that are not ENABLED get no new traffic; keyword-level
// status is not consulted (the campaign table already sums its keywords, and
// keeping the levels adding up matters more to readers than a paused keyword's
// few clicks).

import { FactTable } from "./facts";
import type { Account } from "./store";

const WEEK = 7;

type Column = Uint32Array | Float64Array;

/** Extends the account's history so its last day is `lastDay` (a day number); no-op when it already reaches it. */
export function extendHistory(acct: Account, lastDay: number): boolean {
  const oldDays = acct.dataDays;
  const newDays = lastDay - acct.dataStartDay + 1;
  if (oldDays <= 0 || newDays <= oldDays) return false;
  const enabledCampaign = (c: number) => acct.campaigns[c]?.data.status === "ENABLED";
  const kwCampaign = (k: number) => acct.adGroups[acct.keywords.adGroupIdx[k]]?.campaignIdx ?? -1;
  const facts = acct.facts;
  facts.keyword = extendTable(facts.keyword, oldDays, newDays, (k) => enabledCampaign(kwCampaign(k)));
  facts.searchTerm = extendTable(facts.searchTerm, oldDays, newDays, (t) => enabledCampaign(acct.searchTerms.campaignIdx[t]));
  facts.displayAdGroup = extendTable(facts.displayAdGroup, oldDays, newDays, (g) => enabledCampaign(acct.adGroups[g]?.campaignIdx ?? -1));
  facts.campaign = extendTable(facts.campaign, oldDays, newDays, enabledCampaign);
  const rates = acct.isRates;
  if (rates && rates.days === oldDays) {
    const campaigns = rates.budgetLost.length / oldDays;
    const budgetLost = new Float32Array(campaigns * newDays);
    const rankLost = new Float32Array(campaigns * newDays);
    for (let c = 0; c < campaigns; c++) {
      for (let d = 0; d < newDays; d++) {
        const from = c * oldDays + sourceDay(d, oldDays);
        budgetLost[c * newDays + d] = rates.budgetLost[from];
        rankLost[c * newDays + d] = rates.rankLost[from];
      }
    }
    acct.isRates = { budgetLost, rankLost, days: newDays };
  }
  acct.dataDays = newDays;
  return true;
}

/** The generated day a new day repeats: the same weekday in the last generated week. */
function sourceDay(d: number, oldDays: number): number {
  if (d < oldDays) return d;
  const back = Math.ceil((d - oldDays + 1) / WEEK) * WEEK;
  const s = d - back;
  return s >= 0 ? s : -1;
}

function extendTable(t: FactTable, oldDays: number, newDays: number, grows: (entity: number) => boolean): FactTable {
  const entities = t.entityCount;
  // Rows per entity after extension: its own rows plus the repeated ones.
  const extra = new Uint32Array(entities);
  let total = t.rowCount;
  for (let e = 0; e < entities; e++) {
    if (!grows(e)) continue;
    let n = 0;
    for (let d = oldDays; d < newDays; d++) if (rowOn(t, e, sourceDay(d, oldDays)) >= 0) n++;
    extra[e] = n;
    total += n;
  }
  const offsets = new Uint32Array(entities + 1);
  const day = new Uint16Array(total);
  const wide = t.impressions instanceof Float64Array;
  const col = (): Column => (wide ? new Float64Array(total) : new Uint32Array(total));
  const out = { impressions: col(), clicks: col(), cost: col(), conv: col(), value: col() };
  const is = t.eligible ? { eligible: new Float32Array(total), budgetLost: new Float32Array(total), rankLost: new Float32Array(total) } : undefined;
  let w = 0;
  const copy = (r: number, d: number) => {
    day[w] = d;
    out.impressions[w] = t.impressions[r];
    out.clicks[w] = t.clicks[r];
    out.cost[w] = t.cost[r];
    out.conv[w] = t.conv[r];
    out.value[w] = t.value[r];
    if (is && t.eligible && t.budgetLost && t.rankLost) {
      is.eligible[w] = t.eligible[r];
      is.budgetLost[w] = t.budgetLost[r];
      is.rankLost[w] = t.rankLost[r];
    }
    w++;
  };
  for (let e = 0; e < entities; e++) {
    offsets[e] = w;
    for (let r = t.start(e), end = t.end(e); r < end; r++) copy(r, t.day[r]);
    if (extra[e] === 0) continue;
    for (let d = oldDays; d < newDays; d++) {
      const r = rowOn(t, e, sourceDay(d, oldDays));
      if (r >= 0) copy(r, d);
    }
  }
  offsets[entities] = w;
  return new FactTable(offsets, day, out.impressions, out.clicks, out.cost, out.conv, out.value, is?.eligible, is?.budgetLost, is?.rankLost);
}

/** The row of entity e on day offset d, or -1. */
function rowOn(t: FactTable, e: number, d: number): number {
  if (d < 0) return -1;
  const r = t.lowerBound(e, d);
  return r < t.end(e) && t.day[r] === d ? r : -1;
}
