import { discardDraftsForApi } from "~/server/change-api.server";
import { apiRoute, postOnly } from "~/server/http/api-route.server";
import type { Route } from "./+types/drafts-discard";

export const loader = postOnly;

/** POST { ids } → { discarded, notDiscarded: [{ id, reason }] }: the caller's drafts among ids discarded, never sent to Google. */
export const action = apiRoute({ method: "POST" }, ({ request }: Route.ActionArgs, { user }) => discardDraftsForApi(user.id, request));
