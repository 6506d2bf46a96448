import type { AdsDataSource } from "../ads/contract";

/**
 * Extension point for the write side of the Ads API. The HTTP layer routes
 *   POST /vNN/customers/{cid}/googleAds:mutate           (collection "googleAds")
 *   POST /vNN/customers/{cid}/{collection}:mutate        (e.g. "campaigns", "adGroupAds")
 *   POST /vNN/customers/{cid}:mutate                      (collection "customers")
 * after authentication, faults and the customer-access checks, parses the JSON
 * body, and hands it here. Return the response body (Google's Mutate*Response
 * JSON); throw GoogleAdsFailureError for errors (partial-failure results are a
 * normal return value). With no handler configured the emulator answers
 * 501 UNIMPLEMENTED in Google's error shape.
 */
export interface MutateRequest {
  version: string;
  customerId: string;
  collection: string;
  body: Record<string, unknown>;
  userEmail: string;
  loginCustomerId: string | undefined;
  requestId: string;
  dataSource: AdsDataSource;
}

export type MutateHandler = (request: MutateRequest) => unknown | Promise<unknown>;
