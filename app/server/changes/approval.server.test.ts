// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { commitSessionCookie, createSession, getSession } from "../auth/session.server";
import { registerUser } from "../auth/users.server";
import { HttpError } from "../http/errors.server";
import { approvalFromApiRequest, approvalFromReviewRequest, consumeApproval } from "./approval.server";
import { applyChangeSet } from "./pipeline.server";

// Applying a change set needs a capability that only a signed-in person's
// request to the review page or the API's apply endpoint can create.

let ctx: TestContext;
let userId: string;
let otherId: string;
let token: string;
let cookie: string;
const SET = "5f0c1a52-8c1e-4c43-9d6a-0c3a8f1b2d3e";

beforeAll(async () => {
  ctx = await setupTestEnvironment();
  userId = (await registerUser("owner@example.com", "correct horse battery")).id;
  otherId = (await registerUser("other@example.com", "correct horse battery")).id;
  const session = await createSession(userId, new Request("http://localhost/"));
  token = session.accessToken;
  cookie = (await commitSessionCookie(session)).split(";")[0];
});
afterAll(() => ctx.cleanup());

const api = (path: string, init: RequestInit = {}) => new Request(`http://localhost:3000${path}`, { method: "POST", ...init });
const refusal = async (p: Promise<unknown> | (() => unknown)) => {
  const e = await (typeof p === "function" ? Promise.resolve().then(p) : p).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(HttpError);
  return e as HttpError;
};

// The review page's route passes its normalized address and the session its middleware found.
const fromReview = async (request: Request, changeSetId: string) =>
  approvalFromReviewRequest(request, new URL(request.url), await getSession(request), changeSetId);

describe("ApprovalCapability", () => {
  it("is minted from a signed-in POST to the API's apply endpoint or the review page, for that user and set", async () => {
    const viaApi = await approvalFromApiRequest(api(`/api/v1/change-sets/${SET}/apply`, { headers: { Authorization: `Bearer ${token}` } }), SET);
    expect(viaApi).toMatchObject({ userId, changeSetId: SET, via: "api" });
    const viaPage = await fromReview(api(`/changes/${SET}`, { headers: { Cookie: cookie } }), SET);
    expect(viaPage).toMatchObject({ userId, changeSetId: SET, via: "review-page" });
    expect(() => consumeApproval(viaApi, userId, SET)).not.toThrow();
  });

  it("cannot be minted without a session, from another path, or by GET", async () => {
    expect((await refusal(approvalFromApiRequest(api(`/api/v1/change-sets/${SET}/apply`), SET))).status).toBe(401);
    expect((await refusal(fromReview(api(`/changes/${SET}`), SET))).status).toBe(401);
    const elsewhere = api(`/ai-optimizer`, { headers: { Authorization: `Bearer ${token}`, Cookie: cookie } });
    expect((await refusal(approvalFromApiRequest(elsewhere, SET))).status).toBe(403);
    expect((await refusal(fromReview(elsewhere, SET))).status).toBe(403);
    const get = new Request(`http://localhost:3000/changes/${SET}`, { headers: { Cookie: cookie } });
    expect((await refusal(fromReview(get, SET))).status).toBe(405);
  });

  it("refuses lookalikes, another user's or set's capability, and a second use", async () => {
    const forged = { userId, changeSetId: SET, via: "api" };
    expect((await refusal(() => consumeApproval(forged, userId, SET))).status).toBe(403);
    expect((await refusal(applyChangeSet(userId, SET, { approval: forged as never }))).status).toBe(403);
    expect((await refusal(applyChangeSet(userId, SET, {} as never))).status).toBe(403);
    const real = await approvalFromApiRequest(api(`/api/v1/change-sets/${SET}/apply`, { headers: { Authorization: `Bearer ${token}` } }), SET);
    expect((await refusal(() => consumeApproval(real, otherId, SET))).status).toBe(403);
    expect((await refusal(() => consumeApproval(real, userId, "00000000-0000-4000-8000-000000000000"))).status).toBe(403);
    consumeApproval(real, userId, SET);
    expect((await refusal(() => consumeApproval(real, userId, SET))).status).toBe(403);
  });
});
