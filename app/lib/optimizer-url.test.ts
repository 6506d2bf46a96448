import { describe, expect, it } from "vitest";
import { optimizerHref } from "./optimizer-url";

const CHAT = "6b0234e5-8aba-4886-b8ab-e71d349dfda0";

describe("optimizerHref", () => {
  it("changes one half of the screen and keeps the other's state", () => {
    expect(optimizerHref(`?chat=${CHAT}&recs=open`, { recs: "dismissed" })).toBe(`/ai-optimizer?chat=${CHAT}&recs=dismissed`);
    expect(optimizerHref("?recs=snoozed", { chat: CHAT }, "chat-end")).toBe(`/ai-optimizer?recs=snoozed&chat=${CHAT}#chat-end`);
    expect(optimizerHref(`?chat=${CHAT}&recs=applied`, { chat: null })).toBe("/ai-optimizer?recs=applied");
    expect(optimizerHref("", { recs: "open" })).toBe("/ai-optimizer?recs=open");
  });

  it("carries nothing that is not its own: other keys, a token, values that are not an id or a list", () => {
    expect(optimizerHref(`?token=abc&chat=${CHAT}&x=1`, {})).toBe(`/ai-optimizer?chat=${CHAT}`);
    expect(optimizerHref("?chat=../../login&recs=everything", { recs: "open" })).toBe("/ai-optimizer?recs=open");
    expect(optimizerHref("?group=weak_ad&recs=open", { recs: "dismissed" })).toBe("/ai-optimizer?recs=dismissed&group=weak_ad");
    expect(optimizerHref("?group=<script>", {})).toBe("/ai-optimizer");
  });
});
