import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../env.server";
import { parseTrustProxy, type TrustProxy } from "./client-ip.server";

/** The client address Express derives, with TRUST_PROXY applied exactly as server.ts applies it. */
async function clientIpSeen(trustProxyEnv: string | undefined, forwardedFor: string | undefined): Promise<string> {
  const config = parseConfig({
    NODE_ENV: "test",
    SESSION_SECRET: "x".repeat(32),
    ENCRYPTION_KEY: "a".repeat(64),
    ...(trustProxyEnv ? { TRUST_PROXY: trustProxyEnv } : {}),
  });
  const app = express();
  app.set("trust proxy", config.TRUST_PROXY);
  app.get("/", (req, res) => void res.send(req.ip));
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      headers: forwardedFor ? { "X-Forwarded-For": forwardedFor } : {},
    });
    return (await res.text()).replace(/^::ffff:/, "");
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe("TRUST_PROXY (issue 9 point 6)", () => {
  // The client wrote "6.6.6.6" itself; the appending proxy (here at 127.0.0.1) added the real address.
  const throughAppendingProxy = "6.6.6.6, 203.0.113.9";

  it.each([["true"], ["1"], ["127.0.0.1"], ["127.0.0.0/8"], ["loopback"], ["10.0.0.0/8, 127.0.0.1"]])(
    "TRUST_PROXY=%s takes the address the proxy saw, not the one the client wrote",
    async (value) => {
      expect(await clientIpSeen(value, throughAppendingProxy)).toBe("203.0.113.9");
    },
  );

  it("rotating a spoofed left-most entry does not change the client address (so rate limits hold)", async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5; i++) seen.add(await clientIpSeen("true", `6.6.6.${i}, 203.0.113.9`));
    expect([...seen]).toEqual(["203.0.113.9"]);
  });

  it("with two proxies in front (TRUST_PROXY=2) skips both hops", async () => {
    expect(await clientIpSeen("2", "6.6.6.6, 203.0.113.9, 10.1.2.3")).toBe("203.0.113.9");
  });

  it("a proxy list that does not include the peer trusts nothing", async () => {
    expect(await clientIpSeen("10.0.0.0/8", throughAppendingProxy)).toBe("127.0.0.1");
  });

  it("false (the default) ignores X-Forwarded-For", async () => {
    expect(await clientIpSeen(undefined, throughAppendingProxy)).toBe("127.0.0.1");
    expect(await clientIpSeen("false", throughAppendingProxy)).toBe("127.0.0.1");
  });

  it("parses the documented forms and refuses anything else at start", () => {
    const cases: Array<[string, TrustProxy | undefined]> = [
      ["false", false],
      ["0", false],
      ["true", 1],
      ["3", 3],
      ["10.0.0.0/8,192.168.1.7", ["10.0.0.0/8", "192.168.1.7"]],
      ["fd00::/8", ["fd00::/8"]],
      ["10.0.0.0/33", undefined],
      ["proxy.example", undefined],
      ["", undefined],
    ];
    for (const [value, expected] of cases) expect(parseTrustProxy(value), value).toEqual(expected);
    expect(() => parseConfig({ NODE_ENV: "test", SESSION_SECRET: "x".repeat(32), ENCRYPTION_KEY: "a".repeat(64), TRUST_PROXY: "everyone" })).toThrow(
      /TRUST_PROXY: must be true, false, a number of proxies/,
    );
  });
});
