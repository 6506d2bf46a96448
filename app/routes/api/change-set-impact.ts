import { impactOfChangeSet } from "~/server/impact/service.server";
import { apiRoute } from "~/server/http/api-route.server";
import type { Route } from "./+types/change-set-impact";

/** GET → { impact }: the applied change set's measured effect against untouched peers (ADR 027). */
export const loader = apiRoute({}, async ({ params }: Route.LoaderArgs, { user }) => ({ impact: await impactOfChangeSet(user.id, params.changeSetId) }));
