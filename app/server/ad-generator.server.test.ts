// @vitest-environment node
// The ad generator end to end below the browser: the JSON API and the page's form posts with
// real Requests, against a synced demo account served by the Google emulator; a scripted
// MockLanguageModelV3 stands in for the configured model. And the property that matters most:
// whatever the brief and whatever the model says, the ad that comes out passes Google's
// validateOnly (the emulator's adGroupAds:mutate) through the real change pipeline.
import { randomUUID } from "node:crypto";
import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../tests/setup/test-db";
import { action as adCopyRoute, loader as adCopyLoader } from "~/routes/api/ad-copy";
import { documented } from "../../tests/support/api-doc";
import { action as pageAction, loader as pageLoader } from "~/routes/ad-generator";
import { blocksGeneratedLine, lintRsa } from "~/lib/ad-lint";
import { connectDemoUser } from "../../tests/support/emulator-harness";
import { syncAccount } from "./ads/sync.server";
import { generateAdCopy, NO_MODEL_NOTICE } from "./ai/ad-copy.server";
import { adGroupContext } from "./ai/ad-copy-context.server";
import { setLanguageModelForTests } from "./ai/model.server";
import { commitSessionCookie, createSession } from "./auth/session.server";
import { validateChangeSet } from "./changes/pipeline.server";
import { proposeCreateRsa } from "./changes/propose.server";
import { CUSTOMER, startWritableEmulator, type WritableEmulator } from "../../tests/support/writable-emulator";
import { routeArgs, signedInArgs } from "../../tests/support/route-args";

// Every API response these tests read is checked against the OpenAPI document.
const adCopyAction = documented(adCopyRoute);

let emu: WritableEmulator;
let t: TestContext;
let userId: string;
let demo: { cookie: string; token: string };
let stranger: { cookie: string; token: string };
let adGroupId: string;

const args = routeArgs;
// A screen's loader or action, after the signed-in layout's middleware.
const pageArgs = signedInArgs;

async function read(result: unknown): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  if (result instanceof Response) {
    const text = await result.text();
    return { status: result.status, body: text ? JSON.parse(text) : null, headers: result.headers };
  }
  const r = result as { data: Record<string, unknown>; init?: ResponseInit | null };
  return { status: r.init?.status ?? 200, body: r.data, headers: new Headers(r.init?.headers) };
}

const apiPost = (body: unknown, token: string | null = demo.token) =>
  new Request("http://localhost:3000/api/v1/ad-copy", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const callApi = async (body: unknown, token?: string | null) => read(await adCopyAction(args(apiPost(body, token))));

const pagePost = (fields: Record<string, string | string[]>, who = demo) => {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) form.append(k, x);
  return new Request("http://localhost:3000/ad-generator", {
    method: "POST",
    headers: { Cookie: who.cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: form,
  });
};

function answer(value: unknown): LanguageModelV3GenerateResult {
  return {
    content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value) }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
    warnings: [],
  };
}

async function signIn(id: string) {
  const session = await createSession(id, new Request("http://localhost:3000/login"));
  return { cookie: (await commitSessionCookie(session)).split(";")[0], token: session.accessToken };
}

beforeAll(async () => {
  emu = await startWritableEmulator();
  t = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  await syncAccount(userId, CUSTOMER);
  await t.db.updateTable("users").set({ active_customer_id: CUSTOMER }).where("id", "=", userId).execute();
  demo = await signIn(userId);
  const strangerId = randomUUID();
  const now = new Date().toISOString();
  await t.db
    .insertInto("users")
    .values({ id: strangerId, email: "stranger@example.com", password_hash: null, active_customer_id: null, created_at: now, updated_at: now })
    .execute();
  stranger = await signIn(strangerId);
  const g = await t.db
    .selectFrom("ads_ad_groups as g")
    .innerJoin("ads_campaigns as c", (j) => j.onRef("c.customer_id", "=", "g.customer_id").onRef("c.id", "=", "g.campaign_id"))
    .select("g.id")
    .where("g.customer_id", "=", CUSTOMER)
    .where("c.advertising_channel_type", "=", "SEARCH")
    .where("g.status", "=", "ENABLED")
    .where("c.status", "=", "ENABLED")
    .orderBy("g.id")
    .executeTakeFirstOrThrow();
  adGroupId = g.id;
}, 90_000);

