import { chatForApi } from "~/server/ai/chat-api.server";
import { apiRoute } from "~/server/http/api-route.server";
import type { Route } from "./+types/chat-detail";

/** GET → { chat, messages }; another user's chat is a 404. */
export const loader = apiRoute({}, ({ params }: Route.LoaderArgs, { user }) => chatForApi(user.id, params.chatId));
