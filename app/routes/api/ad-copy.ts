import { adCopyForApi } from "~/server/ad-generator.server";
import { apiRoute, postOnly } from "~/server/http/api-route.server";
import type { Route } from "./+types/ad-copy";

export const loader = postOnly;

/**
 * POST { product, audience, tone, finalUrl?, adGroupId?, customerId?, keywords?, facts? }
 * → 200 { headlines, descriptions, path1, path2, strength, source, notices }: a complete RSA
 * whose every line passed the gate. Bad input: 400 { detail, errors } keyed by field; an ad
 * group or account that isn't the caller's: 404.
 */
export const action = apiRoute({ method: "POST" }, ({ request }: Route.ActionArgs, { user }) => adCopyForApi(user.id, request));
