// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFixtureStore } from "../../../emulator/ads";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { LOOKALIKE_ID, lookalikeFixture } from "../../../tests/support/lookalike-account";
import { startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";
import { requireAccountOf } from "../account-access.server";
import { syncAccount } from "../ads/sync.server";
import { analystAnswer } from "./analyst.server";
import { loadAdGroups, loadCampaigns, loadKeywords, resolveIn, type Resolution } from "./entities.server";
import { toolRunners, type ToolContext } from "./tools.server";

// Names a person types, resolved against an account whose names look alike
// (tests/support/lookalike-account.ts): the entity named, a choice when two
// fit, "I found no … called …" when none does; never a different entity. The
// same rule binds the model's propose_changes.

let emu: WritableEmulator;
let ctx: TestContext;
let chat: ToolContext;
const ids = new Map<string, string>();

const nameOf = (r: Resolution) => (r.status === "found" ? r.entity.name : r.status === "ambiguous" ? r.options.map((e) => e.name).sort() : null);

beforeAll(async () => {
  emu = await startWritableEmulator({ store: createFixtureStore(lookalikeFixture, { source: "look-alike names" }) });
  ctx = await setupTestEnvironment(emu.env);
  const userId = await connectDemoUser(emu.baseUrl);
  expect((await syncAccount(userId, LOOKALIKE_ID)).status).toBe("ok");
  chat = { userId, account: await requireAccountOf(userId, LOOKALIKE_ID), chatId: "lookalike" };
  for (const c of await loadCampaigns(LOOKALIKE_ID)) ids.set(c.name, c.id);
  for (const g of await loadAdGroups(LOOKALIKE_ID)) ids.set(g.name, g.id);
  for (const k of await loadKeywords(LOOKALIKE_ID, { phrases: ["hiking boots", "family tent"] })) ids.set(k.name, k.id);
}, 120_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

describe("resolving a typed name", () => {
  it("campaigns: the exact name over one containing it, typos, a choice, none", async () => {
    const campaigns = await loadCampaigns(LOOKALIKE_ID);
    const resolve = (phrase: string) => nameOf(resolveIn(phrase, "campaign", campaigns));
    expect(resolve("Tents")).toBe("Search | Tents");
    expect(resolve("search | tents")).toBe("Search | Tents");
    expect(resolve("Climbng Gear")).toBe("Search | Climbing Gear");
    expect(resolve("Brand - Core")).toBe("Brand - Core");
    expect(resolve("brand core")).toBe("Brand - Core");
    expect(resolve("Brand - Core Plus")).toBe("Brand - Core Plus");
    expect(resolve("Core")).toEqual(["Brand - Core", "Brand - Core Plus"]);
    expect(resolve("Snowshoes")).toBeNull();
    expect(resolveIn("Snowshoes", "campaign", campaigns)).toEqual({ status: "none", phrase: "Snowshoes", kind: "campaign" });
  });

  it("ad groups: “Family Tents” is not “Family Tents XL”, and “Family” could be either", async () => {
    const groups = await loadAdGroups(LOOKALIKE_ID);
    const resolve = (phrase: string) => nameOf(resolveIn(phrase, "ad_group", groups));
    expect(resolve("Family Tents")).toBe("Family Tents");
    expect(resolve("family tents xl")).toBe("Family Tents XL");
    expect(resolve("Famly Tents")).toBe("Family Tents");
    expect(resolve("Family")).toEqual(["Family Tents", "Family Tents XL"]);
    expect(resolve("Brand Terms")).toBe("Brand Terms");
    expect(resolve("Tent Poles")).toBeNull();
  });

  it("keywords: “hiking boots” is not “hiking boots sale”, and “boots” could be either", async () => {
    const resolve = async (phrase: string) => nameOf(resolveIn(phrase, "keyword", await loadKeywords(LOOKALIKE_ID, { phrases: [phrase] })));
    expect(await resolve("hiking boots")).toBe("hiking boots");
    expect(await resolve("hiking boots sale")).toBe("hiking boots sale");
    expect(await resolve("boots")).toEqual(["hiking boots", "hiking boots sale"]);
    expect(await resolve("snowshoes")).toBeNull();
  });
});

describe("the built-in analyst acts on the entity named, or asks", () => {
  const drafted = (a: Awaited<ReturnType<typeof analystAnswer>>) =>
    a.steps.find((s) => s.toolName === "propose_changes")?.input as { title: string; actions: unknown[] } | undefined;

  it("“Increase the Tents budget by 10%” drafts Search | Tents (not the budget-limited Climbing Gear)", async () => {
    const answer = await analystAnswer(chat, "Increase the Tents budget by 10%");
    expect(drafted(answer)?.actions).toEqual([{ type: "budget", campaignId: ids.get("Search | Tents"), amount: 55 }]);
    expect(drafted(answer)?.title).toBe("Set the daily budget of Search | Tents from $50.00 to $55.00 (+10%)");
    expect(answer.text).toMatch(/\*\*Search \| Tents\*\* has a daily budget of \$50\.00/);
    expect(answer.text).not.toContain("Climbing Gear");
  });

  it("look-alike campaigns: the one named, a choice for a part both share, and none for a name that is not there", async () => {
    const core = await analystAnswer(chat, "Raise the budget of Brand - Core by 10%");
    expect(drafted(core)?.actions).toEqual([{ type: "budget", campaignId: ids.get("Brand - Core"), amount: 33 }]);
    const plus = await analystAnswer(chat, "raise the budget of brand - core plus by 10%");
    expect(drafted(plus)?.actions).toEqual([{ type: "budget", campaignId: ids.get("Brand - Core Plus"), amount: 44 }]);

    const either = await analystAnswer(chat, "Raise the Core budget by 10%", { notice: false });
    expect(drafted(either)).toBeUndefined();
    expect(either.text).toMatch(/^More than one campaign fits “Core”; which one do you mean\?/);
    expect(either.text).toContain("1. **Brand - Core**");
    expect(either.text).toContain("2. **Brand - Core Plus**");

    const none = await analystAnswer(chat, "Increase the Snowshoes budget by 10%", { notice: false });
    expect(drafted(none)).toBeUndefined();
    expect(none.text).toMatch(/^I found no campaign called “Snowshoes” in this account/);
  });

  it("look-alike keywords and ad groups: pauses the one named, asks when two fit", async () => {
    const exact = await analystAnswer(chat, "Pause the keyword “hiking boots”");
    expect(drafted(exact)?.actions).toEqual([{ type: "status", kind: "keyword", ids: [ids.get("hiking boots")], status: "PAUSED" }]);
    const both = await analystAnswer(chat, "pause the keyword boots", { notice: false });
    expect(drafted(both)).toBeUndefined();
    expect(both.text).toMatch(/^More than one keyword fits “boots”/);
    const none = await analystAnswer(chat, "Pause the keyword 'snow shoes'", { notice: false });
    expect(none.text).toMatch(/^I found no keyword called “snow shoes”/);

    const group = await analystAnswer(chat, "Pause ad group Family Tents");
    expect(drafted(group)?.actions).toEqual([{ type: "status", kind: "ad_group", ids: [ids.get("Family Tents")], status: "PAUSED" }]);
    const typo = await analystAnswer(chat, "How is the Climbng Gear campaign doing?");
    expect(typo.steps.map((s) => [s.toolName, s.input.campaignId])).toEqual([["get_campaign", ids.get("Search | Climbing Gear")]]);
  });
});

describe("propose_changes: a title naming one entity with actions on another is refused", () => {
  const propose = (title: string, actions: unknown[]) => toolRunners(chat).propose_changes({ title, actions: actions as never });

  it("campaigns", async () => {
    const tents = ids.get("Search | Tents")!;
    const climbing = ids.get("Search | Climbing Gear")!;
    await expect(
      propose("Raise the daily budget of Search | Tents from $50.00 to $55.00", [{ type: "budget", campaignId: climbing, amount: 55 }]),
    ).rejects.toThrow(
      /^Not proposed: the title names campaign “Search \| Tents”, but the actions change campaign “Search \| Climbing Gear” \(\d+\), which the title does not name\./,
    );
    await expect(propose("Pause Brand - Core", [{ type: "status", kind: "campaign", ids: [ids.get("Brand - Core Plus")], status: "PAUSED" }])).rejects.toThrow(
      /the title names campaign “Brand - Core”, but the actions change campaign “Brand - Core Plus”/,
    );
    const ok = await propose("Raise the daily budget of Search | Tents from $50.00 to $55.00", [{ type: "budget", campaignId: tents, amount: 55 }]);
    expect(ok.status).toBe("validated");
    // A title that names nothing in the account is the model's own words: nothing to check.
    expect((await propose("A small budget test", [{ type: "budget", campaignId: climbing, amount: 210 }])).status).toBe("validated");
  });

  it("ad groups", async () => {
    await expect(
      propose("Pause ad group Family Tents", [{ type: "status", kind: "ad_group", ids: [ids.get("Family Tents XL")], status: "PAUSED" }]),
    ).rejects.toThrow(/the title names ad group “Family Tents”, but the actions change ad group “Family Tents XL”/);
    expect(
      (await propose("Pause ad group Family Tents XL", [{ type: "status", kind: "ad_group", ids: [ids.get("Family Tents XL")], status: "PAUSED" }])).status,
    ).toBe("validated");
  });

  it("keywords", async () => {
    await expect(
      propose("Pause keyword “hiking boots” in Boots", [{ type: "status", kind: "keyword", ids: [ids.get("hiking boots sale")], status: "PAUSED" }]),
    ).rejects.toThrow(/the title names keyword “hiking boots”, but the actions change keyword “hiking boots sale” in ad group “Boots”/);
    expect(
      (
        await propose("Pause keyword “hiking boots sale” in Boots", [
          { type: "status", kind: "keyword", ids: [ids.get("hiking boots sale")], status: "PAUSED" },
        ])
      ).status,
    ).toBe("validated");
  });
});
