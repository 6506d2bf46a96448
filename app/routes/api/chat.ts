import { data } from "react-router";
import { ChatPostBody, postChatForApi } from "~/server/ai/chat-api.server";
import { changeApiError, NO_STORE, postOnly, requirePost } from "~/server/change-api.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import { readJsonBody } from "~/server/http/errors.server";
import type { Route } from "./+types/chat";

export const loader = postOnly;

/** POST { message, chatId? } → { chatId, reply: { text, toolCalls, changeSets } }: the whole turn, on the active account. */
export async function action({ request }: Route.ActionArgs) {
  try {
    requirePost(request);
    const { user } = await requireApiSession(request);
    const body = await readJsonBody(request, ChatPostBody);
    return data(await postChatForApi(user, body), { headers: NO_STORE });
  } catch (error) {
    return changeApiError(error);
  }
}
