import { streamChatTurn } from "~/server/ai/chat-http.server";
import type { Route } from "./+types/ai-optimizer-chat";

/** POST {chatId, message | retry} → the answer as a UI message stream (Server-Sent Events). */
export function action({ request }: Route.ActionArgs) {
  return streamChatTurn(request);
}
