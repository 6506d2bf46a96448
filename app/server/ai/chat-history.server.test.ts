import { describe, expect, it } from "vitest";
import type { StoredMessage } from "./chat-store.server";
import { estimateTokens, historyForModel } from "./chat-history.server";

const user = (text: string): StoredMessage => ({ id: text, role: "user", parts: [{ type: "text", text }] });
const answer = (text: string, toolOutput = ""): StoredMessage => ({
  id: `a-${text}`,
  role: "assistant",
  parts: [
    ...(toolOutput
      ? [{ type: "tool-list_campaigns", toolCallId: `c-${text}`, state: "output-available", input: {}, output: { rows: toolOutput } } as never]
      : []),
    { type: "text", text },
  ],
});

describe("historyForModel", () => {
  it("sends a short chat whole", () => {
    const chat = [user("q1"), answer("a1", "rows"), user("q2")];
    expect(historyForModel(chat)).toEqual({ messages: chat, earlierQuestions: [] });
  });

  it("keeps tool results of the two latest turns only, older answers as their text", () => {
    const chat = [user("q1"), answer("a1", "old rows"), user("q2"), answer("a2", "recent rows"), user("q3")];
    const sent = historyForModel(chat).messages;
    expect(sent[1].parts.map((p) => p.type)).toEqual(["text"]);
    expect(sent[3].parts.map((p) => p.type)).toEqual(["tool-list_campaigns", "text"]);
  });

  it("drops the oldest turns past the budget, starts on a question, always keeps the new question, and names the dropped questions", () => {
    const big = "x".repeat(4000);
    const chat = [user(`q1 ${big}`), answer(`a1 ${big}`), user(`q2 ${big}`), answer(`a2 ${big}`), user("q3")];
    const { messages, earlierQuestions } = historyForModel(chat, 2_200);
    expect(messages.map((m) => m.id)).toEqual([chat[2].id, chat[3].id, "q3"]);
    expect(messages.reduce((n, m) => n + estimateTokens(m), 0)).toBeLessThanOrEqual(2_200);
    expect(earlierQuestions).toEqual([`q1 ${big}`]);
    // A question alone over the budget is still sent: it was accepted at MAX_CHAT_MESSAGE_LENGTH.
    expect(historyForModel([user(big)], 10).messages).toHaveLength(1);
  });
});
