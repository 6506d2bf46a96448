import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { UIMessage } from "ai";
import type { ChatMessageMeta } from "~/lib/chat";
import { isUuid } from "~/lib/uuid";
import { getDb } from "../db/db.server";
import { NotFoundError } from "../domain-errors.server";

/**
 * Chats and their messages, per user and Google Ads account. Another user's
 * chat id is indistinguishable from an unknown one (404). Messages are kept
 * in the AI SDK's UIMessage form.
 */

export type StoredMessage = UIMessage<ChatMessageMeta>;

export interface ChatSummary {
  id: string;
  customerId: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

export async function listChats(userId: string, customerId?: string, limit = 50): Promise<ChatSummary[]> {
  let q = getDb().selectFrom("chats").selectAll().where("user_id", "=", userId);
  if (customerId) q = q.where("customer_id", "=", customerId);
  const rows = await q.orderBy("updated_at", "desc").orderBy("id").limit(limit).execute();
  return rows.map((r) => ({ id: r.id, customerId: r.customer_id, title: r.title, createdAt: r.created_at, updatedAt: r.updated_at }));
}

/** The user's chat, or null when it does not exist yet or is someone else's. */
export async function findChat(userId: string, chatId: string): Promise<ChatSummary | null> {
  if (!isUuid(chatId)) return null;
  const r = await getDb().selectFrom("chats").selectAll().where("id", "=", chatId).where("user_id", "=", userId).executeTakeFirst();
  return r ? { id: r.id, customerId: r.customer_id, title: r.title, createdAt: r.created_at, updatedAt: r.updated_at } : null;
}

export async function requireChat(userId: string, chatId: string): Promise<ChatSummary> {
  const chat = await findChat(userId, chatId);
  if (!chat) throw new NotFoundError("Chat not found");
  return chat;
}

/**
 * The chat to post into: an existing one of this user's on this account, or a
 * new one with the id the page handed out. An id taken by someone else's
 * chat, or by a chat on another account, is refused like an unknown one.
 */
export async function openChat(userId: string, customerId: string, chatId: string | undefined, firstMessage: string): Promise<ChatSummary> {
  const id = chatId ?? randomUUID();
  if (!isUuid(id)) throw new NotFoundError("Chat not found");
  const existing = await getDb().selectFrom("chats").select(["user_id", "customer_id"]).where("id", "=", id).executeTakeFirst();
  if (existing) {
    if (existing.user_id !== userId || existing.customer_id !== customerId) throw new NotFoundError("Chat not found");
    return requireChat(userId, id);
  }
  const now = new Date().toISOString();
  const title = firstMessage.replace(/\s+/g, " ").trim().slice(0, 80) || "New chat";
  await getDb().insertInto("chats").values({ id, user_id: userId, customer_id: customerId, title, created_at: now, updated_at: now }).execute();
  return { id, customerId, title, createdAt: now, updatedAt: now };
}

function parseParts(json: string): StoredMessage["parts"] {
  try {
    const parts: unknown = JSON.parse(json);
    return Array.isArray(parts) ? (parts as StoredMessage["parts"]) : [];
  } catch {
    return [];
  }
}

export async function loadMessages(chatId: string): Promise<StoredMessage[]> {
  const rows = await getDb().selectFrom("chat_messages").selectAll().where("chat_id", "=", chatId).orderBy("seq").execute();
  return rows.map((r) => ({
    id: r.id,
    role: r.role,
    parts: parseParts(r.parts_json),
    metadata: {
      ...(r.metadata_json ? (JSON.parse(r.metadata_json) as ChatMessageMeta) : {}),
      createdAt: r.created_at,
    },
  }));
}

export async function appendMessage(
  userId: string,
  chatId: string,
  message: { id?: string; role: "user" | "assistant"; parts: StoredMessage["parts"]; metadata?: ChatMessageMeta },
): Promise<string> {
  const db = getDb();
  const id = message.id && message.id.length <= 64 ? message.id : randomUUID();
  const now = new Date().toISOString();
  const usage = message.metadata?.usage;
  const { createdAt: _c, ...meta } = message.metadata ?? {};
  await db.transaction().execute(async (trx) => {
    const last = await trx
      .selectFrom("chat_messages")
      .select(sql<number>`MAX(seq)`.as("seq"))
      .where("chat_id", "=", chatId)
      .executeTakeFirst();
    await trx
      .insertInto("chat_messages")
      .values({
        id,
        chat_id: chatId,
        user_id: userId,
        seq: Number(last?.seq ?? -1) + 1,
        role: message.role,
        parts_json: JSON.stringify(message.parts),
        metadata_json: Object.keys(meta).length ? JSON.stringify(meta) : null,
        input_tokens: usage?.inputTokens ?? null,
        output_tokens: usage?.outputTokens ?? null,
        total_tokens: usage?.totalTokens ?? null,
        created_at: now,
      })
      .execute();
    await trx.updateTable("chats").set({ updated_at: now }).where("id", "=", chatId).execute();
  });
  return id;
}

/** Retry: the failed answers after the last question go; the question stays. */
export async function dropTrailingFailures(chatId: string): Promise<void> {
  const messages = await loadMessages(chatId);
  const drop: string[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i].role === "assistant" && messages[i].metadata?.error; i--) drop.push(messages[i].id);
  if (drop.length) await getDb().deleteFrom("chat_messages").where("id", "in", drop).execute();
}
