// @vitest-environment node
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { syncAccount } from "../ads/sync.server";
import { createSession } from "../auth/session.server";
import { HttpError, toHttpError } from "../http/errors.server";
import { loader as historyLoader } from "~/routes/api/history";
import { importChangeEvents, listHistory } from "./history.server";
import { applyChangeSet, getChangeSet, proposeRevert, reconcileInFlight, validateChangeSet } from "./pipeline.server";
import {
  proposeAddKeywords,
  proposeAddNegatives,
  proposeBidChange,
  proposeBudgetChange,
  proposeBulk,
  proposeCreateRsa,
  proposeRemoveKeywords,
  proposeStatusChange,
} from "./propose.server";
import { approved, CUSTOMER, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";
import { routeArgs } from "../../../tests/support/route-args";
import { diffFields } from "~/lib/change-fields";

// The pipeline against the project's Google emulator over HTTP (Google's real
// mutate protocol, validateOnly, partialFailure, change_event), through the
// app's real connection. The small demo account (Northwind Bakery Berlin) is
// reached through its manager, as a real MCC user would.

let emu: WritableEmulator;
let ctx: TestContext;
let userId: string;
let campaignId: string;
let campaignName: string;
let budgetRn: string;
let budgetMicros: number;
let adGroupId: string;
let adGroupBid: number;
let keywordIds: string[];
let adId: string;
let cutNextAnswer = false;

async function live(resource: string): Promise<Record<string, unknown> | undefined> {
  return emu.store.get(resource) as Record<string, unknown> | undefined;
}

async function httpError(p: Promise<unknown>): Promise<HttpError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  // Services throw domain errors; this is the status the edge answers with.
  const http = toHttpError(e);
  expect(http).toBeInstanceOf(HttpError);
  return http!;
}

