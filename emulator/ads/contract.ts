// The seam between the emulator's HTTP layer (server, OAuth, REST routing) and
// its data layer (demo store, GAQL engine). Both halves code against this file.

/** One entry of GoogleAdsFailure.errors, exactly as Google serialises it. */
export interface GoogleAdsErrorEntry {
  errorCode: Record<string, string>; // e.g. { queryError: "UNRECOGNIZED_FIELD" }
  message: string;
  trigger?: { stringValue?: string; int64Value?: string };
  location?: {
    fieldPathElements: Array<{ fieldName: string; index?: number }>;
  };
}

/**
 * Thrown by the data layer; the HTTP layer turns it into Google's error body
 * {"error":{"code","message","status","details":[{"@type":".../GoogleAdsFailure","errors","requestId"}]}}.
 */
export class GoogleAdsFailureError extends Error {
  constructor(
    public readonly errors: GoogleAdsErrorEntry[],
    public readonly httpStatus = 400,
    public readonly status = "INVALID_ARGUMENT",
    message = "Request contains an invalid argument.",
  ) {
    super(message);
    this.name = "GoogleAdsFailureError";
  }
}

export interface QueryPage {
  results: Array<Record<string, unknown>>; // camelCase, nested like the REST API (campaign.id → {campaign:{id}})
  fieldMask: string; // comma-separated camelCase selected fields, e.g. "campaign.id,metrics.costMicros"
  nextPageToken?: string;
  totalResultsCount?: string; // int64 as string, only when requested
  queryResourceConsumption?: string;
}

export interface AdsDataSource {
  /** Customer ids (10 digits) this Google user can reach directly: customers:listAccessibleCustomers. */
  accessibleCustomerIds(userEmail: string): string[];
  /**
   * May this user act on customerId, given the login-customer-id header (or undefined)?
   * Mirrors Google: a client under a manager is reachable only with login-customer-id = that manager
   * (or an ancestor) when the user has no direct access.
   */
  canAccess(userEmail: string, customerId: string, loginCustomerId: string | undefined): boolean;
  customerExists(customerId: string): boolean;
  /** A Google Ads test account (customer.test_account): a Test-level Cloud project may only call these. Unset: none is. */
  isTestAccount?(customerId: string): boolean;
  /** Test hook (state.revokeCustomerAccess): the user loses direct access to the customer. */
  revokeAccess?(userEmail: string, customerId: string): boolean;
  /** Test hook (state.unlinkClient): the manager no longer manages the client. */
  unlinkClient?(managerId: string, clientId: string): boolean;
  /** Runs one GAQL query. Throws GoogleAdsFailureError for bad queries. pageSize is 10,000 for search. */
  query(customerId: string, gaql: string, opts?: { pageSize?: number; pageToken?: string; returnTotalResultsCount?: boolean }): QueryPage;
}

/** One element of a searchStream response array (requestId is added by the HTTP layer). */
export interface QueryBatch {
  results?: Array<Record<string, unknown>>;
  fieldMask: string;
  /** Present on the last batch only, like Google. */
  queryResourceConsumption?: string;
}

/**
 * A data source that can also stream: queryBatches() validates and runs the
 * query eagerly (throwing GoogleAdsFailureError before anything is yielded),
 * then yields batches of at most 10,000 rows.
 */
export interface StreamingAdsDataSource extends AdsDataSource {
  queryBatches(customerId: string, gaql: string): Iterable<QueryBatch>;
}
