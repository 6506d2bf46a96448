// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFixtureStore } from "../../../emulator/ads";
import type { FixtureInput } from "../../../emulator/ads/fixture/schema";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";
import { requireAccountOf } from "../account-access.server";
import { syncAccount } from "../ads/sync.server";
import { analystAnswer, NO_MODEL_NOTE } from "./analyst.server";
import { loadMessages } from "./chat-store.server";
import { runTurn } from "./chat.server";
import type { ToolContext } from "./tools.server";

// The built-in analyst on questions as people ask them (issue 29, point 2):
// calendar periods as asked, a real comparison with what moved, the premise
// checked, what it cannot do said plainly (with where the product can), and
// the no-model notice once per chat. The account's weeks are set so that
// conversions rose 843 vs 837 the week someone asks why they dropped.

const ID = "4440002222";
const TODAY = "2026-11-22"; // a Sunday: last week is Nov 9 – Nov 15, this month so far Nov 1 – Nov 21
const NOW = new Date(`${TODAY}T15:00:00Z`);

const span = (from: string, to: string, clicks: number, conversions: number, cpc: number) => ({
  from,
  to,
  impressions: clicks * 10,
  clicks,
  cost: Math.round(clicks * cpc * 100) / 100,
  conversions,
});

const fixture: FixtureInput = {
  today: TODAY,
  days: 60,
  customers: [
    {
      id: ID,
      name: "Premise Outdoor",
      currency: "USD",
      timeZone: "America/New_York",
      campaigns: [
        {
          name: "Search | Tents",
          budget: 500,
          adGroups: [
            {
              name: "Family Tents",
              cpcBid: 1,
              keywords: [
                {
                  text: "family tent",
                  matchType: "PHRASE",
                  // The conversion rate fell: 400 → 380 conversions on the same clicks.
                  metrics: [
                    span("2026-10-01", "2026-10-31", 31000, 1550, 1),
                    span("2026-11-02", "2026-11-08", 8000, 400, 1),
                    span("2026-11-09", "2026-11-15", 8000, 380, 1),
                  ],
                },
              ],
            },
          ],
        },
        {
          name: "Search | Climbing Gear",
          budget: 500,
          adGroups: [
            {
              name: "Ropes",
              cpcBid: 2,
              keywords: [
                {
                  text: "climbing rope",
                  matchType: "PHRASE",
                  // Clicks rose: 437 → 463 conversions on 12 % more clicks.
                  metrics: [
                    span("2026-10-01", "2026-10-31", 15500, 1240, 2),
                    span("2026-11-02", "2026-11-08", 5000, 437, 2),
                    span("2026-11-09", "2026-11-15", 5600, 463, 2),
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  ],
};

let emu: WritableEmulator;
let ctx: TestContext;
let chat: ToolContext;

beforeAll(async () => {
  emu = await startWritableEmulator({ store: createFixtureStore(fixture, { source: "premise" }) });
  ctx = await setupTestEnvironment({ ...emu.env, AI_DAILY_MESSAGE_LIMIT: "100" });
  const userId = await connectDemoUser(emu.baseUrl);
  expect((await syncAccount(userId, ID, { now: () => NOW })).status).toBe("ok");
  chat = { userId, account: await requireAccountOf(userId, ID), chatId: "premise", now: NOW };
}, 120_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

const ask = (question: string) => analystAnswer(chat, question, { notice: false });

describe("periods as asked, and the premise checked", () => {
  it("“Why did conversions drop last week?”: they did not (843 vs 837, +0.7%); last week is the calendar week; what moved, by campaign", async () => {
    const answer = await ask("Why did conversions drop last week?");
    expect(answer.intent).toBe("compare");
    expect(answer.text).toMatch(
      /^\*\*Conversions did not drop: \+0\.7%\*\* \(843 in last week \(Nov 9 – Nov 15, 2026\) vs 837 in the week before \(Nov 2 – Nov 8, 2026\)\)\./,
    );
    expect(answer.steps.map((s) => [s.toolName, s.input.from, s.input.to])).toEqual([
      ["list_campaigns", "2026-11-09", "2026-11-15"],
      ["list_campaigns", "2026-11-02", "2026-11-08"],
    ]);
    // The account's conversions moved with clicks more than with the conversion rate; Climbing Gear carried the rise on its clicks.
    expect(answer.text).toContain("Across the account, conversions moved with clicks +4.6%, conversion rate −3.7%.");
    expect(answer.text).toContain("| Search \\| Climbing Gear | 463 | 437 | clicks +12.0%, conversion rate −5.4% |");
  });

  it("a premise that holds is stated as it is", async () => {
    const rose = await ask("conversions rose last week, why?");
    expect(rose.text).toMatch(/^\*\*Conversions: \+0\.7%\*\* \(843 in last week/);
    const cost = await ask("why did spend go up last week");
    expect(cost.text).toMatch(/^\*\*Cost: \+6\.7%\*\* \(\$19,200\.00 in last week \(Nov 9 – Nov 15, 2026\) vs \$18,000\.00/);
    expect(cost.text).toContain("Across the account, cost moved with clicks +4.6%, cost per click +2.0%.");
  });

  it("“this month vs last month” compares the calendar months as asked, per day because their lengths differ", async () => {
    const answer = await ask("this month vs last month");
    expect(answer.steps.map((s) => [s.input.from, s.input.to])).toEqual([
      ["2026-11-01", "2026-11-21"],
      ["2026-10-01", "2026-10-31"],
    ]);
    expect(answer.text).toContain("in this month (Nov 1 – Nov 21, 2026, 21 days so far) vs");
    expect(answer.text).toContain("in last month (Oct 1 – Oct 31, 2026)");
    expect(answer.text).toContain("The two periods have 21 and 31 days of data, so counts are compared per day.");
  });

  it("one period named: the figures for it, with the window they cover; today is said to be incomplete", async () => {
    const lastWeek = await ask("how did we do last week?");
    expect(lastWeek.steps[0]).toMatchObject({ toolName: "get_account_overview", input: { from: "2026-11-09", to: "2026-11-15" } });
    expect(lastWeek.text).toMatch(
      /^\*\*last week \(Nov 9 – Nov 15, 2026\)\*\*: cost \$19,200\.00 \(\+6\.7% vs Nov 2 – Nov 8, 2026\), 13,600 clicks, 843 conversions/,
    );
    const today = await ask("how much did I spend today?");
    expect(today.steps).toEqual([]);
    expect(today.text).toMatch(/^Today's figures are not in yet/);
  });
});

describe("what it cannot do, said plainly", () => {
  it.each([
    ["Write me 3 headlines for tents", /^I can't write ad copy in this chat\. The \[ad generator\]\(\/ad-generator\)/],
    ["Create a new campaign for snowshoes", /^I can't create campaigns: .* Create the campaign in Google Ads/],
    ["which devices convert best?", /^I can't break figures down by device/],
    ["Apply all the changes you proposed, right now", /^I can't apply, approve or undo changes/],
  ])("%s", async (question, says) => {
    const answer = await ask(question);
    expect(answer.intent).toBe("cannot");
    expect(answer.text).toMatch(says);
    // Nothing read in its place: no overview passed off as an answer.
    expect(answer.steps).toEqual([]);
  });

  it("a question it does not understand gets “I didn't understand” and what it can answer, not an overview", async () => {
    const answer = await ask("blorp zizzle?");
    expect(answer.text).toMatch(/^I didn't understand “blorp zizzle\?”\. I can answer: /);
    expect(answer.steps).toEqual([]);
  });
});

describe("the no-model notice", () => {
  it("is said once per chat, in its first answer", async () => {
    const first = await runTurn({ userId: chat.userId, account: chat.account }, { message: "How are my campaigns doing?" });
    const second = await runTurn({ userId: chat.userId, account: chat.account }, { chatId: first.chat.id, message: "What should I do next?" });
    const texts = (await loadMessages(first.chat.id))
      .filter((m) => m.role === "assistant")
      .map((m) => m.parts.map((p) => (p.type === "text" ? p.text : "")).join(""));
    expect(texts).toHaveLength(2);
    expect(texts[0].startsWith(NO_MODEL_NOTE)).toBe(true);
    expect(texts[1]).not.toContain("No AI model is configured");
    expect(second.message?.metadata?.builtIn).toBe(true);
  });
});
