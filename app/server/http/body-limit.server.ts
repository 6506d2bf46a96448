import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Refuses request bodies over `maxBytes` with 413 before anything parses them:
 * at once from Content-Length, and while the bytes arrive for a body without
 * one (chunked). Mounted first in server.ts, so it covers React Router, the
 * JSON API and the demo emulator alike.
 *
 * Streaming bodies are counted where Node's HTTP parser hands them over
 * (`req.push`), which reads nothing itself: whoever consumes the body later
 * sees the same bytes, or, once the limit is passed, an error (never a
 * silently truncated body that could be acted upon).
 */
export class BodyTooLargeError extends Error {
  name = "BodyTooLargeError";
  constructor(readonly limit: number) {
    super(`Request body is larger than ${limit} bytes`);
  }
}

const cut = new WeakSet<IncomingMessage>();

/** Was this request's body refused (so any error its readers see is expected)? */
export function bodyWasRefused(req: IncomingMessage): boolean {
  return cut.has(req);
}

// How long the rest of a refused upload is read and dropped before the connection closes.
const LINGER_MS = 2_000;

function refuse(req: IncomingMessage, res: ServerResponse, limit: number) {
  cut.add(req);
  if (res.headersSent) {
    req.destroy(new BodyTooLargeError(limit));
    return;
  }
  const body = JSON.stringify({ detail: `Request body too large: the limit is ${limit} bytes` });
  lingerAfterResponse(req, limit);
  // Connection: close, so the rest of an oversized upload is never parsed.
  res.writeHead(413, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), Connection: "close" });
  res.end(body);
}

/**
 * A client is usually still sending when the 413 goes out. Closing at once
 * (Node destroys a Connection: close socket as soon as the response is
 * written) leaves its bytes unread, so the kernel resets the connection, and a
 * client that reads only after writing sees the reset, not the 413. Instead
 * the socket stops sending (FIN) and keeps reading and dropping for a moment,
 * until the client stops or LINGER_MS pass (what web servers call a lingering
 * close); then the request is destroyed, so its body's readers get an error.
 */
function lingerAfterResponse(req: IncomingMessage, limit: number) {
  const socket = req.socket;
  const close = () => {
    clearTimeout(timer);
    req.destroy(new BodyTooLargeError(limit));
    socket.destroy();
  };
  const timer = setTimeout(close, LINGER_MS);
  timer.unref();
  socket.destroySoon = () => {
    socket.end();
  };
  socket.once("end", close);
  socket.once("close", () => clearTimeout(timer));
}

export function bodyLimit(maxBytes: number) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const declared = req.headers["content-length"];
    if (declared !== undefined && Number(declared) > maxBytes) {
      refuse(req, res, maxBytes);
      return;
    }
    if (declared === undefined && req.headers["transfer-encoding"] !== undefined) {
      let received = 0;
      const push = req.push.bind(req);
      req.push = (chunk: unknown, encoding?: BufferEncoding) => {
        if (cut.has(req)) return chunk === null ? false : true; // drop the rest; the socket closes after the 413
        if (chunk !== null && chunk !== undefined) {
          received += (chunk as { length: number }).length;
          if (received > maxBytes) {
            refuse(req, res, maxBytes);
            return true;
          }
        }
        return push(chunk, encoding);
      };
    }
    next();
  };
}
