import { data } from "react-router";
import { listChatsForApi } from "~/server/ai/chat-api.server";
import { changeApiError, NO_STORE } from "~/server/change-api.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import type { Route } from "./+types/chats";

/** GET → { chats }: the caller's chats, newest activity first. */
export async function loader({ request }: Route.LoaderArgs) {
  try {
    const { user } = await requireApiSession(request);
    return data(await listChatsForApi(user.id), { headers: NO_STORE });
  } catch (error) {
    return changeApiError(error);
  }
}
