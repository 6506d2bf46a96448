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

/**
 * The same walk, handing out each element's bytes (`{` to its `}`) unparsed,
 * for a caller that reads them itself (the sync's batch decoder). The bytes
 * are only valid until `onElement`'s promise settles.
 */
export async function forEachJsonArrayElementBytes(body: ReadableStream<Uint8Array>, onElement: (bytes: Buffer) => void | Promise<void>): Promise<number> {
  const reader = body.getReader();
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
    let chunk: Uint8Array | undefined;
    try {
      const next = await reader.read();
      if (next.done) break;
      chunk = next.value;
    } catch (error) {
      throw new StreamReadError(error instanceof Error ? error.message : String(error), { cause: error });
    }
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
