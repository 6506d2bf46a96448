import { z } from "zod";
import { TurnInput } from "../ai/chat.server";
import { defineArea, errorResponse, NOT_JSON, ok, Timestamp, TOO_MANY } from "./registry.server";

// /chat and /chats: the assistant, one whole turn per request (not streamed),
// on the caller's active Google Ads account.

const ChangeSetRef = z.object({
  id: z.uuid(),
  status: z.string().describe("The change set's current status (proposed, validated, applied, …)"),
  url: z.string().describe("Its review page in the app, /changes/{id}"),
});

export const ChatReply = z.object({
  text: z.string().describe("The answer, Markdown"),
  toolCalls: z.array(z.object({ name: z.string(), input: z.unknown() })).describe("The tools the assistant used, in order, with their arguments"),
  changeSets: z.array(ChangeSetRef).describe("Change sets it proposed or linked; none is applied until the caller applies it"),
});

export const ChatSummary = z.object({
  id: z.uuid(),
  customerId: z.string().regex(/^\d{10}$/),
  title: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const Usage = z.object({ inputTokens: z.number().nullable(), outputTokens: z.number().nullable(), totalTokens: z.number().nullable() });

export const ChatMessageView = ChatReply.extend({
  id: z.string(),
  role: z.enum(["user", "assistant"]),
  createdAt: Timestamp,
  error: z.string().nullable().describe("Why the assistant could not answer (the question is kept)"),
  usage: Usage.nullable().describe("Tokens of an assistant message"),
});

const ChatIdParams = z.object({ chatId: z.uuid().describe("A chat id from GET /chats or POST /chat") });

export default defineArea({
  tag: "assistant",
  description: "The AI assistant: reads the active account and proposes change sets; it never applies one.",
  schemas: { ChatReply, ChatSummary, ChatMessageView },
  paths: {
    "/chat": {
      post: {
        summary: "Ask the assistant; answers with the whole turn (not streamed)",
        description:
          "Runs one turn on the caller's active account: the configured model with its tools, or the built-in analyst when no model is configured (or the address is unconfirmed, or the install's AI_MONTHLY_TOKEN_BUDGET is spent; the reply says so). Without chatId a new chat is started; { chatId, retry: true } answers the chat's last question again after an error. A question or a retry answered by the model counts toward AI_DAILY_MESSAGE_LIMIT. The same body, with the same limits, as the page's streaming endpoint. Proposals appear in reply.changeSets; apply them with POST /change-sets/{id}/apply.",
        body: TurnInput,
        responses: {
          200: ok("The answer", z.object({ chatId: z.uuid(), reply: ChatReply })),
          400: errorResponse("Invalid body (empty or too long message, malformed chatId, retry without chatId)"),
          404: errorResponse("chatId is not one of the caller's chats on the active account"),
          405: errorResponse("Method not allowed (POST only)"),
          409: errorResponse("No Google Ads account connected, or retry when the last question already has an answer"),
          415: NOT_JSON,
          429: { ...TOO_MANY, description: "AI_DAILY_MESSAGE_LIMIT reached for today (UTC), or two AI requests of the caller's already running" },
          502: {
            ...errorResponse("The model could not answer (no server at AI_BASE_URL, key rejected, rate limited, timeout); the question is kept"),
            headers: { "X-Chat-Id": "The chat the question was stored in" },
          },
        },
      },
    },
    "/chats": {
      get: {
        summary: "The caller's chats, most recent activity first",
        responses: { 200: ok("Chats", z.object({ chats: z.array(ChatSummary) })) },
      },
    },
    "/chats/{chatId}": {
      get: {
        summary: "One chat with its messages",
        path: ChatIdParams,
        responses: {
          200: ok("The chat", z.object({ chat: ChatSummary, messages: z.array(ChatMessageView) })),
          404: errorResponse("Unknown chat, or another user's"),
        },
      },
    },
  },
});
