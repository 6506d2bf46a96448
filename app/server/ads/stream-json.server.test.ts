// @vitest-environment node
import { describe, expect, it } from "vitest";
import { forEachJsonArrayElement, MalformedStreamError, StreamReadError } from "./stream-json.server";

function streamOf(text: string, size: number, failAfter?: number) {
  const bytes = new TextEncoder().encode(text);
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (failAfter !== undefined && i >= failAfter) return controller.error(new Error("socket hang up"));
      if (i >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(i, i + size));
      i += size;
    },
  });
}

async function collect(text: string, size: number) {
  const out: unknown[] = [];
  await forEachJsonArrayElement(streamOf(text, size), (v) => {
    out.push(v);
  });
  return out;
}

const batches = [
  { results: [{ a: 'x}]"{[', b: "é漢\\", c: '\\"' }], requestId: "r1" },
  { results: [], fieldMask: "a" },
  { results: [{ n: [1, [2, {}]], s: "" }] },
];

describe("forEachJsonArrayElement", () => {
  it.each([1, 2, 3, 7, 64, 100_000])("gives each element of the array, split into %i-byte chunks", async (size) => {
    expect(await collect(JSON.stringify(batches), size)).toEqual(batches);
    expect(await collect(JSON.stringify(batches, null, 2), size)).toEqual(batches);
  });

  it("gives a lone object (an error answered outside the array) as one element", async () => {
    const error = { error: { code: 429, message: "quota {[" } };
    expect(await collect(` ${JSON.stringify(error)}\n`, 5)).toEqual([error]);
  });

  it("gives nothing for an empty body or an empty array", async () => {
    expect(await collect("", 4)).toEqual([]);
    expect(await collect(" [ ] ", 1)).toEqual([]);
  });

  it("says when the body was cut off, or is not an array of objects", async () => {
    await expect(collect(JSON.stringify(batches).slice(0, 40), 8)).rejects.toBeInstanceOf(StreamReadError);
    await expect(forEachJsonArrayElement(streamOf(JSON.stringify(batches), 8, 16), () => {})).rejects.toBeInstanceOf(StreamReadError);
    await expect(collect("[1, 2]", 3)).rejects.toBeInstanceOf(MalformedStreamError);
    await expect(collect('[{"a": tru}]', 3)).rejects.toBeInstanceOf(MalformedStreamError);
    await expect(collect("[{}] x", 3)).rejects.toBeInstanceOf(MalformedStreamError);
  });

  it("hands one element on before reading the next, and stops on the consumer's error", async () => {
    const seen: number[] = [];
    const body = JSON.stringify([{ i: 1 }, { i: 2 }, { i: 3 }]);
    const failure = new Error("row 0 does not match");
    await expect(
      forEachJsonArrayElement(streamOf(body, 4), (v) => {
        seen.push((v as { i: number }).i);
        if (seen.length === 2) throw failure;
      }),
    ).rejects.toBe(failure);
    expect(seen).toEqual([1, 2]);
  });
});
