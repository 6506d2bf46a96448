import { describe, expect, it } from "vitest";
import { DocumentCache, readAll, streamOf } from "./document-cache.server";

const bytes = (s: string) => new TextEncoder().encode(s);

function cache(maxBytes = 1_000_000, ttlMs = 5_000) {
  // Not 0: lru-cache reads an entry stored at time 0 as one without a lifetime (a real clock is far past it).
  let clock = 1_000;
  const c = new DocumentCache({ maxBytes, ttlMs, now: () => clock });
  return { c, tick: (ms: number) => (clock += ms) };
}

const page = (placeholder: string, body: string) => Buffer.from(`<script nonce="${placeholder}">${body}</script><p nonce="${placeholder}"></p>`);

/** A renderer that counts its renders. */
function renderer(body = "a", status = 200) {
  const r = {
    renders: 0,
    render: async (placeholder: string) => {
      r.renders++;
      return { html: page(placeholder, body), status };
    },
  };
  return r;
}

describe("DocumentCache", () => {
  it("answers a repeated document with each response's own nonce in every place the placeholder was", async () => {
    const { c } = cache();
    const r = renderer();
    const key = c.key("http://x/dashboard", 200, [bytes("[1]\n")]);
    const first = await c.respond(key, "nonce-one", r.render);
    expect(first).toEqual({ html: Buffer.from(`<script nonce="nonce-one">a</script><p nonce="nonce-one"></p>`), status: 200 });
    const second = await c.respond(key, "nonce-two", r.render);
    expect(second.html.toString()).toBe(`<script nonce="nonce-two">a</script><p nonce="nonce-two"></p>`);
    expect(r.renders).toBe(1);
    expect(first.html.toString()).not.toContain(c.placeholder);
  });

  it("keys on the URL, the status and every byte of the state", async () => {
    const { c } = cache();
    const base = c.key("http://x/a?q=1", 200, [bytes("[1,"), bytes("2]\n")]);
    expect(c.key("http://x/a?q=1", 200, [bytes("[1,"), bytes("2]\n")])).toBe(base);
    expect(c.key("http://x/a?q=2", 200, [bytes("[1,"), bytes("2]\n")])).not.toBe(base);
    expect(c.key("http://x/a?q=1", 404, [bytes("[1,"), bytes("2]\n")])).not.toBe(base);
    expect(c.key("http://x/a?q=1", 200, [bytes("[1,"), bytes("3]\n")])).not.toBe(base);
    const r = renderer();
    await c.respond(base, "n", r.render);
    await c.respond(c.key("http://x/a?q=1", 200, [bytes("[1,3]\n")]), "n", r.render);
    expect(r.renders).toBe(2);
  });

  it("renders once for requests that ask for the same document while it renders", async () => {
    const { c } = cache();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let renders = 0;
    const slow = async (placeholder: string) => {
      renders++;
      await gate;
      return { html: page(placeholder, "a"), status: 200 };
    };
    const key = c.key("u", 200, []);
    const all = Promise.all(["n1", "n2", "n3"].map((nonce) => c.respond(key, nonce, slow)));
    release();
    const answers = await all;
    expect(renders).toBe(1);
    expect(answers.map((a) => a.html.toString())).toEqual(["n1", "n2", "n3"].map((n) => page(n, "a").toString()));
  });

  it("never keeps a failed render (status 500): the next request renders again", async () => {
    const { c } = cache();
    const failed = renderer("oops", 500);
    const key = c.key("u", 200, []);
    expect((await c.respond(key, "n", failed.render)).status).toBe(500);
    expect((await c.respond(key, "n", failed.render)).status).toBe(500);
    expect(failed.renders).toBe(2);
    expect(c.size.entries).toBe(0);
  });

  it("renders again once an entry is older than its lifetime", async () => {
    const { c, tick } = cache(1_000_000, 5_000);
    const r = renderer();
    const key = c.key("u", 200, []);
    await c.respond(key, "n", r.render);
    tick(5_000); // exactly its lifetime: still reused
    await c.respond(key, "n", r.render);
    expect(r.renders).toBe(1);
    tick(1);
    await c.respond(key, "n", r.render);
    expect(r.renders).toBe(2);
    expect(c.size.entries).toBe(1);
  });

  it("stays within its size, dropping the least recently used first", async () => {
    const size = page(cache().c.placeholder, "x".repeat(40)).length;
    const { c } = cache(Math.floor(size * 2.5)); // room for two
    const r = renderer("x".repeat(40));
    const [a, b, d] = ["a", "b", "d"].map((u) => c.key(u, 200, []));
    await c.respond(a, "n", r.render);
    await c.respond(b, "n", r.render);
    await c.respond(a, "n", r.render); // a is now the most recently used
    await c.respond(d, "n", r.render);
    expect(c.size).toEqual({ entries: 2, bytes: 2 * size });
    expect(r.renders).toBe(3);
    await c.respond(a, "n", r.render);
    await c.respond(d, "n", r.render);
    expect(r.renders).toBe(3);
    await c.respond(b, "n", r.render); // b was dropped
    expect(r.renders).toBe(4);
  });

  it("never keeps a document larger than the whole cache, but still answers with it", async () => {
    const { c } = cache(10);
    const r = renderer("big");
    const key = c.key("u", 200, []);
    expect((await c.respond(key, "n", r.render)).html.toString()).toContain('nonce="n"');
    expect(c.size).toEqual({ entries: 0, bytes: 0 });
  });

  it("reads the encoded state and hands the same chunks to a new stream", async () => {
    const chunks = [bytes("[1,"), bytes("2]\n")];
    const read = await readAll(streamOf(chunks));
    expect(read).toEqual(chunks);
    expect(await readAll(streamOf(read))).toEqual(chunks);
  });
});
