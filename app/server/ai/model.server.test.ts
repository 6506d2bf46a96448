import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { APICallError, generateText } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig, setConfigForTests, type AiConfig } from "../env.server";
import { describeAiError } from "./errors.server";
import { createLanguageModel, describeModel, getLanguageModel, setLanguageModelForTests } from "./model.server";

afterEach(() => setLanguageModelForTests(undefined));

/** Records the request each provider package makes, then fails it: the wire format is what matters here. */
async function firstRequest(ai: AiConfig) {
  let seen: { url: string; headers: Headers; body: Record<string, unknown> } | undefined;
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    seen = { url: String(input), headers: new Headers(init?.headers), body: JSON.parse(String(init?.body)) };
    return new Response(JSON.stringify({ error: { message: "stop here" } }), { status: 400 });
  }) as typeof globalThis.fetch;
  await generateText({ model: createLanguageModel(ai, { fetch }), prompt: "hi", maxRetries: 0 }).catch(() => {});
  return seen!;
}

describe("createLanguageModel", () => {
  it("speaks OpenAI's chat completions to an openai-compatible server, model id after the first colon", async () => {
    const req = await firstRequest({ provider: "openai-compatible", modelId: "qwen3:8b", baseUrl: "http://127.0.0.1:9/v1", apiKey: "local" });
    expect(req.url).toBe("http://127.0.0.1:9/v1/chat/completions");
    expect(req.body.model).toBe("qwen3:8b");
    expect(req.headers.get("authorization")).toBe("Bearer local");
  });

  it("uses each vendor's own endpoint and key header, with AI_BASE_URL overriding the endpoint", async () => {
    const openai = await firstRequest({ provider: "openai", modelId: "gpt-4.1-mini", baseUrl: undefined, apiKey: "sk-o" });
    expect(openai.url).toBe("https://api.openai.com/v1/responses");
    expect(openai.headers.get("authorization")).toBe("Bearer sk-o");
    const anthropic = await firstRequest({ provider: "anthropic", modelId: "claude-x", baseUrl: "http://proxy.local/v1", apiKey: "sk-a" });
    expect(anthropic.url).toBe("http://proxy.local/v1/messages");
    expect(anthropic.headers.get("x-api-key")).toBe("sk-a");
    const google = await firstRequest({ provider: "google", modelId: "gemini-2.5-flash", baseUrl: undefined, apiKey: "g" });
    expect(google.url).toContain("generativelanguage.googleapis.com");
    expect(google.url).toContain("gemini-2.5-flash");
    expect(google.headers.get("x-goog-api-key")).toBe("g");
  });
});

describe("getLanguageModel / describeModel", () => {
  it("reports no model when none is configured, and a test model when one is set", () => {
    setLanguageModelForTests(null);
    expect(getLanguageModel()).toBeNull();
    expect(describeModel()).toMatchObject({ configured: false, summary: "No model configured" });
    const mock = new MockLanguageModelV3();
    setLanguageModelForTests(mock, "openai-compatible:fake");
    expect(getLanguageModel()).toBe(mock);
    expect(describeModel()).toMatchObject({ configured: true, model: "openai-compatible:fake" });
  });
});

describe("the model's endpoint is for the server's log only", () => {
  afterEach(() => setConfigForTests(undefined));

  it("/settings' summary and the error a person reads name the model, never the host", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "model-endpoint-"));
    setConfigForTests(parseConfig({ DATA_DIR: dir, AI_MODEL: "openai-compatible:qwen3:8b", AI_BASE_URL: "http://gpu-box.corp.internal:11434/v1?tenant=acme" }));
    const model = describeModel();
    expect(model.summary).toBe("openai-compatible:qwen3:8b (own endpoint, AI_BASE_URL)");
    expect(model.endpoint).toBe("http://gpu-box.corp.internal:11434/v1");
    const refused = new APICallError({
      message: "connect ECONNREFUSED http://gpu-box.corp.internal:11434/v1/chat/completions",
      url: "http://gpu-box.corp.internal:11434/v1/chat/completions",
      requestBodyValues: {},
      cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    });
    const odd = new APICallError({
      message: "see http://gpu-box.corp.internal/docs",
      url: "http://gpu-box.corp.internal",
      requestBodyValues: {},
      statusCode: 400,
    });
    for (const error of [refused, odd, new Error("fetch failed for http://gpu-box.corp.internal:11434/v1")]) {
      const text = describeAiError(error);
      expect(text).not.toMatch(/gpu-box|11434/);
    }
    expect(describeAiError(refused)).toBe(
      "No model server answered at the address in AI_BASE_URL (ECONNREFUSED). Is it running? Check AI_BASE_URL, then retry.",
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
