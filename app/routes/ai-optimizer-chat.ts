import { streamChatTurn } from "~/server/ai/chat-http.server";
import { currentSession } from "~/server/request-context.server";
import type { Route } from "./+types/ai-optimizer-chat";

/** POST {chatId, message | retry} → the answer as a UI message stream (Server-Sent Events). */
export async function action({ request, context }: Route.ActionArgs) {
  return streamChatTurn(request, await currentSession(request, context));
}
