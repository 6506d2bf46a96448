import { describe, expect, it } from "vitest";
import { documentSecurityHeaders, isCrossSiteRequest } from "./security.server";

const app = "http://localhost:3000";
const req = (r: Partial<Parameters<typeof isCrossSiteRequest>[0]>) =>
  isCrossSiteRequest({ method: "POST", protocol: "http", host: "localhost:3000", ...r }, app);

describe("isCrossSiteRequest", () => {
  it("allows same-origin posts and safe methods", () => {
    expect(req({ origin: "http://localhost:3000" })).toBe(false);
    expect(req({ method: "GET", origin: "https://evil.example" })).toBe(false);
    expect(req({ secFetchSite: "same-origin" })).toBe(false);
    // A no-referrer page's same-origin form post: Origin is "null", fetch metadata says same-origin.
    expect(req({ origin: "null", secFetchSite: "same-origin" })).toBe(false);
  });
  it("allows non-browser clients that send neither Origin nor Sec-Fetch-Site", () => {
    expect(req({})).toBe(false);
  });
  it("refuses other origins, opaque origins and cross-site fetch metadata", () => {
    expect(req({ origin: "https://evil.example" })).toBe(true);
    expect(req({ origin: "null" })).toBe(true);
    expect(req({ origin: "http://localhost:3000", secFetchSite: "same-site" })).toBe(true);
    expect(req({ secFetchSite: "cross-site" })).toBe(true);
    expect(req({ method: "DELETE", origin: "http://localhost:3001" })).toBe(true);
  });
});

describe("documentSecurityHeaders", () => {
  it("sends a nonce-based CSP that forbids framing", () => {
    const h = documentSecurityHeaders("abc");
    expect(h["Content-Security-Policy"]).toContain("script-src 'self' 'nonce-abc'");
    expect(h["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
    expect(h["Cache-Control"]).toContain("no-store");
  });
});
