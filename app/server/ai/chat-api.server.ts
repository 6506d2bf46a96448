import type { ProposalOutput } from "~/lib/chat";
import type { User } from "../db/schema";
import { getDb } from "../db/db.server";
import { ConflictError, UnavailableError } from "../domain-errors.server";
import { activeAccountOf } from "../account-access.server";
import { listChats, loadMessages, requireChat, type StoredMessage } from "./chat-store.server";
import { runTurn, type TurnInput } from "./chat.server";

// The JSON API of the assistant (bearer token): one whole turn per POST, on
// the caller's active account, and the caller's stored chats. Its body is
// chat.server.ts' TurnInput, the streaming endpoint's too.

export interface ApiReply {
  text: string;
  toolCalls: Array<{ name: string; input: unknown }>;
  changeSets: Array<{ id: string; status: string; url: string }>;
}

const CHANGE_LINK = /\/changes\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/g;

/** A stored assistant message as the API shows it; change sets with their current status, the caller's only. */
export async function replyOf(userId: string, message: StoredMessage | null): Promise<ApiReply> {
  if (!message) return { text: "", toolCalls: [], changeSets: [] };
  const text = message.parts
    .map((p) => (p.type === "text" ? p.text : ""))
    .filter(Boolean)
    .join("\n\n");
  const toolCalls: ApiReply["toolCalls"] = [];
  const ids: string[] = [];
  for (const part of message.parts) {
    if (!part.type.startsWith("tool-") && part.type !== "dynamic-tool") continue;
    const p = part as { type: string; toolName?: string; input?: unknown; rawInput?: unknown; output?: unknown; state?: string };
    toolCalls.push({ name: p.type === "dynamic-tool" ? String(p.toolName) : p.type.slice("tool-".length), input: p.input ?? p.rawInput ?? null });
    if (p.state === "output-available" && typeof (p.output as ProposalOutput | undefined)?.changeSetId === "string")
      ids.push((p.output as ProposalOutput).changeSetId);
  }
  for (const m of text.matchAll(CHANGE_LINK)) ids.push(m[1]);
  const unique = [...new Set(ids)];
  const rows = unique.length
    ? await getDb().selectFrom("change_sets").select(["id", "status"]).where("user_id", "=", userId).where("id", "in", unique).execute()
    : [];
  const status = new Map(rows.map((r) => [r.id, r.status]));
  return {
    text,
    toolCalls,
    changeSets: unique.filter((id) => status.has(id)).map((id) => ({ id, status: status.get(id)!, url: `/changes/${id}` })),
  };
}

export async function postChatForApi(user: User, body: TurnInput) {
  const account = await activeAccountOf(user);
  if (!account) throw new ConflictError("Connect a Google Ads account first; the assistant answers about your active account");
  const { chat, message } = await runTurn({ userId: user.id, account }, body);
  if (message?.metadata?.error) throw new UnavailableError(message.metadata.error, chat.id);
  return { chatId: chat.id, reply: await replyOf(user.id, message) };
}

export async function listChatsForApi(userId: string) {
  const chats = await listChats(userId, undefined, 200);
  return { chats };
}

export async function chatForApi(userId: string, chatId: string) {
  const chat = await requireChat(userId, chatId);
  const messages = await loadMessages(chat.id);
  return {
    chat,
    messages: await Promise.all(
      messages.map(async (m) => {
        const reply = await replyOf(userId, m);
        return {
          id: m.id,
          role: m.role as "user" | "assistant",
          createdAt: m.metadata?.createdAt ?? chat.createdAt,
          ...reply,
          error: m.metadata?.error ?? null,
          usage: m.metadata?.usage
            ? {
                inputTokens: m.metadata.usage.inputTokens ?? null,
                outputTokens: m.metadata.usage.outputTokens ?? null,
                totalTokens: m.metadata.usage.totalTokens ?? null,
              }
            : null,
        };
      }),
    ),
  };
}
