// AdsDataSource over an AdsStore: access rules, search paging and
// searchStream batches on top of the GAQL executor.

import { createHash } from "node:crypto";
import type { AdsDataSource, QueryBatch, QueryPage, StreamingAdsDataSource } from "../contract";
import type { AdsStore } from "../store/store";
import { requestError } from "./errors";
import { executeQuery, type QueryResult } from "./executor";

/** Google's fixed search page size (v17+) and the searchStream batch size. */
export const PAGE_SIZE = 10_000;
export const STREAM_BATCH_SIZE = 10_000;

interface CacheEntry {
  key: string;
  version: number;
  result: QueryResult;
}

/**
 * Page tokens are opaque to clients but stable: the same query and offset
 * always give the same token. They bind to the customer + query text, so a
 * token replayed with another query is rejected like Google does.
 */
function queryDigest(customerId: string, gaql: string): string {
  return createHash("sha256").update(customerId).update("\u0000").update(gaql).digest("base64url").slice(0, 16);
}

function encodeToken(digest: string, offset: number): string {
  return Buffer.from(JSON.stringify({ q: digest, o: offset }), "utf8").toString("base64url");
}

function decodeToken(token: string): { q: string; o: number } | undefined {
  try {
    const v = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { q?: unknown; o?: unknown };
    if (typeof v.q === "string" && typeof v.o === "number" && Number.isSafeInteger(v.o) && v.o >= 0) return { q: v.q, o: v.o };
  } catch {
    // fall through
  }
  return undefined;
}

export class StoreDataSource implements StreamingAdsDataSource {
  // Paging re-issues the same query per page; keeping the last few results makes page N O(page).
  private cache: CacheEntry[] = [];
  private static readonly CACHE_SIZE = 4;

  constructor(readonly store: AdsStore) {}

  accessibleCustomerIds(userEmail: string): string[] {
    return this.store.accessibleCustomerIds(userEmail);
  }

  canAccess(userEmail: string, customerId: string, loginCustomerId: string | undefined): boolean {
    return this.store.canAccess(userEmail, customerId, loginCustomerId);
  }

  customerExists(customerId: string): boolean {
    return this.store.customerExists(customerId);
  }

  isTestAccount(customerId: string): boolean {
    return this.store.account(customerId)?.customer.testAccount === true;
  }

  revokeAccess(userEmail: string, customerId: string): boolean {
    return this.store.revokeAccess(userEmail, customerId);
  }

  unlinkClient(managerId: string, clientId: string): boolean {
    return this.store.unlinkClient(managerId, clientId);
  }

  private execute(customerId: string, gaql: string): QueryResult {
    const key = `${customerId}\u0000${gaql}`;
    const version = this.store.version;
    const hit = this.cache.find((c) => c.key === key && c.version === version);
    if (hit) {
      this.cache = [hit, ...this.cache.filter((c) => c !== hit)];
      return hit.result;
    }
    const result = executeQuery(this.store, customerId, gaql);
    this.cache = [{ key, version, result }, ...this.cache.filter((c) => c.version === version)].slice(0, StoreDataSource.CACHE_SIZE);
    return result;
  }

  query(customerId: string, gaql: string, opts: { pageSize?: number; pageToken?: string; returnTotalResultsCount?: boolean } = {}): QueryPage {
    const pageSize = opts.pageSize ?? PAGE_SIZE;
    if (!Number.isSafeInteger(pageSize) || pageSize <= 0) {
      throw requestError("INVALID_PAGE_SIZE", "The page size is invalid.", "page_size");
    }
    const digest = queryDigest(customerId, gaql);
    let offset = 0;
    if (opts.pageToken) {
      const t = decodeToken(opts.pageToken);
      if (!t || t.q !== digest) throw requestError("INVALID_PAGE_TOKEN", "Page token is invalid.", "page_token");
      offset = t.o;
    }
    const result = this.execute(customerId, gaql);
    if (offset > result.rowCount) throw requestError("INVALID_PAGE_TOKEN", "Page token is invalid.", "page_token");
    const end = Math.min(result.rowCount, offset + pageSize);
    const page: QueryPage = { results: [], fieldMask: result.fieldMask };
    for (let i = offset; i < end; i++) page.results.push(result.row(i));
    if (end < result.rowCount) page.nextPageToken = encodeToken(digest, end);
    if (opts.returnTotalResultsCount) page.totalResultsCount = String(result.totalCount);
    page.queryResourceConsumption = String(result.consumption);
    return page;
  }

  queryBatches(customerId: string, gaql: string, batchSize = STREAM_BATCH_SIZE): Iterable<QueryBatch> {
    // Executes (and validates) now, so errors surface before the first byte is streamed.
    const result = executeQuery(this.store, customerId, gaql);
    return streamBatches(result, batchSize);
  }
}

function* streamBatches(result: QueryResult, batchSize: number): Generator<QueryBatch> {
  if (result.rowCount === 0) {
    yield { fieldMask: result.fieldMask, queryResourceConsumption: String(result.consumption) };
    return;
  }
  for (let start = 0; start < result.rowCount; start += batchSize) {
    const end = Math.min(result.rowCount, start + batchSize);
    const results: Array<Record<string, unknown>> = [];
    for (let i = start; i < end; i++) results.push(result.row(i));
    const batch: QueryBatch = { results, fieldMask: result.fieldMask };
    // Google reports the consumption once, on the final batch.
    if (end === result.rowCount) batch.queryResourceConsumption = String(result.consumption);
    yield batch;
  }
}

export function createAdsDataSource(store: AdsStore): StoreDataSource {
  return new StoreDataSource(store);
}

/**
 * searchStream helper: validates and runs the query immediately (throws
 * GoogleAdsFailureError), then yields batches of ≤ 10,000 rows. Works with any
 * AdsDataSource: streaming sources stream natively, others are paged.
 */
export function queryBatches(source: AdsDataSource, customerId: string, gaql: string): Iterable<QueryBatch> {
  if ("queryBatches" in source && typeof (source as StreamingAdsDataSource).queryBatches === "function") {
    return (source as StreamingAdsDataSource).queryBatches(customerId, gaql);
  }
  const first = source.query(customerId, gaql, { pageSize: STREAM_BATCH_SIZE });
  return (function* () {
    let page: QueryPage = first;
    for (;;) {
      const batch: QueryBatch = { fieldMask: page.fieldMask };
      if (page.results.length) batch.results = page.results;
      if (!page.nextPageToken) {
        if (page.queryResourceConsumption) batch.queryResourceConsumption = page.queryResourceConsumption;
        yield batch;
        return;
      }
      yield batch;
      page = source.query(customerId, gaql, { pageSize: STREAM_BATCH_SIZE, pageToken: page.nextPageToken });
    }
  })();
}
