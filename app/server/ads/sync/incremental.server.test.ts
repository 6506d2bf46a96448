// @vitest-environment node
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MANAGER_CUSTOMER_ID, DEMO_SMALL_CUSTOMER_ID } from "../../../../emulator/ads";
import { setupTestEnvironment, type TestContext } from "../../../../tests/setup/test-db";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../../tests/support/emulator-harness";
import { getConnection } from "../../auth/google-connection.server";
import { adsClientFor } from "../accounts.server";
import type { AdsClient } from "../client.server";
import { getSyncState, syncAccount, SYNCED_TABLES } from "../sync.server";

// Issue 26 point 1: after the backfill, refreshes read only what can have changed (the days still
// moving, entities change_status names, every entity table whole once a day) and merge it into the
// stored data. Whatever happens at Google in between (edits of every kind, days passing, the window
// sliding), N refreshes leave exactly what a fresh full sync of the same state stores.

const CID = DEMO_SMALL_CUSTOMER_ID;
const LOGIN = { loginCustomerId: DEMO_MANAGER_CUSTOMER_ID };
const HOUR = 3_600_000;

let emu: RunningEmulator;
let ctx: TestContext;
let userId: string;
let google: AdsClient;

beforeAll(async () => {
  emu = await startEmulator({ storeOptions: { today: "2026-11-22" }, writable: true });
  ctx = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  google = adsClientFor((await getConnection(userId))!);
}, 60_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

/** The app's clock is the emulator's: both move together. */
const sync = (opts: { full?: boolean } = {}) => syncAccount(userId, CID, { now: () => emu.store.now(), ...opts });

/** Every stored row of the account, table by table, in one order whatever the database stored them in. */
async function tables(): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of SYNCED_TABLES) {
    const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} WHERE customer_id = ${CID}`.execute(ctx.db);
    out[table] = rows.rows.map((r) => JSON.stringify(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)))).sort();
  }
  return out;
}

const ids = async (query: string) => google.searchStream(CID, query, LOGIN);

/** Edits of every kind a refresh must notice, as a person in Google Ads (or this app) makes them. */
async function editAtGoogle(round: number) {
  const [campaign] = (await ids("SELECT campaign.id, campaign.campaign_budget FROM campaign WHERE campaign.status = ENABLED")) as Array<{
    campaign: { id: string; campaignBudget: string };
  }>;
  const groups = (await ids("SELECT ad_group.id FROM ad_group WHERE ad_group.status = ENABLED")) as Array<{ adGroup: { id: string } }>;
  const group = groups[round % groups.length].adGroup.id;
  const keywords = (await ids(
    `SELECT ad_group_criterion.criterion_id, ad_group.id FROM ad_group_criterion
     WHERE ad_group_criterion.type = KEYWORD AND ad_group_criterion.negative = FALSE AND ad_group_criterion.status = ENABLED`,
  )) as Array<{ adGroupCriterion: { criterionId: string }; adGroup: { id: string } }>;
  const keyword = keywords[round % keywords.length];
  const ads = (await ids("SELECT ad_group_ad.ad.id, ad_group.id FROM ad_group_ad WHERE ad_group_ad.status = ENABLED")) as Array<{
    adGroupAd: { ad: { id: string } };
    adGroup: { id: string };
  }>;
  const c = `customers/${CID}`;
  switch (round % 4) {
    case 0:
      await google.mutate(
        CID,
        "campaigns:mutate",
        { operations: [{ update: { resourceName: `${c}/campaigns/${campaign.campaign.id}`, name: `Renamed ${round}` }, updateMask: "name" }] },
        LOGIN,
      );
      await google.mutate(
        CID,
        "adGroupCriteria:mutate",
        {
          operations: [
            {
              update: { resourceName: `${c}/adGroupCriteria/${keyword.adGroup.id}~${keyword.adGroupCriterion.criterionId}`, status: "PAUSED" },
              updateMask: "status",
            },
          ],
        },
        LOGIN,
      );
      break;
    case 1:
      // An ad group's default bid: its keywords' effective bids change with it.
      await google.mutate(
        CID,
        "adGroups:mutate",
        { operations: [{ update: { resourceName: `${c}/adGroups/${group}`, cpcBidMicros: String(1_230_000 + round * 10_000) }, updateMask: "cpcBidMicros" }] },
        LOGIN,
      );
      await google.mutate(
        CID,
        "adGroupCriteria:mutate",
        { operations: [{ create: { adGroup: `${c}/adGroups/${group}`, status: "ENABLED", keyword: { text: `fresh loaf ${round}`, matchType: "PHRASE" } } }] },
        LOGIN,
      );
      break;
    case 2:
      await google.mutate(
        CID,
        "campaignBudgets:mutate",
        {
          operations: [
            { update: { resourceName: campaign.campaign.campaignBudget, amountMicros: String(41_000_000 + round * 1_000_000) }, updateMask: "amountMicros" },
          ],
        },
        LOGIN,
      );
      await google.mutate(
        CID,
        "campaignCriteria:mutate",
        {
          operations: [
            { create: { campaign: `${c}/campaigns/${campaign.campaign.id}`, negative: true, keyword: { text: `free ${round}`, matchType: "BROAD" } } },
          ],
        },
        LOGIN,
      );
      break;
    default: {
      const ad = ads[round % ads.length];
      await google.mutate(
        CID,
        "adGroupAds:mutate",
        { operations: [{ update: { resourceName: `${c}/adGroupAds/${ad.adGroup.id}~${ad.adGroupAd.ad.id}`, status: "PAUSED" }, updateMask: "status" }] },
        LOGIN,
      );
      await google.mutate(
        CID,
        "adGroups:mutate",
        { operations: [{ update: { resourceName: `${c}/adGroups/${group}`, name: `Group ${round}` }, updateMask: "name" }] },
        LOGIN,
      );
    }
  }
}

describe("incremental refreshes", () => {
  it("N refreshes over days of edits store exactly what a fresh full sync of the same state stores, table by table", async () => {
    expect((await sync()).status).toBe("ok");
    const firstWindow = (await getSyncState(CID)).dataFrom;
    const kinds: string[] = [];
    const rowsRead: number[] = [];
    // 13 refreshes 7 hours apart (almost four days): some read change_status only, some are the day's whole re-read.
    for (let round = 0; round < 13; round++) {
      emu.store.advanceClock(7 * HOUR);
      if (round % 3 !== 2) await editAtGoogle(round);
      const done = await sync();
      expect(done, `round ${round}`).toMatchObject({ status: "ok", lastError: null });
      const row = await ctx.db.selectFrom("ads_sync_state").select(["refresh_kind", "row_counts"]).where("customer_id", "=", CID).executeTakeFirstOrThrow();
      kinds.push(row.refresh_kind!);
      rowsRead.push(Object.values(JSON.parse(row.row_counts!) as Record<string, number>).reduce((a, b) => a + b, 0));
    }
    expect(kinds.every((k) => k === "incremental")).toBe(true);
    const state = await getSyncState(CID);
    // The window slid: its first day moved with the clock, and the days that fell out are gone.
    expect(state.dataFrom! > firstWindow!).toBe(true);
    const incremental = await tables();
    expect(incremental.ads_campaign_daily.some((r) => String(r).includes(`"${state.dataTo}"`))).toBe(true);

    const full = await sync({ full: true });
    expect(full.status).toBe("ok");
    const fullRows = Object.values(full.rowCounts!).reduce((a, b) => a + b, 0);
    const fresh = await tables();
    for (const table of SYNCED_TABLES) expect(incremental[table], table).toEqual(fresh[table]);
    // A refresh reads a fraction of what a full sync reads.
    expect(Math.max(...rowsRead)).toBeLessThan(fullRows / 2);
  }, 300_000);
});
