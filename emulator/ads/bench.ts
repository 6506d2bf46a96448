// Scale benchmark for the data layer (not part of the test suite):
//   node --expose-gc --import tsx emulator/ads/bench.ts [campaigns=10000] [keywords=1000000] [days=90]
// Prints generation time, settled memory and a few query latencies.

import { createDemoStore, generationReports } from "./demo/generate";
import { createAdsDataSource } from "./gaql/datasource";
import { DEMO_RICH_CUSTOMER_ID } from "./demo/generate";

const [campaigns = 10_000, totalKeywords = 1_000_000, days = 90] = process.argv.slice(2).map(Number);
const gc = (globalThis as { gc?: () => void }).gc;
const mb = (n: number) => `${(n / 1e6).toFixed(0)} MB`;

gc?.();
const before = process.memoryUsage();
const t0 = performance.now();
const store = createDemoStore({ today: "2026-11-22", scale: { campaigns, totalKeywords, days } });
const genMs = performance.now() - t0;
gc?.();
gc?.();
const after = process.memoryUsage();
const report = generationReports.get(store);
console.log(`generated ${campaigns} campaigns / ${totalKeywords} keywords / ${days} days in ${genMs.toFixed(0)} ms`);
console.log(
  `memory after GC${gc ? "" : " (run with --expose-gc for settled numbers)"}: rss ${mb(after.rss)}, heap +${mb(after.heapUsed - before.heapUsed)}, typed arrays +${mb(after.arrayBuffers - before.arrayBuffers)}`,
);
console.log(JSON.stringify(report?.accounts[0]));

const ds = createAdsDataSource(store);
const queries: Array<[string, string]> = [
  [
    "top 100 keywords by cost, last 30 days",
    "SELECT ad_group_criterion.keyword.text, metrics.cost_micros, metrics.clicks FROM keyword_view WHERE segments.date DURING LAST_30_DAYS ORDER BY metrics.cost_micros DESC LIMIT 100",
  ],
  [
    "top 100 keywords by cost, all time",
    "SELECT ad_group_criterion.keyword.text, metrics.cost_micros FROM keyword_view ORDER BY metrics.cost_micros DESC LIMIT 100",
  ],
  [
    "keywords ORDER BY text LIMIT 50 (no metrics)",
    "SELECT ad_group_criterion.keyword.text FROM ad_group_criterion ORDER BY ad_group_criterion.keyword.text LIMIT 50",
  ],
  [
    "campaign totals, last 30 days",
    "SELECT campaign.id, metrics.cost_micros, metrics.conversions, metrics.search_impression_share FROM campaign WHERE segments.date DURING LAST_30_DAYS",
  ],
  ["campaign x day, last 30 days (first page)", "SELECT campaign.id, segments.date, metrics.cost_micros FROM campaign WHERE segments.date DURING LAST_30_DAYS"],
  ["ad groups, last 7 days", "SELECT ad_group.id, metrics.clicks FROM ad_group WHERE segments.date DURING LAST_7_DAYS"],
  [
    "search terms top 100",
    "SELECT search_term_view.search_term, metrics.clicks FROM search_term_view WHERE segments.date DURING LAST_30_DAYS ORDER BY metrics.clicks DESC LIMIT 100",
  ],
];
for (const [label, q] of queries) {
  const t = performance.now();
  const page = ds.query(DEMO_RICH_CUSTOMER_ID, q);
  console.log(`${(performance.now() - t).toFixed(0).padStart(6)} ms  ${label} (${page.results.length} rows${page.nextPageToken ? ", more pages" : ""})`);
}
