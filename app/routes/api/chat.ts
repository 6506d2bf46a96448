import { postChatForApi } from "~/server/ai/chat-api.server";
import { TurnInput } from "~/server/ai/chat.server";
import { apiRoute, postOnly } from "~/server/http/api-route.server";
import { readJsonBody } from "~/server/http/errors.server";
import type { Route } from "./+types/chat";

export const loader = postOnly;

/** POST { message, chatId? } or { chatId, retry: true } → { chatId, reply: { text, toolCalls, changeSets } }: the whole turn, on the active account. */
export const action = apiRoute({ method: "POST" }, async ({ request }: Route.ActionArgs, { user }) =>
  postChatForApi(user, await readJsonBody(request, TurnInput)),
);
