import { randomUUID } from "node:crypto";
import { convertToModelMessages, createUIMessageStream, stepCountIs, streamText, type UIMessageChunk } from "ai";
import { z } from "zod";
import { isBlank, MAX_CHAT_MESSAGE_LENGTH, type ChatMessageMeta } from "~/lib/chat";
import { todayIn } from "~/lib/dates";
import { getConfig } from "../env.server";
import { ConflictError, InvalidError, LimitReachedError, NotFoundError } from "../domain-errors.server";
import type { ReportAccount } from "../account-access.server";
import { analystAnswer } from "./analyst.server";
import {
  appendMessage,
  dropTrailingFailures,
  loadMessages,
  messagesSentToday,
  openChat,
  requireChat,
  type ChatSummary,
  type StoredMessage,
} from "./chat-store.server";
import { describeAiError, describeToolErrorText, isToolError } from "./errors.server";
import { describeModel, getLanguageModel } from "./model.server";
import { systemPrompt } from "./prompt.server";
import { buildTools } from "./tools.server";
import { errorMessage, log } from "../log.server";

/** At most this many model steps (each may call tools) per question. */
export const MAX_TOOL_STEPS = 8;
const MAX_OUTPUT_TOKENS = 2000;

export const TurnInput = z.object({
  chatId: z.uuid("Unknown chat").optional(),
  message: z.string().max(MAX_CHAT_MESSAGE_LENGTH, `Keep messages under ${MAX_CHAT_MESSAGE_LENGTH} characters`).optional(),
  /** Answer the last question again (after an error); sends no new message. */
  retry: z.boolean().optional(),
});
export type TurnInput = z.infer<typeof TurnInput>;

export interface TurnContext {
  userId: string;
  account: ReportAccount;
  /** Aborts the model call (the person pressed Stop or closed the tab). */
  signal?: AbortSignal;
}

export interface Turn {
  chat: ChatSummary;
  stream: ReadableStream<UIMessageChunk>;
  /** Settles once the answer is stored (also after an error or Stop). */
  done: Promise<StoredMessage | null>;
}

export class DailyLimitError extends LimitReachedError {
  constructor(limit: number) {
    super(`You have reached today's limit of ${limit} messages to the assistant (AI_DAILY_MESSAGE_LIMIT). It resets at midnight UTC.`, {
      message: `Daily limit of ${limit} messages reached`,
    });
  }
}

/**
 * One question and its answer: the question is stored first (so it survives
 * any failure), then the configured model (or, without one, the built-in
 * analyst) answers as a UI message stream, and the answer is stored when the
 * stream ends, with its tokens, or with the error a person should read.
 */
