import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { compressResponses } from "./compression.server";

// Waits for backpressure the way React Router's node adapter does: once("drain"), then off.
function waitForDrain(res: express.Response) {
  return new Promise<void>((resolve) => {
    const onDrain = () => {
      res.off("drain", onDrain);
      resolve();
    };
    res.once("drain", onDrain);
  });
}

describe("compressResponses", () => {
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);
  let server: http.Server | undefined;
  afterEach(() => {
    process.off("warning", onWarning);
    server?.close();
  });

  it("streams a large Brotli response with backpressure without piling up drain listeners", async () => {
    process.on("warning", onWarning);
    let waits = 0;
    const app = express();
    app.use(compressResponses());
    app.get("/", async (_req, res) => {
      res.type("text/html");
      for (let i = 0; i < 200; i++) {
        // Incompressible-ish text so the compressor's buffer fills and write() returns false.
        const chunk = Buffer.from(Array.from({ length: 32_768 }, (_, j) => String.fromCharCode(33 + ((i * 7919 + j * 104729) % 90))).join(""));
        if (!res.write(chunk)) {
          waits++;
          await waitForDrain(res);
        }
      }
      res.end();
    });
    server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server!.once("listening", r));
    const { port } = server.address() as AddressInfo;

    const body = await new Promise<Buffer>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/", headers: { "accept-encoding": "br" } }, (res) => {
          expect(res.headers["content-encoding"]).toBe("br");
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve(zlib.brotliDecompressSync(Buffer.concat(chunks))));
        })
        .on("error", reject);
    });

    expect(body.length).toBe(200 * 32_768);
    expect(waits).toBeGreaterThan(10);
    // Warnings are emitted on the next tick.
    await new Promise((r) => setImmediate(r));
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
  });
});
