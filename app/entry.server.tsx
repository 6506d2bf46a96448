import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { NonceProvider } from "./components/nonce";
import { documentSecurityHeaders } from "./server/http/security.server";
import { errorMessage, log } from "./server/log.server";
import { requestInfoContext } from "./server/request-context.server";

export { boot } from "./server/boot.server";
// server.ts builds each request's context through the build, so both use the same context keys.
export { createLoadContext } from "./server/request-context.server";

export const streamTimeout = 5_000;

/**
 * React Router's own error log, minus the expected: a client that went away,
 * and a body refused at MAX_BODY_BYTES (already answered 413 by server.ts).
 */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (error instanceof Error && error.name === "BodyTooLargeError") return;
  log.error({ err: error }, errorMessage(error));
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { cspNonce: nonce } = loadContext.get(requestInfoContext);
  for (const [name, value] of Object.entries(documentSecurityHeaders(nonce))) responseHeaders.set(name, value);

  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise((resolve, reject) => {
    let settled = false;
    const chunks: Buffer[] = [];
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000);
    // The whole document is rendered before the first byte goes out (no Suspense
    // boundaries stream anything): one buffer makes one write and one compression
    // pass, where piping sent dozens of chunks that each waited for the event loop
    // under load (ADR 016).
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeoutId);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        settled = true;
        resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
        callback();
      },
    });

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          pipe(sink);
        },
        onShellError(error: unknown) {
          clearTimeout(timeoutId);
          if (!settled) reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          log.error({ err: error }, errorMessage(error));
        },
      },
    );
  });
}