async function countSets() {
  return Number((await ctx.db.selectFrom("change_sets").select(ctx.db.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
}

beforeAll(async () => {
  emu = await startWritableEmulator({
    cutOffAnswer: () => {
      const cut = cutNextAnswer;
      cutNextAnswer = false;
      return cut;
    },
  });
  ctx = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  await syncAccount(userId, CUSTOMER);
  const c = await ctx.db.selectFrom("ads_campaigns").selectAll().where("customer_id", "=", CUSTOMER).orderBy("id").executeTakeFirstOrThrow();
  campaignId = c.id;
  campaignName = c.name;
  budgetRn = c.budget_resource_name!;
  budgetMicros = c.budget_amount_micros!;
  const g = await ctx.db
    .selectFrom("ads_ad_groups")
    .selectAll()
    .where("customer_id", "=", CUSTOMER)
    .where("campaign_id", "=", campaignId)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  adGroupId = g.id;
  adGroupBid = g.cpc_bid_micros!;
  const kws = await ctx.db
    .selectFrom("ads_keywords")
    .selectAll()
    .where("customer_id", "=", CUSTOMER)
    .where("negative", "=", 0)
    .where("status", "=", "ENABLED")
    .orderBy("ad_group_id")
    .orderBy("criterion_id")
    .execute();
  keywordIds = kws.map((k) => `${k.ad_group_id}~${k.criterion_id}`);
  const ad = await ctx.db.selectFrom("ads_ads").selectAll().where("customer_id", "=", CUSTOMER).orderBy("ad_id").executeTakeFirstOrThrow();
  adId = `${ad.ad_group_id}~${ad.ad_id}`;
}, 60_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

describe("proposals are checked before anything is stored", () => {
  it("refuses bad input with one clear message per field", async () => {
    const neg = await httpError(proposeBudgetChange(userId, { customerId: CUSTOMER, campaignId, amount: -5 }));
    expect(neg.status).toBe(400);
    expect(neg.fieldErrors?.amount).toBe("Daily budget must be greater than 0");
    const zero = await httpError(proposeBudgetChange(userId, { customerId: CUSTOMER, campaignId, amount: 0 }));
    expect(zero.fieldErrors?.amount).toBe("Daily budget must be greater than 0");
    const bid = await httpError(proposeBidChange(userId, { customerId: CUSTOMER, kind: "keyword", items: [{ id: keywordIds[0], cpc: 0 }] }));
    expect(bid.fieldErrors?.["items.0.cpc"]).toBe("Bid must be greater than 0");
    const headline = await httpError(
      proposeCreateRsa(userId, {
        customerId: CUSTOMER,
        adGroupId,
        headlines: [{ text: "a".repeat(31) }, { text: "Two" }, { text: "Three" }],
        descriptions: [{ text: "One description." }, { text: "Another description." }],
        finalUrl: "https://example.com/",
      }),
    );
    expect(headline.fieldErrors?.["headlines.0.text"]).toBe("Headlines can be at most 30 characters");
    const long = await httpError(proposeAddKeywords(userId, { customerId: CUSTOMER, adGroupId, keywords: [{ text: "k".repeat(81), matchType: "EXACT" }] }));
    expect(long.fieldErrors?.["keywords.0.text"]).toBe("Keywords can be at most 80 characters");
    const words = await httpError(
      proposeAddKeywords(userId, {
        customerId: CUSTOMER,
        adGroupId,
        keywords: [{ text: "one two three four five six seven eight nine ten eleven", matchType: "PHRASE" }],
      }),
    );
    expect(words.fieldErrors?.["keywords.0.text"]).toBe("Keywords can be at most 10 words");
    const bulk = await httpError(
      proposeBulk(userId, {
        customerId: CUSTOMER,
        actions: [
          { type: "status", kind: "campaign", ids: [campaignId], status: "PAUSED" },
          {
            type: "create_rsa",
            adGroupId,
            headlines: [{ text: "One" }, { text: "Two" }, { text: "Three" }],
            descriptions: [{ text: "One description." }, { text: "Another description." }],
            path2: "angebote",
            finalUrl: "https://example.com/",
          },
        ],
      }),
    );
    expect(bulk.fieldErrors?.["actions.1.path2"]).toBe("Path 2 needs path 1");
    expect(await countSets()).toBe(0);
  });

  it("refuses a change that changes nothing, and a keyword the ad group already has", async () => {
    const same = await httpError(proposeBudgetChange(userId, { customerId: CUSTOMER, campaignId, amount: budgetMicros / 1e6 }));
    expect(same.status).toBe(400);
    expect(same.message).toBe(`Nothing to change: Daily budget of “${campaignName}” already has that value`);
    const enabled = await ctx.db
      .selectFrom("ads_campaigns")
      .select("status")
      .where("customer_id", "=", CUSTOMER)
      .where("id", "=", campaignId)
      .executeTakeFirstOrThrow();
    const sameStatus = await httpError(
      proposeStatusChange(userId, { customerId: CUSTOMER, kind: "campaign", ids: [campaignId], status: enabled.status as "ENABLED" }),
    );
    expect(sameStatus.message).toMatch(/^Nothing to change: /);

    const [ag, crit] = keywordIds[0].split("~");
    const kw = await ctx.db
      .selectFrom("ads_keywords")
      .select(["text", "match_type"])
      .where("customer_id", "=", CUSTOMER)
      .where("ad_group_id", "=", ag)
      .where("criterion_id", "=", crit)
      .executeTakeFirstOrThrow();
    const matchType = kw.match_type as "EXACT" | "PHRASE" | "BROAD";
    // Case and surrounding spaces do not make it another keyword.
    const dup = await httpError(
      proposeAddKeywords(userId, {
        customerId: CUSTOMER,
        adGroupId: ag,
        keywords: [
          { text: "brand new words", matchType },
          { text: ` ${kw.text.toUpperCase()}`, matchType },
        ],
      }),
    );
    expect(dup.status).toBe(400);
    expect(dup.fieldErrors?.["keywords.1.text"]).toMatch(/is already a keyword of ad group/);
    const twice = await httpError(
      proposeAddKeywords(userId, {
        customerId: CUSTOMER,
        adGroupId: ag,
        keywords: [
          { text: "brand new words", matchType: "EXACT" },
          { text: "Brand new words", matchType: "EXACT" },
        ],
      }),
    );
    expect(twice.fieldErrors?.["keywords.1.text"]).toBe("“Brand new words” (exact) is in the list twice");
    expect(await countSets()).toBe(0);
  });

  it("refuses unknown ids and other users' accounts as not found", async () => {
    const unknown = await httpError(proposeBudgetChange(userId, { customerId: CUSTOMER, campaignId: "999", amount: 10 }));
    expect(unknown.status).toBe(404);
    expect(unknown.fieldErrors?.campaignId).toMatch(/Campaign not found/);
    const kw = await httpError(proposeStatusChange(userId, { customerId: CUSTOMER, kind: "keyword", ids: [keywordIds[0], "1~2"], status: "PAUSED" }));
    expect(kw.fieldErrors?.["ids.1"]).toMatch(/Keyword not found/);
    const other = randomUUID();
    const now = new Date().toISOString();
    await ctx.db
      .insertInto("users")
      .values({ id: other, email: `${other}@example.com`, password_hash: null, active_customer_id: null, created_at: now, updated_at: now })
      .execute();
    const foreign = await httpError(proposeStatusChange(other, { customerId: CUSTOMER, kind: "campaign", ids: [campaignId], status: "PAUSED" }));
    expect(foreign.status).toBe(404);
    expect(foreign.fieldErrors?.customerId).toBe("No such Google Ads account");
    expect(await countSets()).toBe(0);
  });
});

describe("each action: propose → validate → apply against Google", () => {
  it("pauses and enables a campaign, recording before and after", async () => {
    const id = await proposeStatusChange(userId, { customerId: CUSTOMER, kind: "campaign", ids: [campaignId], status: "PAUSED" });
    const validated = await validateChangeSet(userId, id);
    expect(validated.set.status).toBe("validated");
    expect(validated.changes[0]).toMatchObject({ status: "valid", before_json: JSON.stringify({ status: "ENABLED" }) });
    const before = emu.mutates();
    const applied = await applyChangeSet(userId, id, await approved(userId, id));
    expect(emu.mutates() - before).toBe(1);
    expect(applied.set.status).toBe("applied");
    expect(applied.changes[0]).toMatchObject({ status: "applied", result_resource_name: `customers/${CUSTOMER}/campaigns/${campaignId}` });
    expect(applied.changes[0].request_id).toBeTruthy();
    expect((await live(`customers/${CUSTOMER}/campaigns/${campaignId}`))?.status).toBe("PAUSED");
    const back = await proposeStatusChange(userId, { customerId: CUSTOMER, kind: "campaign", ids: [campaignId], status: "ENABLED" });
    expect((await applyChangeSet(userId, back, await approved(userId, back))).set.status).toBe("applied");
    expect((await live(`customers/${CUSTOMER}/campaigns/${campaignId}`))?.status).toBe("ENABLED");
  });

  it("pauses an ad group, a keyword and an ad in one bulk change set", async () => {
    const id = await proposeBulk(userId, {
      customerId: CUSTOMER,
      actions: [
        { type: "status", kind: "ad_group", ids: [adGroupId], status: "PAUSED" },
        { type: "status", kind: "keyword", ids: [keywordIds[1]], status: "PAUSED" },
        { type: "status", kind: "ad", ids: [adId], status: "PAUSED" },
      ],
    });
    const before = emu.mutates();
    const r = await applyChangeSet(userId, id, await approved(userId, id));
    // validateOnly + the real write, one request per Google service each.
    expect(emu.mutates() - before).toBe(6);
    expect(r.set.status).toBe("applied");
    expect(r.changes.map((c) => c.status)).toEqual(["applied", "applied", "applied"]);
    expect((await live(`customers/${CUSTOMER}/adGroups/${adGroupId}`))?.status).toBe("PAUSED");
    expect((await live(`customers/${CUSTOMER}/adGroupAds/${adId}`))?.status).toBe("PAUSED");
    const undo = await proposeRevert(userId, id);
    expect((await applyChangeSet(userId, undo, await approved(userId, undo))).set.status).toBe("applied");
    expect((await live(`customers/${CUSTOMER}/adGroups/${adGroupId}`))?.status).toBe("ENABLED");
  });

  it("changes keyword and ad-group bids", async () => {
    const id = await proposeBidChange(userId, {
      customerId: CUSTOMER,
      kind: "ad_group",
      items: [{ id: adGroupId, cpc: Math.round((adGroupBid * 1.2) / 10_000) / 100 }],
    });
    const r = await applyChangeSet(userId, id, await approved(userId, id));
    expect(r.set.status).toBe("applied");
    expect(Number((await live(`customers/${CUSTOMER}/adGroups/${adGroupId}`))?.cpcBidMicros)).toBe(Math.round((adGroupBid * 1.2) / 10_000) * 10_000);
    // The keyword has no bid of its own: 0.75 is measured from its ad group's bid in force, a large move.
    const kw = await proposeBidChange(userId, { customerId: CUSTOMER, kind: "keyword", items: [{ id: keywordIds[2], cpc: 0.75 }] });
    await expect(applyChangeSet(userId, kw, await approved(userId, kw))).rejects.toThrow(/confirm the large change/);
    expect((await applyChangeSet(userId, kw, { ...(await approved(userId, kw)), confirmLargeMoves: true })).set.status).toBe("applied");
  });

  it("adds keywords, ad-group and campaign negatives, and an RSA; removes a keyword", async () => {
    const add = await proposeAddKeywords(userId, {
      customerId: CUSTOMER,
      adGroupId,
      keywords: [{ text: "sauerteigbrot berlin", matchType: "PHRASE", cpc: 0.8 }],
    });
    // A new keyword's bid is measured from its ad group's default bid.
    const added = await applyChangeSet(userId, add, { ...(await approved(userId, add)), confirmLargeMoves: true });
    expect(added.changes[0].result_resource_name).toMatch(new RegExp(`^customers/${CUSTOMER}/adGroupCriteria/${adGroupId}~\\d+$`));
    const negs = await proposeAddNegatives(userId, {
      customerId: CUSTOMER,
      level: "ad_group",
      parentId: adGroupId,
      keywords: [{ text: "kostenlos", matchType: "BROAD" }],
    });
    expect((await applyChangeSet(userId, negs, await approved(userId, negs))).changes[0].status).toBe("applied");
    const cneg = await proposeAddNegatives(userId, {
      customerId: CUSTOMER,
      level: "campaign",
      parentId: campaignId,
      keywords: [{ text: "jobs", matchType: "EXACT" }],
    });
    const cnegApplied = await applyChangeSet(userId, cneg, await approved(userId, cneg));
    expect(cnegApplied.changes[0].result_resource_name).toMatch(/campaignCriteria\//);
    const rsa = await proposeCreateRsa(userId, {
      customerId: CUSTOMER,
      adGroupId,
      headlines: [{ text: "Frisches Brot", pin: "HEADLINE_1" }, { text: "Jeden Morgen gebacken" }, { text: "Bio aus Berlin" }],
      descriptions: [{ text: "Sauerteig, Roggen und Dinkel – frisch aus dem Ofen." }, { text: "Jetzt vorbestellen und abholen." }],
      path1: "brot",
      finalUrl: "https://bakery.example/brot",
    });
    // The review shows everything Google is sent: the display path and the pins too.
    const review = diffFields(null, JSON.parse((await getChangeSet(userId, rsa)).changes[0].after_json!), "EUR");
    expect(review).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "Display path 1", after: "brot" }),
        expect.objectContaining({ field: "Pinned", after: "“Frisches Brot” → Headline 1" }),
      ]),
    );
    const ad = await applyChangeSet(userId, rsa, await approved(userId, rsa));
    expect(ad.changes[0].result_resource_name).toMatch(/adGroupAds\//);
    expect(
      ((await live(ad.changes[0].result_resource_name!)) as { ad: { responsiveSearchAd: { headlines: unknown[] } } }).ad.responsiveSearchAd.headlines,
    ).toHaveLength(3);
    const rm = await proposeRemoveKeywords(userId, { customerId: CUSTOMER, ids: [keywordIds[3]] });
    const removed = await applyChangeSet(userId, rm, await approved(userId, rm));
    expect(removed.changes[0]).toMatchObject({ operation: "remove", status: "applied" });
    // Removal is undone by an equal new keyword.
    const undo = await getChangeSet(userId, await proposeRevert(userId, rm));
    expect(undo.changes[0]).toMatchObject({ operation: "create", resource_kind: "keyword" });
    expect((await applyChangeSet(userId, undo.set.id, await approved(userId, undo.set.id))).set.status).toBe("applied");
  });
});

describe("large moves, partial failure, history and revert", () => {
  it("needs an explicit confirmation for a budget move above CHANGE_CONFIRM_PERCENT", async () => {
    const id = await proposeBudgetChange(userId, { customerId: CUSTOMER, campaignId, amount: (budgetMicros / 1e6) * 3 });
    expect((await getChangeSet(userId, id)).set.needs_confirmation).toBe(1);
    const refused = await httpError(applyChangeSet(userId, id, await approved(userId, id)));
    expect(refused.status).toBe(409);
    expect(refused.detail).toMatch(/more than 50%/);
    expect(refused.fieldErrors?.confirmLargeMoves).toBeTruthy();
    expect(Number((await live(budgetRn))?.amountMicros)).toBe(budgetMicros);
    const r = await applyChangeSet(userId, id, await approved(userId, id, { confirmLargeMoves: true }));
    expect(r.set.status).toBe("applied");
    expect(Number((await live(budgetRn))?.amountMicros)).toBe(budgetMicros * 3);
    expect(JSON.parse(r.changes[0].before_json!)).toEqual({ amountMicros: budgetMicros });
  });

  it("shows partial failure per change with Google's reason", async () => {
    const [a, b, c] = [keywordIds[4], keywordIds[5], keywordIds[6]];
    const id = await proposeStatusChange(userId, { customerId: CUSTOMER, kind: "keyword", ids: [a, b, c], status: "PAUSED" }, { atomic: false });
    await validateChangeSet(userId, id);
    // Someone removes one keyword in Google Ads between review and the click.
    emu.store.update(`customers/${CUSTOMER}/adGroupCriteria/${b}`, { status: "REMOVED" });
    const r = await applyChangeSet(userId, id, await approved(userId, id));
    expect(r.set.status).toBe("partially_applied");
    expect(r.changes.map((x) => x.status)).toEqual(["applied", "failed", "applied"]);
    expect(r.changes[1].error_code).toBe("operationAccessDeniedError.OPERATION_NOT_PERMITTED_FOR_REMOVED_RESOURCE");
    expect(r.changes[1].error_message).toBeTruthy();
    expect(r.changes[1].field_path).toMatch(/^operations\[1\]/);

    // The same, atomic: nothing applies, and each change says why.
    const atomic = await proposeStatusChange(userId, { customerId: CUSTOMER, kind: "keyword", ids: [keywordIds[7], keywordIds[8]], status: "PAUSED" });
    await validateChangeSet(userId, atomic);
    emu.store.update(`customers/${CUSTOMER}/adGroupCriteria/${keywordIds[8]}`, { status: "REMOVED" });
    const ra = await applyChangeSet(userId, atomic, await approved(userId, atomic));
    expect(ra.set.status).toBe("failed");
    expect(ra.changes[0]).toMatchObject({ status: "failed", error_message: "Not applied: another change in the same request was refused" });
    expect(ra.changes[1].error_code).toBe("operationAccessDeniedError.OPERATION_NOT_PERMITTED_FOR_REMOVED_RESOURCE");
    expect((await live(`customers/${CUSTOMER}/adGroupCriteria/${keywordIds[7]}`))?.status).toBe("ENABLED");
  });

  it("marks a change invalid at validation when the item is gone at Google, and refuses to apply", async () => {
    const id = await proposeStatusChange(userId, { customerId: CUSTOMER, kind: "keyword", ids: [keywordIds[9]], status: "PAUSED" });
    emu.store.update(`customers/${CUSTOMER}/adGroupCriteria/${keywordIds[9]}`, { status: "REMOVED" });
    const v = await validateChangeSet(userId, id);
    expect(v.set.status).toBe("invalid");
    expect(v.changes[0]).toMatchObject({ status: "invalid", error_code: "NOT_FOUND" });
    expect((await httpError(applyChangeSet(userId, id, await approved(userId, id)))).status).toBe(409);
  });

  // Issue 25 point 9: people who share a Google Ads account (each their own app user) saw each other's email addresses.
  it("shows another user of the same Google Ads account as 'Another user', never their email", async () => {
    const otherId = randomUUID();
    const now = new Date().toISOString();
    await ctx.db
      .insertInto("users")
      .values({
        id: otherId,
        email: `other-${otherId}@example.com`,
        password_hash: null,
        email_verified_at: now,
        active_customer_id: CUSTOMER,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const shared = await ctx.db
      .selectFrom("ads_accounts")
      .selectAll()
      .where("user_id", "=", userId)
      .where("customer_id", "=", CUSTOMER)
      .executeTakeFirstOrThrow();
    await ctx.db
      .insertInto("ads_accounts")
      .values({ ...shared, user_id: otherId })
      .execute();
    const email = (await ctx.db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirstOrThrow()).email;
    const theirs = (await listHistory(otherId, { customerId: CUSTOMER })).items.filter((i) => i.origin === "product" && i.source === "user");
    expect(theirs.length).toBeGreaterThan(0);
    expect(new Set(theirs.map((i) => i.who))).toEqual(new Set(["Another user"]));
    expect(JSON.stringify(await listHistory(otherId, { customerId: CUSTOMER }))).not.toContain(email);
    await ctx.db.deleteFrom("users").where("id", "=", otherId).execute();
  });

  it("lists history with outside changes, without echoing our own writes, and reverts", async () => {
    const imported = await importChangeEvents(userId, CUSTOMER);
    expect(imported.read).toBeGreaterThan(0);
    expect((await importChangeEvents(userId, CUSTOMER)).inserted).toBe(0);
    const all = await listHistory(userId, { customerId: CUSTOMER });
    expect(all.total).toBeGreaterThan(10);
    const mine = all.items.filter((i) => i.origin === "product");
    expect(mine.length).toBeGreaterThan(0);
    const email = (await ctx.db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirstOrThrow()).email;
    expect(mine.every((i) => i.who === email || i.who === "Assistant" || i.who === "Rule" || i.who === "Recommendation")).toBe(true);
    expect(mine.some((i) => i.who === email)).toBe(true);
    const external = await listHistory(userId, { customerId: CUSTOMER, source: "external" });
    expect(external.items.every((i) => i.origin === "external")).toBe(true);
    // Our API writes come back as GOOGLE_ADS_API change events; none are listed as outside changes.
    expect(external.items.some((i) => i.originLabel === "Google Ads API (another tool)")).toBe(false);
    expect(external.items.some((i) => i.originLabel !== "Google Ads API (another tool)")).toBe(true);
    // Outside changes name what they touched: the keyword's text and ad group, the campaign's name.
    const outsideKeywords = external.items.filter((i) => i.resourceKind === "keyword");
    expect(outsideKeywords.length).toBeGreaterThan(0);
    for (const i of outsideKeywords) expect(i.label).toMatch(/^\w+ keyword “.+” \((Exact|Phrase|Broad)\)( in .+)?/);
    for (const i of external.items.filter((x) => x.resourceKind === "campaign")) expect(i.label).toMatch(/campaign “.+”/);

    const budgetItem = (await listHistory(userId, { customerId: CUSTOMER, resourceKind: "campaign_budget" })).items[0];
    expect(budgetItem).toMatchObject({ revertable: true, before: { amountMicros: budgetMicros }, after: { amountMicros: budgetMicros * 3 } });
    const revert = await proposeRevert(userId, budgetItem.changeSetId!);
    const r = await applyChangeSet(userId, revert, await approved(userId, revert, { confirmLargeMoves: true }));
    expect(r.set.status).toBe("applied");
    expect(r.set.revert_of).toBe(budgetItem.changeSetId);
    expect(Number((await live(budgetRn))?.amountMicros)).toBe(budgetMicros);
    const after = (await listHistory(userId, { customerId: CUSTOMER, resourceKind: "campaign_budget", q: campaignName.slice(0, 6) })).items;
    expect(after.find((i) => i.changeSetId === budgetItem.changeSetId)?.revertable).toBe(false);
    // Marked as reverted, by the change set that undid it.
    expect(after.find((i) => i.changeSetId === budgetItem.changeSetId)?.revertedBy).toBe(revert);
    expect((await httpError(proposeRevert(userId, budgetItem.changeSetId!))).status).toBe(409);
    expect((await reconcileInFlight()).sets).toBe(0);
  });

  it("settles an unknown outcome from Google's live state right away, without sending twice", async () => {
    const id = await proposeStatusChange(userId, { customerId: CUSTOMER, kind: "keyword", ids: [keywordIds[10], keywordIds[11]], status: "PAUSED" });
    await validateChangeSet(userId, id);
    cutNextAnswer = true;
    const before = emu.mutates();
    const r = await applyChangeSet(userId, id, await approved(userId, id));
    expect(emu.mutates() - before).toBe(1);
    expect(r.set.status).toBe("applied");
    expect(r.changes.map((c) => c.status)).toEqual(["applied", "applied"]);
    // No answer came back: settled by reading Google, so there is no request id to record.
    expect(r.changes.map((c) => c.request_id)).toEqual([null, null]);
    expect((await live(`customers/${CUSTOMER}/adGroupCriteria/${keywordIds[10]}`))?.status).toBe("PAUSED");
    // A second click on the same set is refused, never re-sent.
    expect((await httpError(applyChangeSet(userId, id, await approved(userId, id)))).status).toBe(409);
    expect(emu.mutates() - before).toBe(1);
  });

  it("serves GET /api/v1/history with the same filters, behind a bearer token", async () => {
    const { accessToken } = await createSession(userId, new Request("http://localhost:3000/"));
    const get = async (query: string, token = accessToken) => {
      const result = (await historyLoader(
        routeArgs(new Request(`http://localhost:3000/api/v1/history${query}`, { headers: { Authorization: `Bearer ${token}` } })),
      )) as unknown;
      if (result instanceof Response) return { status: result.status, body: (await result.json()) as Record<string, unknown> };
      const r = result as { data: Record<string, unknown>; init?: { status?: number } | null };
      return { status: r.init?.status ?? 200, body: r.data };
    };
    const ok = await get(`?customerId=${CUSTOMER}&source=user&resourceKind=keyword&page=1`);
    expect(ok.status).toBe(200);
    const items = ok.body.items as Array<{ source: string; resourceKind: string }>;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((i) => i.source === "user" && i.resourceKind === "keyword")).toBe(true);
    expect(ok.body.total).toBeGreaterThanOrEqual(items.length);
    const bad = await get("?from=yesterday");
    expect(bad.status).toBe(400);
    expect((bad.body.errors as Record<string, string>).from).toBe("from must be YYYY-MM-DD");
    expect((await get("?customerId=9999999999")).status).toBe(404);
    expect((await get("", "not-a-token")).status).toBe(401);
  });
});
