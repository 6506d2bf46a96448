import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** Express-mounted requests carry these; a bare node:http request does not. */
export interface MaybeExpressRequest extends IncomingMessage {
  baseUrl?: string;
  originalUrl?: string;
  body?: unknown;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

export class BodyTooLargeError extends Error {
  constructor() {
    super("request body too large");
    this.name = "BodyTooLargeError";
  }
}

/**
 * The request body as text, or, when a body parser upstream (express.json /
 * urlencoded) already drained the stream, whatever it left in req.body.
 */
export async function readBody(req: MaybeExpressRequest): Promise<{ text?: string; parsed?: unknown }> {
  // readableEnded, not complete: complete only says the bytes arrived, not that someone consumed them.
  const alreadyRead = req.readableEnded;
  if (alreadyRead && req.body !== undefined) {
    if (typeof req.body === "string") return { text: req.body };
    if (Buffer.isBuffer(req.body)) return { text: req.body.toString("utf8") };
    return { parsed: req.body };
  }
  if (alreadyRead) return { text: "" };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError();
    chunks.push(buf);
  }
  return { text: Buffer.concat(chunks).toString("utf8") };
}

/** A form body (or JSON object, which Google's token endpoint also accepts) as flat string fields. */
export function formFields(body: { text?: string; parsed?: unknown }, contentType: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (body.parsed !== undefined) {
    if (body.parsed && typeof body.parsed === "object") {
      for (const [k, v] of Object.entries(body.parsed as Record<string, unknown>)) {
        if (typeof v === "string") out[k] = v;
        else if (typeof v === "number" || typeof v === "boolean") out[k] = String(v);
      }
    }
    return out;
  }
  const text = body.text ?? "";
  if (/^application\/json\b/i.test(contentType ?? "")) {
    try {
      return formFields({ parsed: JSON.parse(text) }, undefined);
    } catch {
      return out;
    }
  }
  // URLSearchParams keeps the last duplicate; first-wins is closer to what OAuth servers do.
  for (const [k, v] of new URLSearchParams(text)) if (!(k in out)) out[k] = v;
  return out;
}

/** Multi-valued form fields (consent checkboxes). */
export function formList(text: string | undefined, parsed: unknown, name: string): string[] {
  if (parsed && typeof parsed === "object") {
    const v = (parsed as Record<string, unknown>)[name];
    if (Array.isArray(v)) return v.filter((x): x is string => typeof x === "string");
    return typeof v === "string" ? [v] : [];
  }
  return new URLSearchParams(text ?? "").getAll(name);
}

/** The mount prefix when Express mounted us (app.use("/emulator", handler)), else "". */
export function mountPrefix(req: MaybeExpressRequest): string {
  if (typeof req.baseUrl === "string") return req.baseUrl.replace(/\/+$/, "");
  if (typeof req.originalUrl === "string" && req.url && req.originalUrl !== req.url) {
    const origPath = req.originalUrl.split("?")[0] ?? "";
    const relPath = (req.url.split("?")[0] ?? "").replace(/^\/$/, "");
    if (relPath && origPath.endsWith(relPath)) return origPath.slice(0, origPath.length - relPath.length);
  }
  return "";
}

/** Absolute base URL of the emulator as the caller sees it (scheme, host, mount prefix). */
export function requestBaseUrl(req: MaybeExpressRequest): string {
  const fwdProto = headerValue(req, "x-forwarded-proto")?.split(",")[0]?.trim();
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const proto = fwdProto === "https" || fwdProto === "http" ? fwdProto : encrypted ? "https" : "http";
  const host = headerValue(req, "x-forwarded-host")?.split(",")[0]?.trim() || headerValue(req, "host") || "localhost";
  return `${proto}://${host}${mountPrefix(req)}`;
}

export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** 16 random bytes in base64url: the 22-character shape of Google's request ids. */
export function newRequestId(): string {
  return randomBytes(16).toString("base64url");
}

export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString("base64url");
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=UTF-8",
    "Cache-Control": "no-cache, no-store, max-age=0, must-revalidate",
    Pragma: "no-cache",
    "Content-Length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    "Content-Type": "text/html; charset=UTF-8",
    "Content-Length": Buffer.byteLength(html),
    "Cache-Control": "no-cache, no-store, max-age=0, must-revalidate",
    ...headers,
  });
  res.end(html);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { Location: location, "Cache-Control": "no-cache, no-store, max-age=0, must-revalidate" });
  res.end();
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** Bearer token from the Authorization header: undefined when absent, null when present but not a Bearer credential. */
export function bearerToken(req: IncomingMessage): string | undefined | null {
  const h = headerValue(req, "authorization");
  if (h === undefined) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1]! : null;
}

/** Pending delays, so close() can release requests parked by a "slow" fault instead of leaving them hanging. */
export class Delays {
  private readonly pending = new Map<NodeJS.Timeout, () => void>();

  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.pending.delete(t);
        resolve();
      }, ms);
      this.pending.set(t, resolve);
    });
  }

  releaseAll(): void {
    for (const [t, resolve] of this.pending) {
      clearTimeout(t);
      resolve();
    }
    this.pending.clear();
  }
}
