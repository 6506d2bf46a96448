import { data } from "react-router";
import { listHistory } from "~/server/changes/history.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import { apiError } from "~/server/http/errors.server";
import type { Route } from "./+types/history";

/** GET ?customerId&resourceKind&status&source&from&to&q&page → { items, total } (50 per page, newest first). */
export async function loader({ request }: Route.LoaderArgs) {
  try {
    const { user } = await requireApiSession(request);
    const params = Object.fromEntries([...new URL(request.url).searchParams].filter(([, v]) => v !== ""));
    return data(await listHistory(user.id, params), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return apiError(error);
  }
}
