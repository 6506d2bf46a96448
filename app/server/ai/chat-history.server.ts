import type { StoredMessage } from "./chat-store.server";

/**
 * What of a chat the model is sent with a new question (each of the turn's
 * steps sends it again, so it is capped). The question is always sent; the
 * two latest turns keep their tool calls and results (a follow-up often
 * refers to what was just read), older answers only their text; then, newest
 * first, turns are kept while they fit HISTORY_TOKEN_BUDGET, and the older
 * ones are dropped, their questions listed for the system prompt so the model
 * knows what came before.
 */

/** About 32,000 characters: tokens are estimated at 4 characters each (no tokenizer is exact for every provider). */
export const HISTORY_TOKEN_BUDGET = 8_000;
const FULL_TURNS = 2;
const EARLIER_QUESTIONS_MAX = 10;

export const estimateTokens = (message: StoredMessage) => Math.ceil(JSON.stringify(message.parts).length / 4);

export interface ModelHistory {
  messages: StoredMessage[];
  /** The person's questions of the turns left out, oldest first (the most recent EARLIER_QUESTIONS_MAX). */
  earlierQuestions: string[];
}

export function textOf(message: StoredMessage | undefined): string {
  return (message?.parts ?? [])
    .map((p) => (p.type === "text" ? p.text : ""))
    .join(" ")
    .trim();
}

export function historyForModel(history: StoredMessage[], budget = HISTORY_TOKEN_BUDGET): ModelHistory {
  const questionAt = history.map((m) => m.role).lastIndexOf("user");
  if (questionAt < 0) return { messages: history, earlierQuestions: [] };
  const userIndexes = history.flatMap((m, i) => (m.role === "user" ? [i] : []));
  const fullFrom = userIndexes[Math.max(0, userIndexes.length - FULL_TURNS)];
  const slim = history
    .map((m, i) => (i >= fullFrom || m.role === "user" ? m : { ...m, parts: m.parts.filter((p) => p.type === "text") }))
    .filter((m) => m.parts.length > 0);

  const kept: StoredMessage[] = [];
  let total = 0;
  const question = slim.length - 1;
  for (let i = question; i >= 0; i--) {
    const cost = estimateTokens(slim[i]);
    if (i !== question && total + cost > budget) break;
    total += cost;
    kept.unshift(slim[i]);
  }
  // Begin with a question: an answer without it reads as if the model had said it unprompted.
  while (kept.length > 1 && kept[0].role !== "user") kept.shift();
  const dropped = slim.slice(0, slim.length - kept.length);
  return {
    messages: kept,
    earlierQuestions: dropped
      .filter((m) => m.role === "user")
      .map(textOf)
      .filter(Boolean)
      .slice(-EARLIER_QUESTIONS_MAX),
  };
}