export async function startTurn(ctx: TurnContext, input: TurnInput): Promise<Turn> {
  const text = input.message?.trim() ?? "";
  if (!input.retry && isBlank(text)) throw new InvalidError("Type a question first", { message: "Type a question first" });
  let chat: ChatSummary;
  if (input.retry) {
    if (!input.chatId) throw new InvalidError("Nothing to retry");
    chat = await requireChat(ctx.userId, input.chatId);
    if (chat.customerId !== ctx.account.customerId) throw new NotFoundError("Chat not found");
    await dropTrailingFailures(chat.id);
    const last = (await loadMessages(chat.id)).at(-1);
    if (last?.role !== "user") throw new ConflictError("The last question already has an answer");
  } else {
    const limit = getConfig().AI_DAILY_MESSAGE_LIMIT;
    if ((await messagesSentToday(ctx.userId)) >= limit) throw new DailyLimitError(limit);
    chat = await openChat(ctx.userId, ctx.account.customerId, input.chatId, text);
    await appendMessage(ctx.userId, chat.id, { role: "user", parts: [{ type: "text", text }] });
  }

  const history = (await loadMessages(chat.id)).filter((m) => !(m.role === "assistant" && m.metadata?.error && m.parts.length === 0));
  const question = textOf(history.at(-1));
  let settle!: (m: StoredMessage | null) => void;
  const done = new Promise<StoredMessage | null>((resolve) => (settle = resolve));
  let failure: string | undefined;

  const save = async (response: StoredMessage, isAborted: boolean) => {
    try {
      // Only what this turn added; an empty answer is stored only to carry its error.
      const parts = response.parts.filter((p) => p.type !== "step-start");
      const metadata: ChatMessageMeta = {
        ...response.metadata,
        ...(failure ? { error: failure } : {}),
        ...(isAborted ? { stopped: true } : {}),
      } as ChatMessageMeta;
      if (parts.length === 0 && !failure) return settle(null);
      const id = await appendMessage(ctx.userId, chat.id, { role: "assistant", parts, metadata });
      settle({ id, role: "assistant", parts, metadata });
    } catch (error) {
      log.error({ err: error }, `Saving the assistant's answer in chat ${chat.id} failed`);
      settle(null);
    }
  };

  const model = getLanguageModel();
  const modelName = describeModel().model ?? undefined;
  const messageId = randomUUID();

  if (!model) {
    const stream = createUIMessageStream<StoredMessage>({
      execute: async ({ writer }) => {
        writer.write({ type: "start", messageId, messageMetadata: { builtIn: true } });
        // The no-model notice once per chat, in its first built-in answer.
        const notice = !history.some((m) => m.role === "assistant" && m.metadata?.builtIn);
        const answer = await analystAnswer({ userId: ctx.userId, account: ctx.account, chatId: chat.id }, question, { notice });
        for (const step of answer.steps) {
          const toolCallId = `call-${randomUUID()}`;
          writer.write({ type: "tool-input-available", toolCallId, toolName: step.toolName, input: step.input });
          writer.write({ type: "tool-output-available", toolCallId, output: step.output });
        }
        const id = `text-${randomUUID()}`;
        writer.write({ type: "text-start", id });
        writer.write({ type: "text-delta", id, delta: answer.text });
        writer.write({ type: "text-end", id });
        writer.write({ type: "finish", messageMetadata: { builtIn: true } });
      },
      onError: (error) => {
        failure = describeAiError(error);
        log.error({ err: error }, "Built-in analyst failed");
        return failure;
      },
      onFinish: ({ responseMessage, isAborted }) => save(responseMessage, isAborted),
    });
    return { chat, stream, done };
  }

  const tools = buildTools({ userId: ctx.userId, account: ctx.account, chatId: chat.id });
  const result = streamText({
    model,
    system: systemPrompt(ctx.account, todayIn(ctx.account.timeZone)),
    allowSystemInMessages: false,
    messages: await convertToModelMessages(history, { tools, ignoreIncompleteToolCalls: true }),
    tools,
    stopWhen: stepCountIs(MAX_TOOL_STEPS),
    maxOutputTokens: MAX_OUTPUT_TOKENS,
    maxRetries: 1,
    timeout: { totalMs: 180_000, chunkMs: 60_000 },
    abortSignal: ctx.signal,
    // Reported once, mapped to a readable message, by the UI stream's onError below.
    onError: () => {},
  });
  const stream = result.toUIMessageStream<StoredMessage>({
    originalMessages: history,
    generateMessageId: () => messageId,
    sendReasoning: false,
    messageMetadata: ({ part }) => {
      if (part.type === "start") return { model: modelName };
      if (part.type === "finish") {
        const u = part.totalUsage;
        return {
          model: modelName,
          usage: { inputTokens: u.inputTokens, outputTokens: u.outputTokens, totalTokens: u.totalTokens },
          ...(part.finishReason === "tool-calls" ? { note: `Stopped after ${MAX_TOOL_STEPS} steps; ask a narrower question to go on.` } : {}),
        };
      }
      return undefined;
    },
    onError: (error) => {
      // The SDK hands a refused tool call's error over twice: as the error, then as its text.
      if (typeof error === "string") return describeToolErrorText(error);
      if (failure) return failure;
      const message = describeAiError(error);
      if (!isToolError(error)) {
        failure = message;
        log.warn(`Assistant turn failed (chat ${chat.id}): ${errorMessage(error)}`);
      }
      return message;
    },
    onFinish: ({ responseMessage, isAborted }) => save(responseMessage, isAborted),
  });
  return { chat, stream, done };
}

function textOf(message: StoredMessage | undefined): string {
  return (message?.parts ?? [])
    .map((p) => (p.type === "text" ? p.text : ""))
    .join(" ")
    .trim();
}

/** The whole turn, for the no-JavaScript form and the JSON API: reads the stream to its end. */
export async function runTurn(ctx: TurnContext, input: TurnInput): Promise<{ chat: ChatSummary; message: StoredMessage | null }> {
  const turn = await startTurn(ctx, input);
  const reader = turn.stream.getReader();
  while (!(await reader.read()).done) {
    // The stored message is the result; the chunks are only drained.
  }
  return { chat: turn.chat, message: await turn.done };
}
