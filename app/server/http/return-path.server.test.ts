import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./return-path.server";

const APP = "http://localhost:3000";
const check = (value: unknown) => safeReturnPath(value, "/fallback", APP);

describe("safeReturnPath (issue 9 point 2)", () => {
  it("keeps same-origin page paths, normalised", () => {
    expect(check("/campaigns")).toBe("/campaigns");
    expect(check("/campaigns/12?from=2026-01-01&to=2026-01-31#kw")).toBe("/campaigns/12?from=2026-01-01&to=2026-01-31#kw");
    expect(check("/campaigns/../history")).toBe("/history");
    // Non-Latin-1 becomes percent-encoded ASCII: a valid Location header, not a 500.
    expect(check("/campaigns?q=café€")).toBe("/campaigns?q=caf%C3%A9%E2%82%AC");
  });

  it.each([
    ["a tab the browser drops (/%09/evil decoded)", "/\t/evil.example"],
    ["a newline", "/\n/evil.example"],
    ["CR LF (header injection)", "/x\r\nSet-Cookie: a=b"],
    ["a NUL", "/\u0000/evil.example"],
    ["a C1 control", "/\u0085/evil.example"],
    ["protocol-relative", "//evil.example"],
    ["backslash, read as a slash", "/\\evil.example"],
    ["backslashes", "\\\\evil.example"],
    ["an absolute URL", "https://evil.example/"],
    ["the app's own absolute URL (only paths are taken)", "http://localhost:3000/dashboard"],
    ["javascript:", "javascript:alert(1)"],
    ["a relative path", "dashboard"],
    ["an API endpoint", "/api/v1/auth/google"],
    ["an API endpoint in other case", "/API/v1/auth/google/callback"],
    ["empty", ""],
    ["not a string", 42],
    ["null", null],
  ])("refuses %s", (_label, value) => {
    expect(check(value)).toBe("/fallback");
  });
});
