/**
 * Splits a streamed JSON array (`[ {...}, {...} ]`, searchStream's body) into
 * its elements as the bytes arrive, so a large response never exists as one
 * string: each element (a batch of up to 10,000 rows) is parsed on its own and
 * handed on before the next is read. A body that is a lone object (an error
 * answered without the array) comes out as one element.
 */
import { Buffer, isAscii } from "node:buffer";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

export class StreamReadError extends Error {
  name = "StreamReadError";
}

export class MalformedStreamError extends Error {
  name = "MalformedStreamError";
}

/**
 * Calls `onElement` with each top-level element, in order, awaiting it before
 * reading on. Errors thrown while reading the body are wrapped in
 * StreamReadError; errors from `onElement` pass through unchanged.
 */
export async function forEachJsonArrayElement(body: ReadableStream<Uint8Array>, onElement: (value: unknown) => void | Promise<void>): Promise<number> {
  return forEachJsonArrayElementBytes(body, (bytes) => onElement(parseJsonElement(bytes)));
}

/**
 * JSON.parse of one element's bytes. Nearly every batch is ASCII (ids, dates,
 * numbers, enum names), and ASCII read as Latin-1 is a plain copy; UTF-8
 * decoding cost as much as JSON.parse itself. Anything else is read as UTF-8.
 */
export function parseJsonElement(bytes: Buffer): unknown {
  const text = isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    throw new MalformedStreamError("an element of the streamed array is not JSON");
  }
}

export interface ElementTrial {
  /**
   * Offered an element found the fast way (below): true if it read the bytes
   * as exactly one complete, valid JSON object, which proves they are the
   * element; false to have the stream split the careful way from there on.
   */
  tryElement(bytes: Buffer): boolean | Promise<boolean>;
}

/**
 * The same walk, handing out each element's bytes (`{` to its `}`) unparsed,
 * for a caller that reads them itself (the sync's batch decoder). The bytes
 * are only valid until `onElement`'s promise settles.
 *
 * With `trial`, elements are first found the fast way (splitByMarker) and
 * offered to `trial.tryElement`; `onElement` gets what the careful way splits
 * after an element the trial turned down.
 */
export async function forEachJsonArrayElementBytes(
  body: ReadableStream<Uint8Array>,
  onElement: (bytes: Buffer) => void | Promise<void>,
  trial?: ElementTrial,
): Promise<number> {
  const reader = body.getReader();
  return trial ? splitByMarker(reader, onElement, trial) : splitCarefully(reader, onElement);
}

