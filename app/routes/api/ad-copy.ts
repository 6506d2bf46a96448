import { data } from "react-router";
import { adCopyForApi } from "~/server/ad-generator.server";
import { changeApiError, NO_STORE, postOnly, requirePost } from "~/server/change-api.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import type { Route } from "./+types/ad-copy";

export const loader = postOnly;

/**
 * POST { product, audience, tone, finalUrl?, adGroupId?, customerId?, keywords?, facts? }
 * → 200 { headlines, descriptions, path1, path2, strength, source, notices }: a complete RSA
 * whose every line passed the gate. Bad input: 400 { detail, errors } keyed by field; an ad
 * group or account that isn't the caller's: 404.
 */
export async function action({ request }: Route.ActionArgs) {
  try {
    requirePost(request);
    const { user } = await requireApiSession(request);
    return data(await adCopyForApi(user.id, request), { headers: NO_STORE });
  } catch (error) {
    return changeApiError(error);
  }
}