afterEach(() => setLanguageModelForTests(undefined));

afterAll(async () => {
  setLanguageModelForTests(undefined);
  await t?.cleanup();
  await emu?.close();
});

describe("POST /api/v1/ad-copy", () => {
  it("answers a complete RSA from templates, grounded in the ad group, and says no model is configured", async () => {
    setLanguageModelForTests(null);
    const ctx = (await adGroupContext(CUSTOMER, adGroupId))!;
    expect(ctx.keywords.length).toBeGreaterThan(0);
    const res = await callApi({ product: "Torten", audience: "Familien in Berlin", tone: "friendly", adGroupId, facts: ["Lieferung am selben Tag"] });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(Object.keys(res.body).sort()).toEqual([
      "businessType",
      "descriptions",
      "headlines",
      "notices",
      "path1",
      "path2",
      "source",
      "strength",
      "unusedOffers",
    ]);
    expect(res.body.source).toBe("templates");
    expect((res.body.notices as string[])[0]).toBe(NO_MODEL_NOTICE);
    // The bakery sells cakes to order: a shop, read from its own keywords and ads.
    expect(res.body.businessType).toMatchObject({ type: "retail", chosen: false });
    // Its ads' prices and numbers ("ab 25 € Bestellwert", "seit 1987") are listed, not restated: facts doesn't repeat them.
    expect(res.body.unusedOffers).toEqual(expect.arrayContaining([expect.stringMatching(/25 €/)]));
    const ad = res.body as unknown as {
      headlines: { text: string }[];
      descriptions: { text: string }[];
      path1: string;
      path2: string;
      strength: { score: number; reasons: string[] };
    };
    expect(ad.headlines.length).toBeGreaterThanOrEqual(3);
    expect(ad.descriptions.length).toBeGreaterThanOrEqual(2);
    expect(lintRsa(ad).ok).toBe(true);
    expect(JSON.stringify([ad.headlines, ad.descriptions])).not.toMatch(/25 €|1987/);
    expect(Object.keys(ad.strength).sort()).toEqual(["reasons", "score"]);
    // The ad group's top keywords are covered (at least two headlines carry one).
    const top = ctx.keywords.slice(0, 5).map((k) => k.toLowerCase());
    expect(ad.headlines.filter((h) => top.some((k) => h.text.toLowerCase().includes(k))).length).toBeGreaterThanOrEqual(2);
  });

  it("uses the configured model", async () => {
    const headlines = Array.from(
      { length: 16 },
      (_, i) =>
        `Torte Nummer ${["eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwölf", "dreizehn", "vierzehn", "fünfzehn", "sechzehn"][i]}`,
    );
    const model = new MockLanguageModelV3({
      doGenerate: [
        answer({
          headlines: ["Frische Torten aus Berlin", "Kuchen für jeden Anlass", ...headlines],
          descriptions: [
            "Frische Torten und Kuchen aus unserer Backstube, für Geburtstage und Feste.",
            "Bestellen Sie Ihre Wunschtorte online und holen Sie sie in Berlin ab.",
          ],
          path1: "torten",
          path2: "",
        }),
      ],
    });
    setLanguageModelForTests(model);
    const res = await callApi({ product: "Torten", audience: "Familien", tone: "professional" });
    expect(res.status).toBe(200);
    expect(res.body.source).toBe("model");
    expect((res.body.headlines as { text: string }[])[0].text).toBe("Frische Torten aus Berlin");
    expect(res.body.path1).toBe("torten");
    // 2 model descriptions + templates for the rest, said in a notice.
    expect((res.body.notices as string[]).join(" ")).toMatch(/came from templates/);
  });

  it.each<[string, unknown, string]>([
    ["a missing product", { audience: "a", tone: "friendly" }, "product"],
    ["a blank audience", { product: "Torten", audience: "  ", tone: "friendly" }, "audience"],
    ["an unknown tone", { product: "Torten", audience: "a", tone: "angry" }, "tone"],
    ["keywords that are not a list", { product: "Torten", audience: "a", tone: "casual", keywords: "torten" }, "keywords"],
    ["a fact too long", { product: "Torten", audience: "a", tone: "casual", facts: ["x".repeat(151)] }, "facts.0"],
    ["a final URL that isn't one", { product: "Torten", audience: "a", tone: "casual", finalUrl: "javascript:alert(1)" }, "finalUrl"],
    ["a malformed ad group id", { product: "Torten", audience: "a", tone: "casual", adGroupId: "abc" }, "adGroupId"],
  ])("400 with errors keyed by field for %s", async (_name, body, field) => {
    const res = await callApi(body);
    expect(res.status).toBe(400);
    expect(typeof res.body.detail).toBe("string");
    expect(Object.keys(res.body.errors as object)).toContain(field);
  });

  it("says a field sent as something other than text is not text, and a missing one is required", async () => {
    const res = await callApi({ product: 5, tone: "casual" });
    expect(res.status).toBe(400);
    expect(res.body.errors).toMatchObject({ product: "product must be text", audience: "audience is required" });
  });

  it("400 for a body that isn't JSON, 401 without a token, 405 for GET", async () => {
    expect((await callApi("{nope")).status).toBe(400);
    expect((await callApi({ product: "a", audience: "b", tone: "casual" }, null)).status).toBe(401);
    const get = await read(adCopyLoader());
    expect(get.status).toBe(405);
  });

  it("404 for another user's ad group or account, and changes nothing", async () => {
    const sets = async () => (await t.db.selectFrom("change_sets").select("id").execute()).length;
    const before = await sets();
    const res = await callApi({ product: "Torten", audience: "a", tone: "casual", adGroupId }, stranger.token);
    expect(res.status).toBe(404);
    expect(res.body.errors).toHaveProperty("adGroupId");
    expect((await callApi({ product: "Torten", audience: "a", tone: "casual", customerId: CUSTOMER }, stranger.token)).status).toBe(404);
    expect((await callApi({ product: "Torten", audience: "a", tone: "casual", adGroupId: "999999" })).status).toBe(404);
    expect(await sets()).toBe(before);
  });
});

