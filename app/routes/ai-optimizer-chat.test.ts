// @vitest-environment node
import { createStaticHandler, UNSAFE_ErrorResponseImpl as ErrorResponseImpl } from "react-router";
import { describe, expect, it } from "vitest";
import { handleError } from "~/entry.server";
import { captureLogs } from "~/server/log.server";
import { action, loader } from "./ai-optimizer-chat";

// Opening the chat's streaming endpoint in a browser (GET, signed in or not)
// used to end in React Router's "no loader" error, logged as "[object Object]".

describe("GET /ai-optimizer/chat", () => {
  it("answers 405 with Allow: POST through the router, and nothing is logged", async () => {
    const logs = captureLogs();
    try {
      const handler = createStaticHandler([{ id: "chat", path: "/ai-optimizer/chat", loader, action }]);
      const res = (await handler.queryRoute(new Request("http://localhost/ai-optimizer/chat"))) as Response;
      expect(res.status).toBe(405);
      expect(res.headers.get("Allow")).toBe("POST");
      expect(await res.text()).toMatch(/POST/);
      expect(logs.records).toEqual([]);
    } finally {
      logs.restore();
    }
  });

  it("the server's error log skips the router's own 4xx answers but keeps real failures", () => {
    const logs = captureLogs();
    try {
      const request = new Request("http://localhost/ai-optimizer/chat");
      handleError(new ErrorResponseImpl(405, "Method Not Allowed", null), { request });
      handleError(new ErrorResponseImpl(404, "Not Found", null), { request });
      expect(logs.records).toEqual([]);
      handleError(new Error("the database is gone"), { request });
      expect(logs.records.map((r) => [r.level, r.msg])).toEqual([["error", "the database is gone"]]);
    } finally {
      logs.restore();
    }
  });
});
