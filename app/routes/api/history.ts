import { listHistory } from "~/server/changes/history.server";
import { apiRoute } from "~/server/http/api-route.server";
import type { Route } from "./+types/history";

/** GET ?customerId&resourceKind&status&source&from&to&q&page → { items, total } (50 per page, newest first). */
export const loader = apiRoute({}, ({ url }: Route.LoaderArgs, { user }) => {
  const params = Object.fromEntries([...url.searchParams].filter(([, v]) => v !== ""));
  return listHistory(user.id, params);
});
