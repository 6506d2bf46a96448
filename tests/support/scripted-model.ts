import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";

/**
 * Test support only: a MockLanguageModelV3 that plays a script, one entry per
 * model step: tool calls (with the exact argument text a model would send) or
 * a text answer streamed in small pieces.
 */
export type ScriptStep = { calls: Array<{ name: string; input: unknown }> } | { text: string } | { error: Error };

const usage = { inputTokens: { total: 120, noCache: 120, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 30, text: 30, reasoning: 0 } };

export function scriptedModel(script: ScriptStep[]) {
  let call = 0;
  return new MockLanguageModelV3({
    doStream: async () => {
      const step = script[Math.min(call++, script.length - 1)];
      if ("error" in step) throw step.error;
      const chunks: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if ("calls" in step) {
        step.calls.forEach((c, i) =>
          chunks.push({
            type: "tool-call",
            toolCallId: `call-${call}-${i}`,
            toolName: c.name,
            input: typeof c.input === "string" ? c.input : JSON.stringify(c.input),
          }),
        );
        chunks.push({ type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage });
      } else {
        chunks.push({ type: "text-start", id: "t" });
        for (const piece of step.text.match(/.{1,12}/gs) ?? []) chunks.push({ type: "text-delta", id: "t", delta: piece });
        chunks.push({ type: "text-end", id: "t" });
        chunks.push({ type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage });
      }
      return { stream: simulateReadableStream({ chunks }) };
    },
  });
}
