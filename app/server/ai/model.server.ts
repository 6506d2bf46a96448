import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { getConfig, type AiConfig } from "../env.server";

/**
 * The one place that turns `AI_MODEL` / `AI_BASE_URL` / `AI_API_KEY` into a
 * language model. The chat assistant and the ad generator both ask here, so a
 * deployment configures its model once. Each provider goes through its own
 * package (its real request format), never a lookalike.
 */
export function createLanguageModel(ai: AiConfig, options: { fetch?: typeof globalThis.fetch } = {}): LanguageModel {
  const { fetch } = options;
  switch (ai.provider) {
    case "openai":
      return createOpenAI({ apiKey: ai.apiKey, baseURL: ai.baseUrl, fetch })(ai.modelId);
    case "anthropic":
      return createAnthropic({ apiKey: ai.apiKey, baseURL: ai.baseUrl, fetch })(ai.modelId);
    case "google":
      return createGoogleGenerativeAI({ apiKey: ai.apiKey, baseURL: ai.baseUrl, fetch })(ai.modelId);
    case "openai-compatible":
      // includeUsage: without it streamed replies report no token counts.
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL: ai.baseUrl!,
        apiKey: ai.apiKey,
        includeUsage: true,
        fetch,
      }).chatModel(ai.modelId);
  }
}

let override: { model: LanguageModel | null; label: string } | undefined;
let cached: { config: AiConfig; model: LanguageModel } | undefined;

/** The configured model, or null when none is configured (callers fall back to their built-in behaviour). */
export function getLanguageModel(): LanguageModel | null {
  if (override) return override.model;
  const ai = getConfig().ai;
  if (!ai) return null;
  if (cached?.config !== ai) cached = { config: ai, model: createLanguageModel(ai) };
  return cached.model;
}

export interface ModelDescription {
  configured: boolean;
  /** e.g. "openai-compatible:qwen3:8b"; null when none. */
  model: string | null;
  provider: string | null;
  /**
   * The endpoint when it is not the provider's default, without credentials or
   * query: for the server's log only (its readers run the server). Pages, API
   * answers and error messages never show it: a model server's address says
   * where an internal service lives.
   */
  endpoint: string | null;
  /** One line for /settings: the model, never its endpoint or key. */
  summary: string;
}

/** How to configure a model, for the pages that say none is configured. */
export const MODEL_SETUP_HINT =
  "Set AI_MODEL (for example openai:gpt-4.1-mini, or openai-compatible:qwen3:8b with AI_BASE_URL=http://localhost:11434/v1) and AI_API_KEY, then restart.";

export function describeModel(): ModelDescription {
  if (override) {
    return {
      configured: override.model !== null,
      model: override.model ? override.label : null,
      provider: override.model ? override.label.split(":")[0] : null,
      endpoint: null,
      summary: override.model ? override.label : "No model configured",
    };
  }
  const ai = getConfig().ai;
  if (!ai) return { configured: false, model: null, provider: null, endpoint: null, summary: "No model configured" };
  const model = `${ai.provider}:${ai.modelId}`;
  return {
    configured: true,
    model,
    provider: ai.provider,
    endpoint: ai.baseUrl ? withoutCredentials(ai.baseUrl) : null,
    summary: ai.baseUrl ? `${model} (own endpoint, AI_BASE_URL)` : model,
  };
}

function withoutCredentials(url: string) {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    parsed.search = "";
    parsed.hash = "";
    return parsed.toString().replace(/\/+$/, "");
  } catch {
    return "(unparsable AI_BASE_URL)";
  }
}

/**
 * For tests: use this model (e.g. a MockLanguageModelV3) instead of the
 * configured one; `null` means "none configured"; `undefined` restores the
 * configuration.
 */
export function setLanguageModelForTests(model: LanguageModel | null | undefined, label = "mock:test-model") {
  override = model === undefined ? undefined : { model, label };
}
