import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import pino, { type DestinationStream, type Logger } from "pino";
import { getConfig } from "./env.server";
import { censor, OUTBOX_FIELD, REDACT_PATHS, scrubText } from "./log-redact.server";

/**
 * The server's one log: pino, JSON lines on stdout at LOG_LEVEL (default
 * `info`; `silent` turns it off). Every line written while a request is being
 * served carries that request's id (`reqId`), the same id the client got as
 * `X-Request-Id`, so a warning can be matched to the request line that
 * `http/request-log.server.ts` writes when the response is finished.
 *
 * Credentials, the secret part of links and email addresses are censored
 * before a line is written (log-redact.server.ts).
 *
 * The request's context lives in an AsyncLocalStorage kept on `globalThis`:
 * server.ts and the React Router build are bundled separately (and Vite may
 * reload the build in development), so each has its own copy of this module,
 * yet both must see the same request.
 */
export interface RequestLogContext {
  requestId: string;
  /** Set once the session lookup has found who is asking. */
  userId?: string;
}

const STORE_KEY = Symbol.for("ads-ai-manager.request-log-context");
const globals = globalThis as typeof globalThis & { [STORE_KEY]?: AsyncLocalStorage<RequestLogContext> };
export const requestLogContext: AsyncLocalStorage<RequestLogContext> = (globals[STORE_KEY] ??= new AsyncLocalStorage<RequestLogContext>());

/** The request being served, if any. */
export function currentRequest(): RequestLogContext | undefined {
  return requestLogContext.getStore();
}

/** Called by the session lookup, so the request's line names the user. */
export function noteRequestUser(userId: string) {
  const store = requestLogContext.getStore();
  if (store) store.userId = userId;
}

/** Where tests send lines instead of stdout (on `globalThis`, so tests/setup sets it without importing pino). */
export type LogSink = (line: string) => void;
const SINK_KEY = Symbol.for("ads-ai-manager.log-test-sink");
const sinks = globalThis as typeof globalThis & { [SINK_KEY]?: LogSink };

function level(): string {
  try {
    return getConfig().LOG_LEVEL;
  } catch {
    // Configuration that does not parse is reported by boot; the log still works.
    return "info";
  }
}

function destination(): DestinationStream {
  // Tests read what was logged (captureLogs) instead of stdout.
  return {
    write: (line: string) => {
      const sink = sinks[SINK_KEY];
      if (sink) sink(line);
      else process.stdout.write(line);
    },
  };
}

/**
 * pino-pretty is a dev dependency: readable lines in `npm run dev`, JSON
 * everywhere else. It runs in this thread as a stream, not as pino's worker
 * transport: the app's modules are loaded by Vite there, and a transport
 * resolved from them could not find "pino-pretty" (the first line logged
 * after start threw, and took the server down). Missing, the log stays JSON.
 */
function prettyInDevelopment(): DestinationStream | undefined {
  if (process.env.NODE_ENV !== "development") return undefined;
  try {
    const pretty = createRequire(import.meta.url)("pino-pretty") as (options: Record<string, unknown>) => DestinationStream;
    return pretty({ ignore: "pid,hostname", translateTime: "SYS:HH:MM:ss.l", singleLine: true, sync: true, destination: 1 });
  } catch {
    return undefined;
  }
}

/** pino's error serializer, with the message and stack scrubbed like any other text. */
function scrubbedError(error: Error) {
  const out = pino.stdSerializers.err(error);
  if (typeof out.message === "string") out.message = scrubText(out.message);
  if (typeof out.stack === "string") out.stack = scrubText(out.stack);
  return out;
}

let root: Logger | undefined;

function rootLogger(): Logger {
  root ??= pino(
    {
      level: level(),
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const request = requestLogContext.getStore();
        return request ? { reqId: request.requestId } : {};
      },
      redact: { paths: REDACT_PATHS, censor },
      serializers: { err: scrubbedError },
      hooks: {
        logMethod(args, method) {
          const [first] = args as unknown[];
          const outbox = typeof first === "object" && first !== null && (first as Record<string, unknown>)[OUTBOX_FIELD] === true;
          const scrubbed = outbox ? args : (args.map((a: unknown) => (typeof a === "string" ? scrubText(a) : a)) as typeof args);
          return method.apply(this, scrubbed);
        },
      },
    },
    prettyInDevelopment() ?? destination(),
  );
  return root;
}

/**
 * The log. `log.warn(message)` or `log.warn({ err, ...fields }, message)`;
 * an error goes under `err` (pino prints its message and stack).
 */
export const log = {
  debug: (...args: Parameters<Logger["debug"]>) => rootLogger().debug(...args),
  info: (...args: Parameters<Logger["info"]>) => rootLogger().info(...args),
  warn: (...args: Parameters<Logger["warn"]>) => rootLogger().warn(...args),
  error: (...args: Parameters<Logger["error"]>) => rootLogger().error(...args),
};

/** An error's message, for the log line's text (the full error goes under `err`). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export interface LogRecord {
  level: string;
  msg: string;
  reqId?: string;
  err?: { message: string; stack?: string; type?: string };
  [field: string]: unknown;
}

/**
 * For tests: every line logged from now on is parsed into `records` instead of
 * written to stdout, until `restore()`. The level is the configuration's
 * (tests run at `info` unless they set LOG_LEVEL).
 */
export function captureLogs(): { records: LogRecord[]; restore: () => void } {
  const records: LogRecord[] = [];
  const previous = sinks[SINK_KEY];
  sinks[SINK_KEY] = (line) => {
    records.push(JSON.parse(line) as LogRecord);
  };
  return {
    records,
    restore: () => {
      sinks[SINK_KEY] = previous;
    },
  };
}

/** For tests that change LOG_LEVEL: the next line builds the logger again. */
export function resetLogForTests() {
  root = undefined;
}
