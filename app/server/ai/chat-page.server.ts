import { randomUUID } from "node:crypto";
import { data, redirect } from "react-router";
import { z } from "zod";
import { CHAT_END_ID, ChatMessageSchema, CONNECT_FIRST_REPLY, isBlank, MAX_CHAT_MESSAGE_LENGTH, type ChatMessage } from "~/lib/chat";
import type { User } from "../db/schema";
import { optimizerHref } from "~/lib/optimizer-url";
import { userFacingError } from "../http/errors.server";
import { activeAccountOf } from "../account-access.server";
import { findChat, listChats, loadMessages } from "./chat-store.server";
import { runTurn } from "./chat.server";
import { describeModel } from "./model.server";

// The /ai-optimizer page: which chat to show (a past one from ?chat=, or a
// fresh id for a new one), and the no-JavaScript form post.

export async function chatPage(user: User, url: URL) {
  const account = await activeAccountOf(user);
  if (!account) return { connected: false as const };
  const requested = url.searchParams.get("chat");
  const chat = requested ? await findChat(user.id, requested) : null;
  const current = chat && chat.customerId === account.customerId ? chat : null;
  const [chats, messages] = await Promise.all([listChats(user.id, account.customerId), current ? loadMessages(current.id) : Promise.resolve([])]);
  const model = describeModel();
  return {
    connected: true as const,
    accountName: account.name,
    timeZone: account.timeZone,
    chatId: current?.id ?? randomUUID(),
    saved: current !== null,
    notFound: requested !== null && current === null,
    messages,
    chats: chats.map((c) => ({ id: c.id, title: c.title, updatedAt: c.updatedAt })),
    model: model.configured ? model.model : null,
  };
}

const OfflinePost = z.object({
  message: z.string().max(MAX_CHAT_MESSAGE_LENGTH, `Keep messages under ${MAX_CHAT_MESSAGE_LENGTH} characters`),
  history: z
    .string()
    .default("[]")
    .transform((raw, ctx) => {
      try {
        return z.array(ChatMessageSchema).max(200).parse(JSON.parse(raw));
      } catch {
        ctx.addIssue({ code: "custom", message: "The conversation could not be read; please start again" });
        return z.NEVER;
      }
    }),
});

/** Unconnected (seed): the conversation travels in a hidden field and the fixed reply is appended. */
function offlineAction(form: Record<string, FormDataEntryValue>) {
  const parsed = OfflinePost.safeParse(form);
  if (!parsed.success) {
    return data({ messages: [] as ChatMessage[], error: parsed.error.issues[0].message }, { status: 400 });
  }
  const { message, history } = parsed.data;
  if (isBlank(message)) return { messages: history, error: null };
  const messages: ChatMessage[] = [...history, { role: "user", content: message.trim() }, { role: "assistant", content: CONNECT_FIRST_REPLY }];
  return { messages, error: null };
}

// Which button; the question itself is checked by startTurn (TurnInput, the same as the API's).
const ConnectedPost = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("send"), chatId: z.uuid("Unknown chat"), message: z.string() }),
  z.object({ intent: z.literal("retry"), chatId: z.uuid("Unknown chat") }),
]);

/** Without JavaScript: the whole answer is produced here, stored, and the page shows the chat. */
export async function chatPageAction(user: User, form: FormData, url: URL) {
  const fields = Object.fromEntries(form);
  const account = await activeAccountOf(user);
  if (!account) return offlineAction(fields);
  const parsed = ConnectedPost.safeParse({ intent: "send", ...fields });
  if (!parsed.success) {
    return data({ error: parsed.error.issues[0].message, message: String(fields.message ?? "") }, { status: 400 });
  }
  const input = parsed.data;
  try {
    const { chat } = await runTurn(
      { userId: user.id, account },
      input.intent === "retry" ? { chatId: input.chatId, retry: true } : { chatId: input.chatId, message: input.message },
    );
    // To the end of the conversation: without JavaScript nothing else would scroll to the new answer.
    return redirect(optimizerHref(url.search, { chat: chat.id }, CHAT_END_ID));
  } catch (error) {
    const failure = userFacingError(error);
    if (failure) {
      return data({ error: failure.detail, message: input.intent === "send" ? input.message : "" }, { status: failure.status });
    }
    throw error;
  }
}
