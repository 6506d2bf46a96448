import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { NonceProvider } from "./components/nonce";
import { documentCache, readAll, streamOf } from "./server/http/document-cache.server";
import { documentSecurityHeaders } from "./server/http/security.server";
import { errorMessage, log } from "./server/log.server";
import { requestInfoContext } from "./server/request-context.server";

export { boot } from "./server/boot.server";
// server.ts builds each request's context through the build, so both use the same context keys.
export { createLoadContext } from "./server/request-context.server";

export const streamTimeout = 5_000;

/**
 * React Router's own error log, minus the expected: a client that went away,
 * a body refused at MAX_BODY_BYTES (already answered 413 by server.ts), and
 * the router's own 4xx answers (a method a route does not serve, an unknown
 * path), which are the client's mistake, already answered with their status.
 */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (error instanceof Error && error.name === "BodyTooLargeError") return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  log.error({ err: error }, errorMessage(error));
}

export default async function handleRequest(
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

  const context = routerContext.staticHandlerContext;
  const cache = documentCache();
  if (!cache || !nonce || request.method !== "GET" || responseStatusCode !== 200 || context.errors || context.actionData) {
    const { html, status } = await render(request, routerContext, nonce, responseStatusCode);
    return htmlResponse(html, status, responseHeaders);
  }
  // The state as the browser will receive it: with the URL and status, the whole input of the render (ADR 017).
  const state = await readAll(routerContext.serverHandoffStream!);
  const key = cache.key(request.url, responseStatusCode, state);
  const { html, status } = await cache.respond(key, nonce, (placeholder) => {
    routerContext.serverHandoffStream = streamOf(state);
    return render(request, routerContext, placeholder, responseStatusCode);
  });
  return htmlResponse(html, status, responseHeaders);
}

function htmlResponse(html: Buffer, status: number, headers: Headers) {
  headers.set("Content-Type", "text/html; charset=utf-8");
  return new Response(html as Uint8Array<ArrayBuffer>, { headers, status });
}

/** Renders the whole document into one buffer (no Suspense boundaries stream anything, ADR 016). */
function render(request: Request, routerContext: EntryContext, nonce: string | undefined, initialStatus: number): Promise<{ html: Buffer; status: number }> {
  let status = initialStatus;
  return new Promise((resolve, reject) => {
    let settled = false;
    const chunks: Buffer[] = [];
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000);
    // One buffer makes one write and one compression pass, where piping sent dozens of
    // chunks that each waited for the event loop under load (ADR 016).
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeoutId);
        settled = true;
        resolve({ html: Buffer.concat(chunks), status });
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
          status = 500;
          log.error({ err: error }, errorMessage(error));
        },
      },
    );
  });
}
