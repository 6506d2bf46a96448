// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_RICH_CUSTOMER_ID, DEMO_SMALL_CUSTOMER_ID } from "../../../../emulator/ads";
import { setupTestEnvironment, testDialect, type TestContext } from "../../../../tests/setup/test-db";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../../tests/support/emulator-harness";
import { listAssetGroups, summarizeListingGroups } from "../asset-groups.server";
import { syncAccount } from "../sync.server";

// Performance Max asset groups through a whole sync of the rich demo account
// (issue 32, point 5): the emulator's asset_group, asset_group_asset and
// asset_group_listing_group_filter land in their tables and read back for the
// campaign page. Runs on SQLite and, with TEST_DB_DIALECT=postgres, PostgreSQL.

const RICH = DEMO_RICH_CUSTOMER_ID;
const PMAX = "17000000094";
const TENTS = "17000000008";
const TODAY = "2026-11-22";
const NOW = new Date(`${TODAY}T15:00:00Z`);

let emu: RunningEmulator;
let ctx: TestContext;
let userId: string;

beforeAll(async () => {
  emu = await startEmulator({ storeOptions: { today: TODAY } });
  ctx = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  const state = await syncAccount(userId, RICH, { now: () => NOW });
  expect(state.status).toBe("ok");
}, 300_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

describe(`Performance Max asset groups after a sync (${testDialect})`, () => {
  it("stores the PMax campaign's asset groups with status, strength and final URL", async () => {
    const groups = await listAssetGroups(RICH, PMAX);
    expect(groups.map((g) => [g.name, g.status, g.adStrength])).toEqual([
      ["Tents & Shelter", "ENABLED", "GOOD"],
      ["Sleeping & Camp Kitchen", "ENABLED", "AVERAGE"],
      ["Winter Clearance", "PAUSED", "POOR"],
    ]);
    expect(groups[0].finalUrl).toBe("https://www.northwind-outdoor.example/tents");
    expect(groups[2].primaryStatus).toBe("PAUSED");
    // A search campaign has none.
    expect(await listAssetGroups(RICH, TENTS)).toEqual([]);
    expect(await listAssetGroups(DEMO_SMALL_CUSTOMER_ID, PMAX)).toEqual([]);
  });

  it("stores each group's assets, texts first, with their primary status and reasons", async () => {
    const [tents] = await listAssetGroups(RICH, PMAX);
    expect(tents.assets.map((a) => a.fieldType)).toEqual([
      "HEADLINE",
      "HEADLINE",
      "HEADLINE",
      "HEADLINE",
      "HEADLINE",
      "LONG_HEADLINE",
      "DESCRIPTION",
      "DESCRIPTION",
      "BUSINESS_NAME",
      "MARKETING_IMAGE",
      "MARKETING_IMAGE",
      "SQUARE_MARKETING_IMAGE",
    ]);
    expect(tents.assets[0]).toMatchObject({ text: "Tents for Every Trip", assetType: "TEXT", status: "ENABLED" });
    expect(tents.assets.at(-1)).toMatchObject({ text: "Tents & Shelter 2", assetType: "IMAGE" });
    const all = (await listAssetGroups(RICH, PMAX)).flatMap((g) => g.assets);
    expect(all).toHaveLength(12 + 10 + 8);
    for (const a of all) {
      expect(["ELIGIBLE", "LIMITED"]).toContain(a.primaryStatus);
      expect(a.primaryStatusReasons).toEqual(a.primaryStatus === "LIMITED" ? ["ASSET_APPROVED_LABELED"] : []);
    }
    // The emulator marks about one in seven LIMITED, deterministically: some, not all.
    expect(all.some((a) => a.primaryStatus === "LIMITED")).toBe(true);
    expect(all.some((a) => a.primaryStatus === "ELIGIBLE")).toBe(true);
  });

  it("stores the listing-group trees and summarises them", async () => {
    const groups = await listAssetGroups(RICH, PMAX);
    expect(groups.map((g) => g.listingGroups)).toEqual([
      { kind: "filtered", included: ["Northwind", "Summit Works"], excluded: [], everythingElse: "excluded" },
      { kind: "filtered", included: ["Northwind"], excluded: [], everythingElse: "excluded" },
      { kind: "all", included: [], excluded: [], everythingElse: null },
    ]);
  });
});

describe("summarizeListingGroups", () => {
  it("no nodes, a lone excluded unit, and excluded brands", () => {
    expect(summarizeListingGroups([])).toEqual({ kind: "none", included: [], excluded: [], everythingElse: null });
    expect(summarizeListingGroups([{ type: "UNIT_EXCLUDED", brand: null, product_type: null, parent_id: null }]).kind).toBe("none");
    expect(
      summarizeListingGroups([
        { type: "SUBDIVISION", brand: null, product_type: null, parent_id: null },
        { type: "UNIT_EXCLUDED", brand: "Acme", product_type: null, parent_id: "1" },
        { type: "UNIT_INCLUDED", brand: null, product_type: null, parent_id: "1" },
      ]),
    ).toEqual({ kind: "filtered", included: [], excluded: ["Acme"], everythingElse: "included" });
  });
});