async function splitCarefully(reader: ReadableStreamDefaultReader<Uint8Array>, onElement: (bytes: Buffer) => void | Promise<void>): Promise<number> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let loneObject = false;
  let started = false;
  let ended = false;
  let parts: Uint8Array[] = [];
  let elements = 0;

  const emit = async (last: Uint8Array) => {
    parts.push(last);
    const bytes = parts.length === 1 ? Buffer.from(parts[0].buffer, parts[0].byteOffset, parts[0].byteLength) : Buffer.concat(parts);
    parts = [];
    elements += 1;
    await onElement(bytes);
  };

  for (;;) {
    const chunk = await read(reader);
    if (!chunk) break;
    let backslashAt = chunk.indexOf(BACKSLASH);
    let from = -1; // start of the current element's bytes within this chunk
    if (depth >= 2 || (loneObject && depth >= 1)) from = 0;
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      if (from !== -1 && !inString) {
        // Inside an element (nearly every byte): only strings and nesting matter, so this
        // loop skips strings byte by byte in place (they are short: calling indexOf for
        // each cost more) and stops before the byte that closes the element, which the
        // general code below handles.
        const closing = loneObject ? 1 : 2;
        let d = depth;
        for (; i < n; i++) {
          const c = chunk[i];
          if (c === QUOTE) {
            i++;
            while (i < n) {
              const e = chunk[i];
              if (e === QUOTE) break;
              if (e === BACKSLASH) i++;
              i++;
            }
            if (i >= n) {
              // The string goes on in the next chunk (an escape may have been cut in two).
              inString = true;
              escaped = i > n;
              break;
            }
          } else if (c === OPEN_BRACE || c === OPEN_BRACKET) d++;
          else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
            if (d === closing) break;
            d--;
          }
        }
        depth = d;
        if (i >= n) break;
      }
      const c = chunk[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
        else {
          // Skip ahead to the next quote or backslash natively: most bytes are inside strings.
          // The next backslash is remembered per chunk: JSON rarely has any, and searching
          // for one from every string would scan the rest of the chunk each time.
          if (backslashAt !== -1 && backslashAt <= i) backslashAt = chunk.indexOf(BACKSLASH, i + 1);
          const q = chunk.indexOf(QUOTE, i + 1);
          const stop = q === -1 ? backslashAt : backslashAt === -1 ? q : Math.min(q, backslashAt);
          if (stop === -1) {
            i = chunk.length - 1;
          } else i = stop - 1;
        }
        continue;
      }
      if (depth === 1 && !loneObject && c > 0x20 && c !== 0x2c && c !== OPEN_BRACE && c !== CLOSE_BRACKET) {
        throw new MalformedStreamError("an element of the streamed array is not an object");
      }
      if (c === QUOTE) {
        inString = true;
        continue;
      }
      if (ended) {
        if (c > 0x20) throw new MalformedStreamError("data after the end of the streamed array");
        continue;
      }
      if (!started) {
        if (c <= 0x20) continue;
        started = true;
        if (c === OPEN_BRACKET) depth = 1;
        else if (c === OPEN_BRACE) {
          loneObject = true;
          depth = 1;
          from = i;
        } else throw new MalformedStreamError("the body is neither a JSON array nor an object");
        continue;
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth += 1;
        if (depth === 2 && !loneObject) {
          if (c !== OPEN_BRACE) throw new MalformedStreamError("an element of the streamed array is not an object");
          from = i;
        }
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth -= 1;
        if (loneObject && depth === 0) {
          await emit(chunk.subarray(from, i + 1));
          from = -1;
          ended = true;
        } else if (!loneObject && depth === 1) {
          await emit(chunk.subarray(from, i + 1));
          from = -1;
        } else if (depth === 0) {
          ended = true;
        }
      }
    }
    // The current element continues in the next chunk: keep a copy (the reader may reuse its buffer).
    if (from !== -1 && !ended) parts.push(chunk.slice(from));
  }
  if (started && !ended) throw new StreamReadError("the streamed array was cut off");
  return elements;
}

