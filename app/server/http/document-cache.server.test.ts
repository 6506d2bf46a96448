import { describe, expect, it } from "vitest";
import { DocumentCache, readAll, streamOf } from "./document-cache.server";

const bytes = (s: string) => new TextEncoder().encode(s);

function cache(maxBytes = 1_000_000, ttlMs = 5_000) {
  let clock = 0;
  const c = new DocumentCache({ maxBytes, ttlMs, now: () => clock });
  return { c, tick: (ms: number) => (clock += ms) };
}

const page = (c: DocumentCache, body: string) => Buffer.from(`<script nonce="${c.placeholder}">${body}</script><p nonce="${c.placeholder}"></p>`);

describe("DocumentCache", () => {
  it("gives a kept document back with each response's own nonce in every place the placeholder was", () => {
    const { c } = cache();
    const key = c.key("http://x/dashboard", 200, [bytes("[1]\n")]);
    const first = c.set(key, page(c, "a"), "nonce-one");
    expect(first.toString()).toBe(`<script nonce="nonce-one">a</script><p nonce="nonce-one"></p>`);
    expect(c.get(key, "nonce-two")?.toString()).toBe(`<script nonce="nonce-two">a</script><p nonce="nonce-two"></p>`);
    expect(first.toString()).not.toContain(c.placeholder);
  });

  it("keys on the URL, the status and every byte of the state", () => {
    const { c } = cache();
    const base = c.key("http://x/a?q=1", 200, [bytes("[1,"), bytes("2]\n")]);
    expect(c.key("http://x/a?q=1", 200, [bytes("[1,"), bytes("2]\n")])).toBe(base);
    expect(c.key("http://x/a?q=2", 200, [bytes("[1,"), bytes("2]\n")])).not.toBe(base);
    expect(c.key("http://x/a?q=1", 404, [bytes("[1,"), bytes("2]\n")])).not.toBe(base);
    expect(c.key("http://x/a?q=1", 200, [bytes("[1,"), bytes("3]\n")])).not.toBe(base);
    c.set(base, page(c, "a"), "n");
    expect(c.get(c.key("http://x/a?q=1", 200, [bytes("[1,3]\n")]), "n")).toBeUndefined();
  });

  it("renders again once an entry is older than its lifetime", () => {
    const { c, tick } = cache(1_000_000, 5_000);
    const key = c.key("u", 200, []);
    c.set(key, page(c, "a"), "n");
    tick(4_999);
    expect(c.get(key, "n")).toBeDefined();
    tick(1);
    expect(c.get(key, "n")).toBeUndefined();
    expect(c.size).toEqual({ entries: 0, bytes: 0 });
  });

  it("stays within its size, dropping the least recently used first", () => {
    const probe = cache().c;
    const size = page(probe, "x".repeat(40)).length;
    const { c } = cache(Math.floor(size * 2.5)); // room for two
    const doc = page(c, "x".repeat(40));
    const [a, b, d] = ["a", "b", "d"].map((u) => c.key(u, 200, []));
    c.set(a, doc, "n");
    c.set(b, doc, "n");
    expect(c.get(a, "n")).toBeDefined(); // a is now the most recently used
    c.set(d, doc, "n");
    expect(c.size.bytes).toBe(2 * size);
    expect(c.get(b, "n")).toBeUndefined();
    expect(c.get(a, "n")).toBeDefined();
    expect(c.get(d, "n")).toBeDefined();
  });

  it("never keeps a document larger than the whole cache, but still answers with it", () => {
    const { c } = cache(10);
    const key = c.key("u", 200, []);
    expect(c.set(key, page(c, "big"), "n").toString()).toContain('nonce="n"');
    expect(c.get(key, "n")).toBeUndefined();
    expect(c.size.bytes).toBe(0);
  });

  it("counts a replaced entry once", () => {
    const { c } = cache();
    const key = c.key("u", 200, []);
    c.set(key, page(c, "a"), "n");
    c.set(key, page(c, "a"), "n");
    expect(c.size).toEqual({ entries: 1, bytes: page(c, "a").length });
  });

  it("reads the encoded state and hands the same chunks to a new stream", async () => {
    const chunks = [bytes("[1,"), bytes("2]\n")];
    const read = await readAll(streamOf(chunks));
    expect(read).toEqual(chunks);
    expect(await readAll(streamOf(read))).toEqual(chunks);
  });
});
