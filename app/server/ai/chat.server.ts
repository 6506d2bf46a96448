import { randomUUID } from "node:crypto";
import { convertToModelMessages, createUIMessageStream, stepCountIs, streamText, type UIMessageChunk } from "ai";
import { z } from "zod";
import { MAX_CHAT_MESSAGE_LENGTH, type ChatMessageMeta } from "~/lib/chat";
import { todayIn } from "~/lib/dates";
import { textError } from "~/lib/text-error";
import { ConflictError, InvalidError, NotFoundError, parseInput } from "../domain-errors.server";
import type { ReportAccount } from "../account-access.server";
import { analystAnswer, NO_MODEL_NOTE } from "./analyst.server";
import { appendMessage, dropTrailingFailures, loadMessages, openChat, requireChat, type ChatSummary, type StoredMessage } from "./chat-store.server";
import { historyForModel, textOf } from "./chat-history.server";
import { describeAiError, describeToolErrorText, isToolError } from "./errors.server";
import { openMeter, type Meter } from "./metered.server";
import { describeModel } from "./model.server";
import { systemPrompt } from "./prompt.server";
import { buildTools } from "./tools.server";
import { errorMessage, log } from "../log.server";

/** At most this many model steps (each may call tools) per question. */
export const MAX_TOOL_STEPS = 8;

/**
 * The one body of a turn, for the streaming endpoint, the JSON API and the
 * page's form alike (startTurn parses it itself, so no caller can skip it): a
 * new question of at most MAX_CHAT_MESSAGE_LENGTH characters, or a retry of
 * the chat's last question.
 */
export const TurnInput = z
  .object({
    chatId: z.uuid("chatId must be the id of one of your chats").optional(),
    message: z
      .string(textError("message"))
      .trim()
      .min(1, "message cannot be empty")
      .max(MAX_CHAT_MESSAGE_LENGTH, `message can be at most ${MAX_CHAT_MESSAGE_LENGTH} characters`)
      .optional()
      .describe("The question; leave it out with retry"),
    retry: z.literal(true, "retry can only be true").optional().describe("Answer the chat's last question again (after an error); needs chatId, no message"),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.retry && v.message !== undefined) ctx.addIssue({ code: "custom", path: ["message"], message: "Send either a message or retry, not both" });
    if (v.retry && !v.chatId) ctx.addIssue({ code: "custom", path: ["chatId"], message: "retry needs the chatId of the chat to answer again" });
    if (!v.retry && v.message === undefined) ctx.addIssue({ code: "custom", path: ["message"], message: "message is required" });
  });
export type TurnInput = z.input<typeof TurnInput>;

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

/** The chat's messages without failed answers at the end (what Retry answers again). */
const withoutTrailingFailures = (messages: StoredMessage[]) => {
  let end = messages.length;
  while (end > 0 && messages[end - 1].role === "assistant" && messages[end - 1].metadata?.error) end--;
  return messages.slice(0, end);
};

/**
 * One question and its answer: the question is stored first (so it survives
 * any failure), then the configured model (or, without one, the built-in
 * analyst) answers as a UI message stream, and the answer is stored when the
 * stream ends, with its tokens, or with the error a person should read. The
 * model comes through the metered door: a question or a retry is one of
 * today's AI_DAILY_MESSAGE_LIMIT, taken before anything is stored.
 */
export async function startTurn(ctx: TurnContext, raw: TurnInput): Promise<Turn> {
  const input = parseInput(TurnInput, raw);
  let chat: ChatSummary | undefined;
  if (input.retry) {
    chat = await requireChat(ctx.userId, input.chatId!);
    if (chat.customerId !== ctx.account.customerId) throw new NotFoundError("Chat not found");
    if (withoutTrailingFailures(await loadMessages(chat.id)).at(-1)?.role !== "user") throw new ConflictError("The last question already has an answer");
  }
  const meter = await openMeter(ctx.userId, "chat");
  try {
    if (chat) {
      await dropTrailingFailures(chat.id);
    } else {
      chat = await openChat(ctx.userId, ctx.account.customerId, input.chatId, input.message!);
      await appendMessage(ctx.userId, chat.id, { role: "user", parts: [{ type: "text", text: input.message! }] });
    }
    return await answer(ctx, chat, meter);
  } catch (error) {
    await meter.release();
    throw error;
  }
}

async function answer(ctx: TurnContext, chat: ChatSummary, meter: Meter): Promise<Turn> {
  const history = (await loadMessages(chat.id)).filter((m) => !(m.role === "assistant" && m.metadata?.error && m.parts.length === 0));
  if (history.at(-1)?.role !== "user") throw new InvalidError("Nothing to answer");
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
    } finally {
      await meter.release().catch((error: unknown) => log.warn(`Releasing the AI lease of chat ${chat.id}: ${errorMessage(error)}`));
    }
  };

  const model = meter.model;
  const modelName = describeModel().model ?? undefined;
  const messageId = randomUUID();
  // The person's own words in this chat: what a removal may be proposed on (tools.server.ts).
  const personsWords = history.filter((m) => m.role === "user").map(textOf);

  if (!model) {
    const stream = createUIMessageStream<StoredMessage>({
      execute: async ({ writer }) => {
        writer.write({ type: "start", messageId, messageMetadata: { builtIn: true } });
        // The no-model notice once per chat, in its first built-in answer.
        const notice = !history.some((m) => m.role === "assistant" && m.metadata?.builtIn);
        const answer = await analystAnswer({ userId: ctx.userId, account: ctx.account, chatId: chat.id, personsWords }, question, { notice });
        for (const step of answer.steps) {
          const toolCallId = `call-${randomUUID()}`;
          writer.write({ type: "tool-input-available", toolCallId, toolName: step.toolName, input: step.input });
          writer.write({ type: "tool-output-available", toolCallId, output: step.output });
        }
        const id = `text-${randomUUID()}`;
        writer.write({ type: "text-start", id });
        writer.write({ type: "text-delta", id, delta: meter.notice ? withNotice(answer.text, meter.notice) : answer.text });
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

  const tools = buildTools({ userId: ctx.userId, account: ctx.account, chatId: chat.id, personsWords });
  const sent = historyForModel(history);
  const result = streamText({
    model,
    system: systemPrompt(ctx.account, todayIn(ctx.account.timeZone), sent.earlierQuestions),
    allowSystemInMessages: false,
    messages: await convertToModelMessages(sent.messages, { tools, ignoreIncompleteToolCalls: true }),
    tools,
    stopWhen: stepCountIs(MAX_TOOL_STEPS),
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
        log.warn({ err: error, endpoint: describeModel().endpoint }, `Assistant turn failed (chat ${chat.id}): ${errorMessage(error)}`);
      }
      return message;
    },
    onFinish: ({ responseMessage, isAborted }) => save(responseMessage, isAborted),
  });
  return { chat, stream, done };
}

/** The analyst's answer, opening with why the model did not answer instead of "no model is configured". */
function withNotice(text: string, notice: string): string {
  return `${notice}\n\n${text.startsWith(NO_MODEL_NOTE) ? text.slice(NO_MODEL_NOTE.length).trimStart() : text}`;
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
