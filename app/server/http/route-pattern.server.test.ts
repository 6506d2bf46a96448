import { describe, expect, it } from "vitest";
import type { ServerBuild } from "react-router";
import { routePatternMatcher } from "./route-pattern.server";

// Metrics label requests by the route that served them, never by the address (ids, tokens).
const routes = {
  root: { id: "root", path: "" },
  "routes/app-layout": { id: "routes/app-layout", parentId: "root" },
  "routes/dashboard": { id: "routes/dashboard", parentId: "routes/app-layout", path: "dashboard" },
  "routes/campaign-detail": { id: "routes/campaign-detail", parentId: "routes/app-layout", path: "campaigns/:campaignId" },
  "routes/home": { id: "routes/home", parentId: "root", index: true },
  "routes/api/apply": { id: "routes/api/apply", parentId: "root", path: "api/v1/change-sets/:id/apply" },
  "routes/not-found": { id: "routes/not-found", parentId: "root", path: "*" },
} as unknown as ServerBuild["routes"];

describe("route patterns", () => {
  const of = routePatternMatcher(routes);
  it("names a page by its route, its ids as parameters", () => {
    expect(of("/dashboard")).toBe("/dashboard");
    expect(of("/campaigns/123456")).toBe("/campaigns/:campaignId");
    expect(of("/api/v1/change-sets/abc/apply")).toBe("/api/v1/change-sets/:id/apply");
    expect(of("/")).toBe("/");
  });
  it("puts every unknown address under the catch-all, and the server's own paths under their names", () => {
    expect(of("/no/such/page/with-a-secret-token")).toBe("/*");
    expect(of("/readyz")).toBe("/readyz");
    expect(of("/assets/entry-abc123.js")).toBe("/assets/*");
    expect(of("/emulator/o/oauth2/auth")).toBe("/emulator/*");
  });
});
