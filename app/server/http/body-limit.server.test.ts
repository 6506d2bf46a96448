import http from "node:http";
import type { AddressInfo } from "node:net";
import { createReadableStreamFromReadable } from "@react-router/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyLimit } from "./body-limit.server";

/**
 * The limit in front of a reader built exactly as @react-router/express builds
 * a Request from Node's request: what the reader gets is the whole body or an
 * error, never a truncated body, and the client gets 413 either way.
 */
const LIMIT = 1000;
let server: http.Server;
let port: number;
const seen: Array<{ ok: boolean; bytes?: number; error?: string }> = [];

beforeAll(async () => {
  const limit = bodyLimit(LIMIT);
  server = http.createServer((req, res) => {
    const answer = async () => {
      const request = new Request("http://x/", { method: "POST", body: createReadableStreamFromReadable(req), duplex: "half" } as RequestInit);
      try {
        const text = await request.text();
        seen.push({ ok: true, bytes: text.length });
        res.end(JSON.stringify({ bytes: text.length }));
      } catch (error) {
        seen.push({ ok: false, error: (error as Error).name });
        if (!res.writableEnded) res.end();
      }
    };
    limit(req, res, () => void answer());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function send(headers: Record<string, string>, chunks: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method: "POST", path: "/", headers }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    let i = 0;
    const next = () => {
      if (i < chunks.length) req.write(chunks[i++], () => setImmediate(next));
      else req.end();
    };
    next();
  });
}

describe("MAX_BODY_BYTES (issue 9 point 3)", () => {
  it("refuses a declared Content-Length over the limit with 413 before reading anything", async () => {
    seen.length = 0;
    // Announces 2 GB and sends nothing: only an answer from the header can come back.
    const res = await send({ "Content-Length": "2000000000", "Content-Type": "application/json" }, []).catch(() => null);
    expect(res?.status).toBe(413);
    expect(JSON.parse(res!.body)).toEqual({ detail: `Request body too large: the limit is ${LIMIT} bytes` });
    expect(seen).toEqual([]); // the reader never ran
  });

  it("cuts a chunked body while it streams: 413, and the reader sees an error, not a short body", async () => {
    seen.length = 0;
    const res = await send(
      { "Transfer-Encoding": "chunked" },
      Array.from({ length: 40 }, () => "x".repeat(100)),
    );
    expect(res.status).toBe(413);
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]).toEqual({ ok: false, error: "BodyTooLargeError" });
  });

  it("passes bodies within the limit through untouched, chunked or not", async () => {
    seen.length = 0;
    expect(await send({ "Transfer-Encoding": "chunked" }, ["a".repeat(400), "b".repeat(600)])).toEqual({ status: 200, body: '{"bytes":1000}' });
    expect(await send({ "Content-Length": "1000" }, ["c".repeat(1000)])).toEqual({ status: 200, body: '{"bytes":1000}' });
  });
});
