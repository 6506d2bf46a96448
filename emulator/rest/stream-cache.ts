/**
 * searchStream answers rendered ahead (EmulatorOptions.streamCache): the
 * benchmark's Google. Google builds an answer on its own servers; an emulator
 * building a 1,000,000-row answer takes as much CPU as the sync reading it,
 * from the same cores, and the benchmark would measure the two together. With
 * the answers rendered before the clock starts, a reply is a copy of bytes.
 *
 * An answer is kept as its bytes split where the request id goes (each reply
 * stamps its own), under the customer, the query text and the summary-row
 * setting. Every mutate empties the cache: an answer never outlives the data
 * it was rendered from.
 */

/** A rendered answer: its bytes, split where each element's request id goes. */
export type RenderedStream = readonly Buffer[];

/** Rendered in place of a request id, then split on; no query can produce it (it is not valid GAQL data). */
export const REQUEST_ID_MARK = "\u0000request-id\u0000";

export class StreamCache {
  private readonly answers = new Map<string, RenderedStream>();
  hits = 0;
  misses = 0;

  private static key(customerId: string, query: string, summary: string): string {
    return JSON.stringify([customerId, summary, query]);
  }

  get(customerId: string, query: string, summary: string): RenderedStream | undefined {
    const found = this.answers.get(StreamCache.key(customerId, query, summary));
    if (found) this.hits++;
    else this.misses++;
    return found;
  }

  /** Stores the answer's text (with REQUEST_ID_MARK for each request id); returns its size in bytes. */
  set(customerId: string, query: string, summary: string, text: string): number {
    const parts = text.split(JSON.stringify(REQUEST_ID_MARK)).map((part) => Buffer.from(part, "utf8"));
    this.answers.set(StreamCache.key(customerId, query, summary), parts);
    return parts.reduce((n, b) => n + b.length, 0);
  }

  clear(): void {
    this.answers.clear();
  }
}
