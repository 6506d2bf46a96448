import { streamChatTurn } from "~/server/ai/chat-http.server";
import { currentSession } from "~/server/request-context.server";
import type { Route } from "./+types/ai-optimizer-chat";

/** POST {chatId, message | retry} → the answer as a UI message stream (Server-Sent Events). */
export async function action({ request, context }: Route.ActionArgs) {
  return streamChatTurn(request, await currentSession(request, context));
}

/** A GET (a person opening the address, a crawler): a plain 405 with Allow: POST, not an error in the log. */
export function loader({ request }: Route.LoaderArgs) {
  return streamChatTurn(request, null);
}
