import { describe, it, expect } from "vitest";
import { createDemoStore, generationReports } from "./generate";
import { createAdsDataSource } from "../gaql/datasource";
import { RICH, TODAY, type Row } from "../test/helpers";

// Kept small so the suite stays fast on 2 cores; bench/ runs 10k campaigns / 1M keywords.
describe("scale smoke test", () => {
  const t0 = performance.now();
  const store = createDemoStore({ today: TODAY, scale: { campaigns: 2000, totalKeywords: 100_000, days: 30 } });
  const genMs = performance.now() - t0;
  const ds = createAdsDataSource(store);

  it("generates exactly the requested shape, quickly", () => {
    const rep = generationReports.get(store);
    expect(rep?.accounts[0]).toMatchObject({ campaigns: 2000, keywords: 100_000 });
    expect(rep?.days).toBe(30);
    expect(genMs).toBeLessThan(15_000);
    // The small account keeps its demo shape at any scale.
    expect(rep?.accounts[1].campaigns).toBe(3);
  });

  it("ORDER BY + LIMIT over all keywords stays fast", () => {
    const t = performance.now();
    const r = ds.query(
      RICH,
      "SELECT ad_group_criterion.keyword.text, metrics.cost_micros FROM keyword_view WHERE segments.date DURING LAST_30_DAYS ORDER BY metrics.cost_micros DESC LIMIT 50",
    ).results as Row[];
    expect(performance.now() - t).toBeLessThan(3000);
    expect(r).toHaveLength(50);
    const costs = r.map((x) => Number(x.metrics.costMicros));
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    expect(costs[0]).toBeGreaterThan(0);
  });

  it("pages through 100k keywords and aggregates campaigns", () => {
    const first = ds.query(RICH, "SELECT ad_group_criterion.criterion_id FROM ad_group_criterion", { returnTotalResultsCount: true });
    expect(first.results).toHaveLength(10_000);
    expect(first.totalResultsCount).toBe("100000");
    const camp = ds.query(RICH, "SELECT campaign.id, metrics.cost_micros FROM campaign WHERE segments.date DURING LAST_7_DAYS").results;
    expect(camp).toHaveLength(2000);
  });
});
