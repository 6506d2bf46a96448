import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { log, requestLogContext, type RequestLogContext } from "../log.server";

export const REQUEST_ID_HEADER = "X-Request-Id";

/**
 * One log line per request, written when the response is finished:
 * `{ level, time, reqId, msg: "request", method, path, status, ms, userId? }`.
 * The path has no query string (a sign-in link or an OAuth callback carries a
 * token or a code there); no header, cookie or body is ever logged. The id is
 * also the response's `X-Request-Id`, and every line logged while the request
 * is served carries it (AsyncLocalStorage, see log.server.ts).
 *
 * 5xx answers are logged at `error`, the rest at `info` (so LOG_LEVEL `warn`
 * keeps only the failures).
 */
export function requestLog() {
  return (req: IncomingMessage & { path?: string }, res: ServerResponse, next: () => void) => {
    const context: RequestLogContext = { requestId: randomUUID() };
    res.setHeader(REQUEST_ID_HEADER, context.requestId);
    const started = performance.now();
    res.on("finish", () => {
      const fields = {
        reqId: context.requestId,
        method: req.method,
        path: req.path ?? (req.url ?? "").split("?")[0],
        status: res.statusCode,
        ms: Math.round(performance.now() - started),
        ...(context.userId ? { userId: context.userId } : {}),
      };
      if (res.statusCode >= 500) log.error(fields, "request");
      else log.info(fields, "request");
    });
    requestLogContext.run(context, next);
  };
}