const MARKER = Buffer.from('"requestId"', "latin1");
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_ARRAY = Buffer.from("[", "latin1");
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The next chunk, or undefined at the end; a failure to read is a StreamReadError. */
async function read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Uint8Array | undefined> {
  try {
    const next = await reader.read();
    return next.done ? undefined : next.value;
  } catch (error) {
    throw new StreamReadError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/**
 * Splitting the careful way looks at every byte, tracking strings and nesting:
 * about a tenth of a large sync's CPU (issue 14). Every searchStream element
 * carries "requestId" among its last members (after the results, in the
 * message's field order), so this finds that key with a native search, reads
 * only the few bytes after it to the element's closing brace, and offers the
 * bytes to the trial, whose reader checks them as exactly one JSON object: the
 * grammar fixes where an object ends, so bytes it accepts are the element.
 * A key spelled the same inside a string or a nested message, an element
 * without one (an error), anything unexpected between elements: the trial
 * turns the bytes down or the marker never fits, and the careful way splits
 * the rest of the stream from that element's first byte.
 */
async function splitByMarker(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  onElement: (bytes: Buffer) => void | Promise<void>,
  trial: ElementTrial,
): Promise<number> {
  let elements = 0;
  let phase = "open" as "open" | "between" | "element" | "tail" | "ended";
  // The current element's bytes from earlier chunks. Not copied: a default reader's chunks are the
  // reader's to keep (Response.arrayBuffer keeps them so too), and a copy of every byte of a large
  // sync, concatenated once more per element, was garbage the worker had to collect.
  let parts: Buffer[] = [];
  // The end of the element's bytes so far, for a marker cut in two by a chunk boundary.
  let carry: Buffer | undefined;
  // Reading the bytes after the marker: first the colon that makes it a key, then to the closing brace.
  let keyCheck = false;
  let depth = 0;
  let inString = false;
  let escaped = false;

  // From `pending` on, the careful way, over the same reader; `[` again when inside the array.
  const carefully = async (pending: Buffer[], insideArray: boolean): Promise<number> => {
    const queued = [...(insideArray ? [OPEN_ARRAY] : []), ...pending.filter((p) => p.length > 0).map((p) => Buffer.from(p))];
    const rest = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = queued.shift() ?? (await reader.read().then((r) => (r.done ? undefined : r.value)));
        if (next === undefined) controller.close();
        else controller.enqueue(next);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return elements + (await splitCarefully(rest.getReader(), onElement));
  };

  for (;;) {
    const value = await read(reader);
    if (!value) break;
    // A Buffer view, for its native indexOf of the marker.
    const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    const n = chunk.length;
    let i = 0;
    let from = phase === "element" || phase === "tail" ? 0 : -1;
    while (i < n) {
      if (phase === "open") {
        const c = chunk[i];
        if (isSpace(c)) i++;
        else if (c === OPEN_BRACKET) {
          phase = "between";
          i++;
        } else return carefully([chunk.subarray(i)], false); // a lone object (an error) or not JSON
      } else if (phase === "between") {
        const c = chunk[i];
        if (isSpace(c) || (c === COMMA && elements > 0)) i++;
        else if (c === CLOSE_BRACKET) {
          phase = "ended";
          i++;
        } else if (c === OPEN_BRACE) {
          phase = "element";
          from = i;
          parts = [];
          carry = undefined;
          i++;
        } else return carefully([chunk.subarray(i)], true);
      } else if (phase === "ended") {
        if (!isSpace(chunk[i])) throw new MalformedStreamError("data after the end of the streamed array");
        i++;
      } else if (phase === "element") {
        let after = -1;
        if (carry) {
          const k = Buffer.concat([carry, chunk.subarray(i, i + MARKER.length - 1)]).indexOf(MARKER);
          if (k !== -1) {
            after = i + k + MARKER.length - carry.length;
            carry = undefined;
          }
        }
        if (after === -1) {
          const k = chunk.indexOf(MARKER, i);
          if (k !== -1) after = k + MARKER.length;
        }
        if (after === -1) {
          // The last bytes, for a marker that goes on in the next chunk (or the ones after: chunks may be tiny).
          const tail = carry ? Buffer.concat([carry, chunk.subarray(i)]) : chunk.subarray(i);
          carry = Buffer.from(tail.subarray(Math.max(0, tail.length - (MARKER.length - 1))));
          i = n;
        } else {
          carry = undefined;
          phase = "tail";
          keyCheck = true;
          depth = 1;
          inString = false;
          escaped = false;
          i = Math.max(i, after);
        }
      } else {
        // "tail": the element's last members, at its top level if the marker was its key.
        let end = -1;
        for (; i < n; i++) {
          const c = chunk[i];
          if (inString) {
            if (escaped) escaped = false;
            else if (c === BACKSLASH) escaped = true;
            else if (c === QUOTE) inString = false;
          } else if (keyCheck) {
            if (isSpace(c)) continue;
            if (c !== COLON) break;
            keyCheck = false;
          } else if (c === QUOTE) inString = true;
          else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
          else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
            if (--depth === 0) {
              end = i;
              break;
            }
          }
        }
        if (keyCheck && i < n) {
          // Not followed by a colon: not a key. Look for the next one.
          phase = "element";
          continue;
        }
        if (end === -1) continue; // the chunk ended first
        const last = chunk.subarray(from, end + 1);
        const bytes = parts.length === 0 ? last : Buffer.concat([...parts, last]);
        if (!(await trial.tryElement(bytes))) return carefully([bytes, chunk.subarray(end + 1)], true);
        elements += 1;
        phase = "between";
        parts = [];
        i = end + 1;
      }
    }
    if (phase === "element" || phase === "tail") parts.push(chunk.subarray(from));
  }
  if (phase === "ended") return elements;
  // Cut off, or never an array: the careful way says which (and gives a lone object).
  return carefully(phase === "open" ? [] : parts, phase !== "open");
}
