import { createHash, randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import { getConfig } from "../env.server";

/**
 * Rendered documents, reused while every input of the render is the same
 * (ADR 017).
 *
 * React Router hands the entry the page's state (every matched loader's data,
 * action data, errors) already encoded for the browser. With the URL and the
 * status, that is all a render reads: the browser hydrates from the same
 * encoding, so a render that depended on anything else would not hydrate
 * either. The key is a digest of exactly those bytes, so new data in any loader
 * is a new key and nothing ever has to be invalidated. The per-response CSP
 * nonce is rendered as a placeholder and filled in for each response.
 *
 * A short lifetime bounds what a component computes from the clock while it
 * renders (a relative time); entries past it are rendered again.
 */

interface Template {
  /** The document split at each occurrence of the placeholder nonce. */
  parts: Buffer[];
}

export interface Rendered {
  html: Buffer;
  status: number;
}

export interface DocumentCacheOptions {
  maxBytes: number;
  ttlMs: number;
  now?: () => number;
}

export class DocumentCache {
  /** Rendered where the nonce goes; random per process, the shape of a real nonce, so no page's text can contain it by chance. */
  readonly placeholder = randomBytes(16).toString("base64");
  private readonly placeholderBytes = Buffer.from(this.placeholder);
  // Least recently used dropped first once the documents' bytes pass maxBytes; a document larger than
  // the whole cache is never kept. An entry older than ttlMs is stale and rendered again.
  private readonly entries: LRUCache<string, Template>;
  // Renders under way, so requests for the same document while one renders wait for it.
  private readonly rendering = new Map<string, Promise<{ parts: Buffer[]; status: number }>>();

  constructor(options: DocumentCacheOptions) {
    this.entries = new LRUCache({
      maxSize: options.maxBytes,
      ttl: options.ttlMs,
      // Read the clock at every check (the default reuses one reading for a millisecond): tests move it by hand.
      ttlResolution: 0,
      perf: options.now ? { now: options.now } : undefined,
    });
  }

  /** The digest of what a render reads: the URL, the status and the encoded state. */
  key(url: string, status: number, state: readonly Uint8Array[]): string {
    const hash = createHash("sha256").update(url).update("\0").update(String(status)).update("\0");
    for (const chunk of state) hash.update(chunk);
    return hash.digest("base64url");
  }

  /**
   * The document for `key` with this response's nonce: the kept one, the one another request is
   * rendering right now (a page asked for by many at once is rendered once), or a new render
   * (given the placeholder as its nonce), kept when it succeeded (status 200).
   */
  async respond(key: string, nonce: string, render: (placeholder: string) => Promise<Rendered>): Promise<Rendered> {
    const kept = this.take(key);
    if (kept) return { html: fill(kept.parts, nonce), status: 200 };
    let pending = this.rendering.get(key);
    if (!pending) {
      pending = render(this.placeholder).then(({ html, status }) => {
        const parts = split(html, this.placeholderBytes);
        if (status === 200) this.keep(key, parts, html.length);
        return { parts, status };
      });
      this.rendering.set(key, pending);
      const forget = () => this.rendering.delete(key);
      pending.then(forget, forget);
    }
    const { parts, status } = await pending;
    return { html: fill(parts, nonce), status };
  }

  private take(key: string): Template | undefined {
    return this.entries.get(key);
  }

  private keep(key: string, parts: Buffer[], bytes: number) {
    this.entries.set(key, { parts }, { size: bytes });
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
  }
}

function split(buffer: Buffer, separator: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = buffer.indexOf(separator, from); at !== -1; at = buffer.indexOf(separator, from)) {
    parts.push(buffer.subarray(from, at));
    from = at + separator.length;
  }
  parts.push(buffer.subarray(from));
  return parts;
}

function fill(parts: Buffer[], nonce: string): Buffer {
  if (parts.length === 1) return parts[0];
  const value = Buffer.from(nonce);
  const list: Buffer[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) list.push(value);
    list.push(parts[i]);
  }
  return Buffer.concat(list);
}

/** Reads a stream to its end. */
export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

/** A stream that gives these chunks again. */
export function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

/** How long a rendered document is reused at most: a relative time rendered from the clock is at most this stale. */
export const DOCUMENT_TTL_MS = 5_000;

let shared: DocumentCache | null | undefined;

/** The process's cache, sized by DOCUMENT_CACHE_MB; null when that is 0. */
export function documentCache(): DocumentCache | null {
  if (shared === undefined) {
    const mb = getConfig().DOCUMENT_CACHE_MB;
    shared = mb > 0 ? new DocumentCache({ maxBytes: mb * 1024 * 1024, ttlMs: DOCUMENT_TTL_MS }) : null;
  }
  return shared;
}
