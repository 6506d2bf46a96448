import { data } from "react-router";
import { z } from "zod";
import { AccessTokenForm } from "~/lib/access-token-form";
import { parseSubmission, refusal } from "~/lib/form-submission";
import type { User } from "../db/schema";
import { userFacingError } from "../http/errors.server";
import { getConfig } from "../env.server";
import { redirectWithToast } from "../toast.server";
import { createAccessToken, listAccessTokens, MAX_ACCESS_TOKENS, revokeAccessToken } from "./access-tokens.server";

/**
 * /settings' "Access tokens" (issue 34): the person's personal access tokens
 * for their own agent (MCP) and scripts (JSON API), a form to create one and
 * a Revoke per token, all plain posts that work without JavaScript. A new
 * token is answered in the action's own response, never in a redirect or a
 * cookie, so it is shown exactly once.
 */
export const CREATE_TOKEN = "create-access-token";
export const REVOKE_TOKEN = "revoke-access-token";

const RevokeForm = z.object({ tokenId: z.uuid("Choose a token to revoke") });

export async function accessTokensSection(user: User) {
  return {
    tokens: await listAccessTokens(user.id),
    max: MAX_ACCESS_TOKENS,
    mcpUrl: `${getConfig().APP_URL}/mcp`,
  };
}

export function isAccessTokenIntent(form: FormData) {
  const intent = form.get("intent");
  return intent === CREATE_TOKEN || intent === REVOKE_TOKEN;
}

export async function accessTokensAction(user: User, form: FormData) {
  if (form.get("intent") === REVOKE_TOKEN) {
    const parsed = RevokeForm.safeParse({ tokenId: form.get("tokenId") });
    const revoked = parsed.success ? await revokeAccessToken(user.id, parsed.data.tokenId) : null;
    if (!revoked) return data({ error: "That access token is not one of yours, or it was already revoked." }, { status: 400 });
    return redirectWithToast("/settings", { type: "success", message: `Access token “${revoked.name}” revoked: it no longer works.` });
  }
  const submission = parseSubmission(form, AccessTokenForm);
  if (submission.status !== "success") return data({ tokenResult: submission.reply() }, { status: 400 });
  try {
    const created = await createAccessToken(user.id, submission.value);
    return data({ createdToken: { id: created.id, name: created.name, token: created.token, scopes: created.scopes, expiresAt: created.expiresAt } });
  } catch (error) {
    const failure = userFacingError(error);
    if (!failure) throw error;
    return data({ tokenResult: refusal(submission, { formError: failure.detail, errors: failure.fieldErrors }) }, { status: 400 });
  }
}
