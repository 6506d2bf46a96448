// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { syncAccount } from "../ads/sync.server";
import { parseAmount, parseKeywordLines, proposeFromForm } from "./forms.server";
import { getChangeSet } from "./pipeline.server";
import { applyAndRefresh, changeSetView, discardChangeSet, listOpenChangeSets, validateQuietly } from "./review.server";
import { approved, CUSTOMER, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";
import { ConflictError, NotFoundError } from "../domain-errors.server";

// The screens' forms → change sets, the review's view of them, and what an
// apply does to the local copy the screens read.

let emu: WritableEmulator;
let ctx: TestContext;
let userId: string;
let campaignId: string;
let adGroupId: string;
let keywordIds: string[];

const form = (fields: Record<string, string | string[]>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) f.append(k, one);
  return f;
};

async function countSets() {
  return Number((await ctx.db.selectFrom("change_sets").select(ctx.db.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
}

beforeAll(async () => {
  emu = await startWritableEmulator();
  ctx = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  await syncAccount(userId, CUSTOMER);
  const c = await ctx.db
    .selectFrom("ads_campaigns")
    .selectAll()
    .where("customer_id", "=", CUSTOMER)
    .where("status", "=", "ENABLED")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  campaignId = c.id;
  const g = await ctx.db
    .selectFrom("ads_ad_groups")
    .selectAll()
    .where("customer_id", "=", CUSTOMER)
    .where("campaign_id", "=", campaignId)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  adGroupId = g.id;
  const kws = await ctx.db
    .selectFrom("ads_keywords")
    .selectAll()
    .where("customer_id", "=", CUSTOMER)
    .where("negative", "=", 0)
    .where("status", "=", "ENABLED")
    .orderBy("ad_group_id")
    .orderBy("criterion_id")
    .limit(3)
    .execute();
  keywordIds = kws.map((k) => `${k.ad_group_id}~${k.criterion_id}`);
}, 60_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

describe("form values", () => {
  it("reads amounts the way people type them", () => {
    expect(parseAmount("12.50")).toBe(12.5);
    expect(parseAmount(" $1,250.00 ")).toBe(1250);
    expect(parseAmount("12,5")).toBe(12.5);
    expect(parseAmount("€ 0,85")).toBe(0.85);
    expect(parseAmount("")).toBeUndefined();
    expect(parseAmount("abc")).toBeNaN();
    expect(parseAmount("1.2.3")).toBeNaN();
    expect(parseAmount("-5")).toBe(-5);
  });

  it("reads one keyword per line with Google Ads Editor's match type notation", () => {
    expect(parseKeywordLines('tents\n\n[family tent]\n"tent sale"\r\n  two person tent  ', "BROAD")).toEqual([
      { text: "tents", matchType: "BROAD" },
      { text: "family tent", matchType: "EXACT" },
      { text: "tent sale", matchType: "PHRASE" },
      { text: "two person tent", matchType: "BROAD" },
    ]);
  });
});

describe("proposing from the screens' forms", () => {
  it("refuses bad input with the message keyed by the form's own field, storing nothing", async () => {
    const before = await countSets();
    const cases: Array<[Record<string, string | string[]>, string, string]> = [
      [{ intent: "budget", campaignId, amount: "0" }, "amount", "Daily budget must be greater than 0"],
      [{ intent: "budget", campaignId, amount: "-3" }, "amount", "Daily budget must be greater than 0"],
      [{ intent: "budget", campaignId, amount: "lots" }, "amount", "Daily budget must be a number"],
      [{ intent: "bid", kind: "keyword", id: keywordIds, cpc: "0" }, "cpc", "Bid must be greater than 0"],
      [{ intent: "pause", kind: "keyword" }, "id", "Choose at least one item"],
      [{ intent: "pause", kind: "campaign", id: "999999999" }, "id", "Campaign not found in this account"],
      [
        { intent: "add_keywords", adGroupId, matchType: "EXACT", keywords: `fine\n${"x".repeat(81)}` },
        "keywords",
        `Line 2 (“${"x".repeat(81)}”): Keywords can be at most 80 characters`,
      ],
      [
        { intent: "add_keywords", adGroupId, matchType: "EXACT", keywords: "one two three four five six seven eight nine ten eleven" },
        "keywords",
        "Line 1 (“one two three four five six seven eight nine ten eleven”): Keywords can be at most 10 words",
      ],
      [{ intent: "add_keywords", adGroupId: "1", matchType: "EXACT", keywords: "tents" }, "adGroupId", "Ad group not found in this account"],
      [{ intent: "add_keywords", matchType: "EXACT", keywords: "tents" }, "adGroupId", "Choose the ad group the keywords go into."],
      [
        { intent: "add_negatives", level: "campaign", campaignId, matchType: "NOPE", keywords: "free" },
        "matchType",
        "Match type must be EXACT, PHRASE or BROAD",
      ],
      [{ intent: "term_negatives", level: "campaign", campaignId, matchType: "EXACT" }, "term", "Choose at least one search term"],
      [
        {
          intent: "create_rsa",
          adGroupId,
          headline: ["", "a".repeat(31), "Two", "Three"],
          description: ["One description.", "Two description."],
          finalUrl: "https://example.com",
        },
        "headline.1",
        "Headlines can be at most 30 characters",
      ],
      [
        { intent: "create_rsa", adGroupId, headline: ["One", "Two"], description: ["One.", "Two."], finalUrl: "https://example.com" },
        "headlines",
        "Add at least 3 headlines",
      ],
      [
        { intent: "create_rsa", adGroupId, headline: ["One", "Two", "Three"], description: ["One.", "Two."], finalUrl: "ftp://example.com" },
        "finalUrl",
        "Final URL must be an http(s) URL",
      ],
    ];
    for (const [fields, field, message] of cases) {
      const r = await proposeFromForm(userId, CUSTOMER, form(fields));
      expect(r.ok, JSON.stringify(fields)).toBe(false);
      if (!r.ok) expect(r.errors[field], JSON.stringify(fields)).toBe(message);
    }
    const unknown = await proposeFromForm(userId, CUSTOMER, form({ intent: "launch-rockets" }));
    expect(unknown).toMatchObject({ ok: false, status: 400, formError: "Unknown action" });
    expect(await countSets()).toBe(before);
  });

  it("another user's account is refused like an unknown one", async () => {
    const r = await proposeFromForm(userId, "1231231234", form({ intent: "budget", campaignId, amount: "10" }));
    expect(r).toMatchObject({ ok: false, status: 404, formError: "No such Google Ads account" });
  });

  it("search terms become keywords per ad group, or campaign negatives, in one change set", async () => {
    const r = await proposeFromForm(
      userId,
      CUSTOMER,
      form({ intent: "term_negatives", level: "campaign", campaignId, matchType: "EXACT", term: [`${adGroupId}~free cake`, `${adGroupId}~cake recipe`] }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const { changes } = await getChangeSet(userId, r.changeSetId);
    expect(changes.map((c) => [c.resource_kind, JSON.parse(c.after_json!).text])).toEqual([
      ["campaign_negative_keyword", "free cake"],
      ["campaign_negative_keyword", "cake recipe"],
    ]);
    const k = await proposeFromForm(
      userId,
      CUSTOMER,
      form({ intent: "term_keywords", matchType: "PHRASE", cpc: "0,40", term: [`${adGroupId}~birthday cake berlin`] }),
    );
    expect(k.ok).toBe(true);
    if (!k.ok) return;
    const added = (await getChangeSet(userId, k.changeSetId)).changes[0];
    expect(JSON.parse(added.after_json!)).toMatchObject({ text: "birthday cake berlin", matchType: "PHRASE", cpcBidMicros: 400_000 });
  });
});

describe("review and apply", () => {
  it("shows before → after with Google's verdict, applies, and updates the screens' copy at once", async () => {
    const r = await proposeFromForm(userId, CUSTOMER, form({ intent: "pause", kind: "keyword", id: keywordIds }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(await validateQuietly(userId, r.changeSetId)).toBeNull();
    const view = await changeSetView(await getChangeSet(userId, r.changeSetId), "EUR");
    expect(view).toMatchObject({ status: "validated", canApply: true, canDiscard: true, canRevert: false, counts: { total: 3, valid: 3 } });
    expect(view.changes[0].fields).toEqual([{ field: "Status", before: "Enabled", after: "Paused", percent: null }]);
    expect((await listOpenChangeSets(userId, CUSTOMER)).map((o) => o.id)).toContain(r.changeSetId);

    const detail = await applyAndRefresh(userId, r.changeSetId, await approved(userId, r.changeSetId));
    expect(detail.set.status).toBe("applied");
    const [ag, crit] = keywordIds[0].split("~");
    const local = await ctx.db
      .selectFrom("ads_keywords")
      .select("status")
      .where("customer_id", "=", CUSTOMER)
      .where("ad_group_id", "=", ag)
      .where("criterion_id", "=", crit)
      .executeTakeFirstOrThrow();
    expect(local.status).toBe("PAUSED");
    const after = await changeSetView(detail, "EUR");
    expect(after).toMatchObject({ canApply: false, canDiscard: false, canRevert: true, counts: { applied: 3 } });
    expect((await listOpenChangeSets(userId, CUSTOMER)).map((o) => o.id)).not.toContain(r.changeSetId);
  });

  it("a budget move past the threshold is flagged with its percentage", async () => {
    const c = await ctx.db
      .selectFrom("ads_campaigns")
      .select("budget_amount_micros")
      .where("customer_id", "=", CUSTOMER)
      .where("id", "=", campaignId)
      .executeTakeFirstOrThrow();
    const triple = (c.budget_amount_micros! * 3) / 1_000_000;
    const r = await proposeFromForm(userId, CUSTOMER, form({ intent: "budget", campaignId, amount: String(triple) }));
    if (!r.ok) throw new Error(r.formError);
    await validateQuietly(userId, r.changeSetId);
    const view = await changeSetView(await getChangeSet(userId, r.changeSetId), "EUR");
    expect(view.needsConfirmation).toBe(true);
    expect(view.changes[0].largeMove).toBe(true);
    expect(view.changes[0].fields[0]).toMatchObject({ field: "Daily budget", percent: 200 });
  });

  it("discarding keeps the record, never sends, and cannot be applied afterwards", async () => {
    const r = await proposeFromForm(userId, CUSTOMER, form({ intent: "pause", kind: "campaign", id: campaignId }));
    if (!r.ok) throw new Error(r.formError);
    const mutatesBefore = emu.mutates();
    await discardChangeSet(userId, r.changeSetId);
    expect(emu.mutates()).toBe(mutatesBefore);
    const view = await changeSetView(await getChangeSet(userId, r.changeSetId), "EUR");
    expect(view).toMatchObject({ status: "discarded", canApply: false, canDiscard: false });
    // Domain errors; the edge answers 409 and 404 for them (http/errors.server.ts).
    await expect(discardChangeSet(userId, r.changeSetId)).rejects.toBeInstanceOf(ConflictError);
    await expect(applyAndRefresh(userId, r.changeSetId, await approved(userId, r.changeSetId))).rejects.toBeInstanceOf(ConflictError);
    await expect(discardChangeSet("someone-else", r.changeSetId)).rejects.toBeInstanceOf(NotFoundError);
  });
});
