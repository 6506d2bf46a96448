import { describe, expect, it } from "vitest";
import { currentPath, hrefWith, keptParams } from "./query";

describe("query helpers", () => {
  it("changes, removes and keeps keys", () => {
    expect(hrefWith("/c", "a=1&b=2", { b: null, c: 3 })).toBe("/c?a=1&c=3");
    expect(hrefWith("/c", "", { a: "" })).toBe("/c");
    expect(keptParams("a=1&b=2&c=3", ["b"])).toEqual([
      ["a", "1"],
      ["c", "3"],
    ]);
  });

  it("never carries the sign-in token or empty values along", () => {
    expect(hrefWith("/c", "token=abc&q=&sort=cost", { page: 2 })).toBe("/c?sort=cost&page=2");
    expect(keptParams("token=abc&q=&sort=cost", [])).toEqual([["sort", "cost"]]);
    expect(currentPath("/dashboard", "?token=abc")).toBe("/dashboard");
    expect(currentPath("/campaigns", "?token=abc&range=7d")).toBe("/campaigns?range=7d");
  });
});