describe("the page's form posts", () => {
  const brief = {
    product: "Torten",
    targetAudience: "Familien",
    tone: "professional",
    keywords: "torten\nkuchen bestellen",
    facts: "",
    finalUrl: "https://example.com/torten",
  };

  it("prefills the ad group's keywords and final URL from ?adGroupId=", async () => {
    setLanguageModelForTests(null);
    const res = await pageLoader(
      await pageArgs(new Request(`http://localhost:3000/ad-generator?adGroupId=${adGroupId}`, { headers: { Cookie: demo.cookie } })),
    );
    expect(res.mode).toBe("rsa");
    expect(res.values.adGroupId).toBe(adGroupId);
    expect(res.values.keywords.length).toBeGreaterThan(0);
    expect(res.values.finalUrl).toMatch(/^https?:\/\//);
    const unknown = await pageLoader(await pageArgs(new Request("http://localhost:3000/ad-generator?adGroupId=123", { headers: { Cookie: demo.cookie } })));
    expect(unknown.values.adGroupId).toBe("");
    expect(unknown.notice).toMatch(/isn't a search ad group/);
  });

  it("is the seed for a user with no account and no model", async () => {
    setLanguageModelForTests(null);
    const res = await pageLoader(await pageArgs(new Request("http://localhost:3000/ad-generator", { headers: { Cookie: stranger.cookie } })));
    expect(res.mode).toBe("seed");
    const posted = await read(await pageAction(await pageArgs(pagePost({ product: "hiking boots", targetAudience: "hikers", tone: "urgent" }, stranger))));
    expect(posted.body.seedAds).toHaveLength(3);
    expect(posted.body.result).toBeUndefined();
  });

  it("with a model but no account: the model writes an RSA (no ad group, no Use in campaign)", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        answer({
          headlines: ["Boots for Wet Trails", "Dry Feet on Every Hike", "Grip on Muddy Ground"],
          descriptions: ["Waterproof boots that keep hikers dry from the first step to the last."],
          path1: "boots",
          path2: "",
        }),
      ],
    });
    setLanguageModelForTests(model);
    const page = await pageLoader(await pageArgs(new Request("http://localhost:3000/ad-generator", { headers: { Cookie: stranger.cookie } })));
    expect(page.mode).toBe("rsa");
    expect(page.account).toBeNull();
    // An unconfirmed address gets templates, and is told why, without a model call (the metered door).
    const generate = { product: "hiking boots", targetAudience: "hikers", tone: "casual", intent: "generate" };
    const unproved = await read(await pageAction(await pageArgs(pagePost(generate, stranger))));
    expect(unproved.body.result).toMatchObject({ source: "templates" });
    expect((unproved.body.result as { notices: string[] }).notices[0]).toMatch(/confirmed your email address/);
    expect(model.doGenerateCalls).toHaveLength(0);
    await t.db.updateTable("users").set({ email_verified_at: new Date().toISOString() }).where("email", "=", "stranger@example.com").execute();
    const posted = await read(
      await pageAction(await pageArgs(pagePost({ product: "hiking boots", targetAudience: "hikers", tone: "casual", intent: "generate" }, stranger))),
    );
    const result = posted.body.result as { source: string; headlines: { text: string }[] };
    expect(result.source).toBe("model");
    expect(result.headlines[0].text).toBe("Boots for Wet Trails");
    const use = await read(
      await pageAction(
        await pageArgs(pagePost({ product: "hiking boots", targetAudience: "hikers", intent: "use", headline: result.headlines.map((h) => h.text) }, stranger)),
      ),
    );
    expect(use.status).toBe(409);
  });

  it("generates, regenerates one line, and refuses a broken line next to it", async () => {
    setLanguageModelForTests(null);
    const gen = await read(await pageAction(await pageArgs(pagePost({ ...brief, intent: "generate", adGroupId }))));
    expect(gen.status).toBe(200);
    const result = gen.body.result as { headlines: { text: string }[]; descriptions: { text: string }[]; path1: string; path2: string };
    expect(result.headlines.length).toBeGreaterThanOrEqual(5);
    const lines = {
      headline: result.headlines.map((h) => h.text),
      description: result.descriptions.map((d) => d.text),
      path1: result.path1,
      path2: result.path2,
    };

    const regen = await read(await pageAction(await pageArgs(pagePost({ ...brief, adGroupId, ...lines, regenerate: "headline.3" }))));
    const after = (regen.body.result as { headlines: { text: string }[] }).headlines.map((h) => h.text);
    expect(after[3]).not.toBe(lines.headline[3]);
    expect(after.filter((_, i) => i !== 3)).toEqual(lines.headline.filter((_, i) => i !== 3));

    // A bad final URL on the result form is refused next to it; the lines stay.
    const badUrl = await read(
      await pageAction(await pageArgs(pagePost({ ...brief, adGroupId, ...lines, finalUrl: "example dot com", intent: "use", targetAdGroupId: adGroupId }))),
    );
    expect(badUrl.status).toBe(400);
    expect((badUrl.body.errors as Record<string, string>).finalUrl).toMatch(/http\(s\) address/);
    expect((badUrl.body.result as { headlines: unknown[] }).headlines).toHaveLength(lines.headline.length);

    const broken = { ...lines, headline: lines.headline.map((h, i) => (i === 2 ? "BUY NOW!!" : h)) };
    const sets = (await t.db.selectFrom("change_sets").select("id").execute()).length;
    const use = await read(await pageAction(await pageArgs(pagePost({ ...brief, adGroupId, ...broken, intent: "use", targetAdGroupId: adGroupId }))));
    expect(use.status).toBe(400);
    expect((use.body.errors as Record<string, string>)["headline.2"]).toMatch(/"!"|capitals|punctuation/);
    expect((await t.db.selectFrom("change_sets").select("id").execute()).length).toBe(sets);
  });

  it("Use in campaign stores an RSA change set that Google validated and sends to its review page", async () => {
    setLanguageModelForTests(null);
    const gen = await read(await pageAction(await pageArgs(pagePost({ ...brief, intent: "generate", adGroupId }))));
    const result = gen.body.result as { headlines: { text: string }[]; descriptions: { text: string }[]; path1: string; path2: string };
    const res = await pageAction(
      await pageArgs(
        pagePost({
          ...brief,
          adGroupId,
          headline: result.headlines.map((h) => h.text),
          headlinePin: result.headlines.map((_, i) => (i === 0 ? "HEADLINE_1" : "")),
          description: result.descriptions.map((d) => d.text),
          path1: result.path1,
          path2: result.path2,
          intent: "use",
          targetAdGroupId: adGroupId,
        }),
      ),
    );
    expect(res).toBeInstanceOf(Response);
    const location = (res as Response).headers.get("Location")!;
    expect(location).toMatch(/^\/changes\/[0-9a-f-]{36}$/);
    const set = await t.db.selectFrom("change_sets").selectAll().where("id", "=", location.split("/").pop()!).executeTakeFirstOrThrow();
    expect(set.status).toBe("validated");
    const change = await t.db.selectFrom("changes").selectAll().where("change_set_id", "=", set.id).executeTakeFirstOrThrow();
    const op = JSON.parse(change.operation_json) as { create: { ad: { responsiveSearchAd: { headlines: { text: string; pinnedField?: string }[] } } } };
    expect(op.create.ad.responsiveSearchAd.headlines[0]).toEqual({ text: result.headlines[0].text, pinnedField: "HEADLINE_1" });
  });
});

