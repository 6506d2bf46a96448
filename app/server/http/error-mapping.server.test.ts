// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { AdsClientError } from "../ads/errors.server";
import { ReconnectNeededError } from "../auth/google-connection.server";
import { ConflictError, InvalidError, NotFoundError } from "../domain-errors.server";
import { apiRoute } from "./api-route.server";
import { apiError, HttpError, toHttpError } from "./errors.server";
import { formFailure } from "./page-errors.server";

let t: TestContext;
beforeAll(async () => {
  t = await setupTestEnvironment();
});
afterAll(async () => t.cleanup());

const body = (r: unknown) => (r as { data: unknown }).data;
const init = (r: unknown) => (r as { init: { status: number; headers: Record<string, string> } }).init;

describe("one mapping from domain errors to HTTP", () => {
  it("maps not found, conflict and invalid (with field errors) to 404, 409 and 400", () => {
    expect(toHttpError(new NotFoundError("Campaign not found in this account", { campaignId: "Campaign not found in this account" }))).toMatchObject({
      status: 404,
      detail: "Campaign not found in this account",
      fieldErrors: { campaignId: "Campaign not found in this account" },
    });
    expect(toHttpError(new ConflictError("This change set is already applied"))).toMatchObject({ status: 409 });
    expect(toHttpError(new InvalidError("Nothing to change"))).toMatchObject({ status: 400, fieldErrors: undefined });
    expect(toHttpError(new AdsClientError("socket hang up", { userMessage: "Google Ads did not answer", retryable: true }))).toMatchObject({
      status: 502,
      detail: "Google Ads did not answer",
    });
    expect(toHttpError(new ReconnectNeededError(null))).toMatchObject({ status: 409 });
    expect(toHttpError(new TypeError("a bug"))).toBeUndefined();
  });

  it("keeps field errors when a form renames them, and the kind", () => {
    const renamed = new NotFoundError("Ad group not found", { adGroupId: "x" }).withFieldErrors({ targetAdGroupId: "x" });
    expect(renamed).toBeInstanceOf(NotFoundError);
    expect(renamed.fieldErrors).toEqual({ targetAdGroupId: "x" });
  });

  it("answers the API's error shape and rethrows bugs (a 500)", () => {
    const r = apiError(new InvalidError("Bid must be a number", { "actions.0.items.0.cpc": "Bid must be a number" }), { "Cache-Control": "no-store" });
    expect(body(r)).toEqual({ detail: "Bid must be a number", errors: { "actions.0.items.0.cpc": "Bid must be a number" } });
    expect(init(r)).toMatchObject({ status: 400, headers: { "Cache-Control": "no-store" } });
    expect(() => apiError(new Error("bug"))).toThrow("bug");
  });

  it("gives pages a form error, with Google's outage said as such", () => {
    expect(formFailure(new ConflictError("Connect a Google Ads account first"))).toEqual({
      status: 409,
      formError: "Connect a Google Ads account first",
      errors: {},
    });
    expect(formFailure(new AdsClientError("x", { userMessage: "timed out", retryable: true }))).toMatchObject({
      status: 502,
      formError: "Google Ads could not be reached: timed out",
    });
    expect(formFailure(new HttpError(403, "No"))).toMatchObject({ status: 403, formError: "No" });
    expect(formFailure(new RangeError("bug"))).toBeUndefined();
  });
});

describe("apiRoute", () => {
  const route = apiRoute({ method: "POST", allow: "GET, POST", status: 201 }, async () => {
    throw new ConflictError("Already done");
  });
  const args = (method: string, token?: string) => ({
    request: new Request("http://localhost:3000/api/v1/x", { method, headers: token ? { Authorization: `Bearer ${token}` } : {} }),
    params: {},
  });

  it("refuses another method with Allow, then a missing token, before the handler runs", async () => {
    const wrong = await route(args("PUT"));
    expect(init(wrong)).toMatchObject({ status: 405, headers: { Allow: "GET, POST", "Cache-Control": "no-store" } });
    const anonymous = await route(args("POST"));
    expect(init(anonymous).status).toBe(401);
    expect(body(anonymous)).toEqual({ detail: "Not authenticated: send Authorization: Bearer <access_token>" });
  });
});
