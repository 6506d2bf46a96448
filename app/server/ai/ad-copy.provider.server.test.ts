// @vitest-environment node
// The pipeline through a real provider package (@ai-sdk/openai-compatible, as AI_MODEL=
// openai-compatible:… configures it) against a small fake server on 127.0.0.1 that speaks
// OpenAI's chat completions: what goes over the wire, and what comes back through the gate.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lintRsa } from "~/lib/ad-lint";
import { createLanguageModel } from "./model.server";
import { generateAdCopy } from "./ad-copy.server";

const requests: Array<Record<string, unknown>> = [];
const replies: string[] = [];
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      requests.push(JSON.parse(body));
      const content = replies.shift() ?? "{}";
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: "chat.completion",
          created: 1,
          model: "fake",
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("generateAdCopy over an OpenAI-compatible server", () => {
  it("asks for JSON, repairs the empty slots in a second request, and returns only valid lines", async () => {
    replies.push(
      JSON.stringify({
        headlines: ["Warm Kids Sleeping Bags", "Made for Little Campers", "Cosy Nights Outdoors", "KIDS BAGS ON SALE!!", "Save 70% Today"],
        descriptions: ["Warm, light sleeping bags sized for kids, for camp nights and sleepovers alike."],
        path1: "kids",
        path2: "sleeping-bags",
      }),
      // A small model's slips: no paths, and the JSON in a code fence after a sentence.
      JSON.stringify({
        headlines: ["Sized for Small Campers", "Light to Carry"],
        descriptions: ["Free shipping over $50 on every kids sleeping bag, packed and sent the same day."],
      }),
      'Here you go:\n```json\n{"headlines": ["Zip Up and Sleep Tight"], "descriptions": []}\n```',
    );
    const model = createLanguageModel({ provider: "openai-compatible", modelId: "qwen3:8b", baseUrl, apiKey: undefined });
    const ad = await generateAdCopy(
      { product: "kids sleeping bags", audience: "families who camp", tone: "friendly", keywords: ["kids sleeping bag"], facts: ["Free shipping over $50"] },
      { existing: [] },
      { model },
    );
    expect(requests).toHaveLength(3);
    expect(requests[0].model).toBe("qwen3:8b");
    expect(requests[0].response_format).toBeDefined();
    const messages = requests[1].messages as Array<{ role: string; content: string }>;
    const user = messages
      .filter((m) => m.role === "user")
      .map((m) => m.content)
      .join("\n");
    expect(user).toContain("Write exactly 12 new headlines and 3 new descriptions.");
    // Shouting and "!" are fixed in code; the sale nobody mentioned is still refused.
    expect(user).toMatch(/“Kids Bags On Sale”: “sale” isn't in your facts/);
    expect(user).toMatch(/“Save 70% Today”: “70%” isn't in your facts/);
    expect(ad.source).toBe("model");
    const texts = ad.headlines.map((h) => h.text);
    expect(texts.slice(0, 3)).toEqual(["Warm Kids Sleeping Bags", "Made for Little Campers", "Cosy Nights Outdoors"]);
    expect(texts).toContain("Sized for Small Campers");
    expect(texts).toContain("Zip Up and Sleep Tight");
    expect(texts.join(" ")).not.toMatch(/SALE|70%/);
    expect(ad.descriptions.map((d) => d.text)).toContain("Free shipping over $50 on every kids sleeping bag, packed and sent the same day.");
    expect(ad.path1).toBe("kids");
    expect(lintRsa(ad).ok).toBe(true);
  });
});