describe("property: every generated ad passes Google's validateOnly", () => {
  it("for random briefs and a model that answers with random good and bad lines", async () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
    const words = [
      "Torten",
      "Kuchen",
      "Brot",
      "Hochzeitstorte",
      "ハイキング",
      "日本語の長い商品名です",
      "FREE",
      "bestellen",
      "Berlin",
      "café",
      "günstig",
      "{KeyWord:Torten}",
      "!!",
      "🎂",
      "555-123-4567",
      "click here",
      "www.example.com",
      "50% off",
      "beste",
    ];
    const phrase = (n: number) => Array.from({ length: n }, () => pick(words)).join(" ");
    for (let i = 0; i < 12; i++) {
      const model = new MockLanguageModelV3({
        doGenerate: async () =>
          rand() < 0.15
            ? answer("{broken")
            : answer({
                headlines: Array.from({ length: 5 + Math.floor(rand() * 18) }, () => phrase(1 + Math.floor(rand() * 4))),
                descriptions: Array.from({ length: 1 + Math.floor(rand() * 6) }, () => phrase(4 + Math.floor(rand() * 10))),
                path1: pick(["torten", "", "a b", "x".repeat(20)]),
                path2: pick(["", "kuchen", "!!"]),
              }),
      });
      const brief = {
        product: phrase(1 + Math.floor(rand() * 3)),
        audience: phrase(1 + Math.floor(rand() * 2)),
        tone: pick(["professional", "casual", "urgent", "friendly"]),
        keywords: Array.from({ length: Math.floor(rand() * 5) }, () => phrase(1 + Math.floor(rand() * 2))),
        facts: Array.from({ length: Math.floor(rand() * 3) }, () => phrase(3)),
      };
      const ctx = await adGroupContext(CUSTOMER, adGroupId);
      const ad = await generateAdCopy(brief, { existing: ctx!.existing }, { model: i % 3 === 0 ? null : model });
      const lint = lintRsa(ad);
      expect(lint.ok, JSON.stringify({ brief, ad, lint })).toBe(true);
      expect([...lint.headlines, ...lint.descriptions].flat().filter(blocksGeneratedLine)).toEqual([]);
      const id = await proposeCreateRsa(userId, {
        customerId: CUSTOMER,
        adGroupId,
        headlines: ad.headlines.map((h) => ({ text: h.text })),
        descriptions: ad.descriptions.map((d) => ({ text: d.text })),
        path1: ad.path1 || undefined,
        path2: ad.path2 || undefined,
        finalUrl: "https://example.com/torten",
      });
      const verdict = await validateChangeSet(userId, id);
      expect(verdict.set.status, JSON.stringify({ ad, changes: verdict.changes.map((c) => c.error_message) })).toBe("validated");
    }
  }, 120_000);
});
