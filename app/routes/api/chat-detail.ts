import { data } from "react-router";
import { chatForApi } from "~/server/ai/chat-api.server";
import { changeApiError, NO_STORE } from "~/server/change-api.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import type { Route } from "./+types/chat-detail";

/** GET → { chat, messages }; another user's chat is a 404. */
export async function loader({ request, params }: Route.LoaderArgs) {
  try {
    const { user } = await requireApiSession(request);
    return data(await chatForApi(user.id, params.chatId), { headers: NO_STORE });
  } catch (error) {
    return changeApiError(error);
  }
}
