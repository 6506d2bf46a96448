import { APICallError, InvalidToolInputError, NoSuchToolError, RetryError } from "ai";
import { userFacingError } from "../http/errors.server";
import { describeModel } from "./model.server";
import { ToolRefusal } from "./tools.server";

/**
 * What the person (and, for tool errors, the model) reads when something
 * fails. Provider failures become one clear sentence naming the cause; tool
 * refusals keep their own message. Nothing here includes a key.
 */

/** A tool call was refused (unknown tool, bad arguments, not in this account): the turn goes on. */
export function isToolError(error: unknown): boolean {
  return error instanceof ToolRefusal || NoSuchToolError.isInstance(error) || InvalidToolInputError.isInstance(error);
}

function firstIssue(error: InvalidToolInputError): string {
  const cause = (error as { cause?: { cause?: { issues?: Array<{ path: PropertyKey[]; message: string }> } } }).cause;
  const issue = cause?.cause?.issues?.[0];
  if (!issue) return "they do not match its schema";
  const where = issue.path.map(String).join(".");
  return `${where ? `${where}: ` : ""}${issue.message}`.slice(0, 300);
}

function causeCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let i = 0; i < 4 && e && typeof e === "object"; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function describeToolError(error: unknown): string {
  if (error instanceof ToolRefusal) return error.message;
  if (NoSuchToolError.isInstance(error)) {
    return `Refused: there is no tool named “${String(error.toolName).slice(0, 80)}”. Nothing was done. The assistant can only read the account and propose change sets; a person applies them on the review page.`;
  }
  if (InvalidToolInputError.isInstance(error)) {
    return `Refused: the arguments for ${error.toolName} are not valid (${firstIssue(error)}). Nothing was done.`;
  }
  return "The tool failed";
}

/** A tool error the SDK has already turned into text (its own wording for unknown tools and bad arguments). */
export function describeToolErrorText(text: string): string {
  const unknown = /^Model tried to call unavailable tool '([^']*)'/.exec(text);
  if (unknown) return describeToolError(new NoSuchToolError({ toolName: unknown[1] }));
  const invalid = /^Invalid input for tool ([\w-]+)/.exec(text);
  if (invalid) {
    // The SDK's text carries zod's issues as JSON: name the first one.
    const message = /"message":\s*"((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
    const path = /"path":\s*\[([^\]]*)\]/.exec(text)?.[1]?.replace(/["\s]/g, "").replace(/,/g, ".");
    const detail = message ? ` (${path ? `${path}: ` : ""}${message})` : /JSON/i.test(text) ? " (they are not valid JSON)" : "";
    return `Refused: the arguments for ${invalid[1]} are not valid${detail.slice(0, 300)}. Nothing was done.`;
  }
  return text.slice(0, 500);
}

/** Addresses in a provider's message (an endpoint, a docs link) stay in the server's log. */
const withoutUrls = (text: string) => text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, "(address omitted)");

/**
 * The sentence a person reads. It names the variable to check but never the
 * endpoint (AI_BASE_URL's host) or anything from a URL: that is for the
 * server's log, whose readers run the server (see describeModel).
 */
export function describeAiError(error: unknown): string {
  if (isToolError(error)) return describeToolError(error);
  const failure = userFacingError(error);
  if (failure) return failure.detail;
  const e = RetryError.isInstance(error) ? error.lastError : error;
  const model = describeModel();
  const where = model.endpoint ? "the address in AI_BASE_URL" : (model.provider ?? "the provider");
  if (APICallError.isInstance(e)) {
    const status = e.statusCode;
    if (status === 401 || status === 403) return `The model provider rejected the API key (HTTP ${status}). Check AI_API_KEY, then retry.`;
    if (status === 429) return "The model provider is rate limiting requests (HTTP 429). Wait a moment, then retry.";
    if (status === 404) return `The model ${model.model ?? ""} was not found at ${where} (HTTP 404). Check AI_MODEL.`;
    if (status !== undefined && status >= 500) return `The model server at ${where} failed (HTTP ${status}). Retry in a moment.`;
    const code = causeCode(e);
    if (status === undefined || code) {
      return `No model server answered at ${where}${code ? ` (${code})` : ""}. Is it running? Check AI_BASE_URL, then retry.`;
    }
    return `The model provider refused the request (HTTP ${status}): ${withoutUrls(e.message).slice(0, 200)}`;
  }
  const name = (e as { name?: string } | null)?.name;
  if (name === "TimeoutError" || name === "AbortError" || /timed? ?out/i.test(String((e as Error | null)?.message))) {
    return "The model did not answer in time. Retry, or ask a narrower question.";
  }
  const code = causeCode(e);
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "ECONNRESET") {
    return `No model server answered at ${where} (${code}). Is it running? Check AI_BASE_URL, then retry.`;
  }
  return `The assistant could not answer: ${withoutUrls(String((e as Error | null)?.message ?? e)).slice(0, 200)}`;
}
