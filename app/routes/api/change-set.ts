import { changeSetForApi } from "~/server/change-api.server";
import { apiRoute } from "~/server/http/api-route.server";
import type { Route } from "./+types/change-set";

/** GET → { changeSet }: its status, Google's verdict and the before/after of every change. */
export const loader = apiRoute({}, ({ params }: Route.LoaderArgs, { user }) => changeSetForApi(user.id, params.changeSetId));
