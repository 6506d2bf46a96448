import { listChatsForApi } from "~/server/ai/chat-api.server";
import { apiRoute } from "~/server/http/api-route.server";
import type { Route } from "./+types/chats";

/** GET → { chats }: the caller's chats, newest activity first. */
export const loader = apiRoute({}, (_args: Route.LoaderArgs, { user }) => listChatsForApi(user.id));
