import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

/**
 * Test support: serves a `Request → Response` handler (a route's loader or
 * action, as React Router calls it) on an ephemeral port, so a real client
 * (e.g. the MCP SDK's) talks to it over HTTP.
 */
export interface FetchServer {
  url: string;
  close(): Promise<void>;
}

export async function serveFetch(handler: (request: Request) => Promise<Response>): Promise<FetchServer> {
  const answer = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (Array.isArray(value)) for (const v of value) headers.append(name, v);
        else if (value !== undefined) headers.set(name, value);
      }
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers,
        body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
        duplex: hasBody ? "half" : undefined,
      } as RequestInit);
      const response = await handler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
      res.end();
    } catch (error) {
      console.warn(`[fetch-server] ${String(error)}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  };
  // Every failure is answered inside (500), so nothing is left for the caller to handle.
  const server = http.createServer((req, res) => void answer(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
