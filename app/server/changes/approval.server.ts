import { getBearerSession, type SessionContext } from "../auth/session.server";
import { HttpError } from "../http/errors.server";

/**
 * A person's approval to apply one change set, as an unforgeable value.
 *
 * applyChangeSet refuses to run without one. The only way to get one is to
 * hand these functions the incoming HTTP request of a signed-in person: a POST
 * to that change set's review page (/changes/{id}, cookie session) or to the
 * API's apply endpoint (/api/v1/change-sets/{id}/apply, bearer token). They
 * authenticate the request themselves, so the caller cannot vouch for a user.
 * A capability is bound to one user and one change set and is used up by the
 * apply it authorises. An object that merely looks like one (a model's tool
 * arguments, JSON from a transcript) is not in the private registry and is
 * refused. The assistant's tools never see an HTTP request of either kind, so
 * no code path that starts at a tool can reach an apply.
 */
export interface ApprovalCapability {
  readonly userId: string;
  readonly changeSetId: string;
  readonly via: "review-page" | "api";
}

const genuine = new WeakSet<ApprovalCapability>();

function mint(userId: string, changeSetId: string, via: ApprovalCapability["via"]): ApprovalCapability {
  const capability = Object.freeze({ userId, changeSetId, via });
  genuine.add(capability);
  return capability;
}

function requirePostTo(request: Request, url: URL, path: string) {
  if (request.method !== "POST") throw new HttpError(405, "Applying a change set needs a POST");
  if (url.pathname.replace(/\/+$/, "") !== path) {
    throw new HttpError(403, "A change set can only be applied from its review page or the API's apply endpoint");
  }
}

/**
 * From the review page's Apply (cookie session): `url` is React Router's
 * normalized address (a data request's `.data` suffix removed) and `session`
 * the request's own, from the signed-in layout's middleware.
 */
export async function approvalFromReviewRequest(request: Request, url: URL, session: SessionContext | null, changeSetId: string): Promise<ApprovalCapability> {
  requirePostTo(request, url, `/changes/${changeSetId}`);
  if (!session) throw new HttpError(401, "Sign in to apply changes");
  return mint(session.user.id, changeSetId, "review-page");
}

/** From POST /api/v1/change-sets/{id}/apply (bearer token). */
export async function approvalFromApiRequest(request: Request, changeSetId: string): Promise<ApprovalCapability> {
  requirePostTo(request, new URL(request.url), `/api/v1/change-sets/${changeSetId}/apply`);
  const session = await getBearerSession(request);
  if (!session) throw new HttpError(401, "Not authenticated: send Authorization: Bearer <access_token>");
  return mint(session.user.id, changeSetId, "api");
}

/** Checked by applyChangeSet before anything else: genuine, this user's, this change set's, unused. */
export function consumeApproval(approval: unknown, userId: string, changeSetId: string): void {
  if (typeof approval !== "object" || approval === null || !genuine.has(approval as ApprovalCapability)) {
    throw new HttpError(403, "Applying needs a person's approval on the review page or through the API");
  }
  const cap = approval as ApprovalCapability;
  if (cap.userId !== userId || cap.changeSetId !== changeSetId) {
    throw new HttpError(403, "This approval is for another change set or person");
  }
  genuine.delete(cap);
}
