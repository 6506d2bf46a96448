// @vitest-environment node
import { describe, expect, it } from "vitest";
import { forEachJsonArrayElement, forEachJsonArrayElementBytes, MalformedStreamError, StreamReadError } from "./stream-json.server";

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

describe("forEachJsonArrayElementBytes with a trial (elements found by their requestId)", () => {
  /** Every element in order, and how each was found: "trial" (the fast way) or "careful". */
  async function split(text: string, size: number, accept: (value: Record<string, unknown>, index: number) => boolean = () => true, failAfter?: number) {
    const out: Array<{ value: unknown; by: "trial" | "careful" }> = [];
    let offered = 0;
    await forEachJsonArrayElementBytes(
      streamOf(text, size, failAfter),
      (bytes) => void out.push({ value: JSON.parse(bytes.toString("utf8")), by: "careful" }),
      {
        tryElement(bytes) {
          // Like the batch decoder: only exactly one whole JSON object, and only plain batches.
          let value: Record<string, unknown>;
          try {
            value = JSON.parse(bytes.toString("utf8")) as Record<string, unknown>;
          } catch {
            return false;
          }
          if (typeof value !== "object" || value === null || Array.isArray(value) || "error" in value || !accept(value, offered++)) return false;
          out.push({ value, by: "trial" });
          return true;
        },
      },
    );
    return out;
  }
  const values = (out: Array<{ value: unknown }>) => out.map((o) => o.value);

  const plain = [
    { results: [{ a: 'x}]"{[', b: "é漢\\" }], fieldMask: "a", requestId: "r1" },
    { results: [], fieldMask: "a", requestId: "r2", queryResourceConsumption: "12" },
    { results: [{ n: [1, [2, {}]], s: "" }], fieldMask: "a", requestId: "r3" },
  ];

  it.each([1, 2, 3, 7, 11, 64, 100_000])("finds every plain element the fast way, split into %i-byte chunks", async (size) => {
    for (const text of [
      JSON.stringify(plain),
      JSON.stringify(plain, null, 2),
      plain
        .map((p) => JSON.stringify(p))
        .join(",\n")
        .replace(/^/, "[")
        .concat("]"),
    ]) {
      const out = await split(text, size);
      expect(values(out)).toEqual(plain);
      expect(out.every((o) => o.by === "trial")).toBe(true);
    }
  });

  it("gives the same elements when the marker is spelled inside a string or a nested message", async () => {
    const tricky = [
      { results: [{ term: 'say "requestId', other: '"requestId": "x"}]' }], requestId: "r1" },
      { results: [{ meta: { requestId: "nested" }, list: [{ requestId: "deeper" }] }], requestId: "r2" },
      { results: [{ term: "after" }], requestId: "r3" },
    ];
    for (const size of [1, 5, 64, 100_000]) {
      const out = await split(JSON.stringify(tricky), size);
      expect(values(out)).toEqual(tricky);
    }
  });

  it("hands an element without the marker (an error) and everything after it to the careful way", async () => {
    const withError = [plain[0], { error: { code: 8, status: "RESOURCE_EXHAUSTED", message: 'quota "requestId" {[' } }, plain[2]];
    const out = await split(JSON.stringify(withError), 9);
    expect(values(out)).toEqual(withError);
    expect(out.map((o) => o.by)).toEqual(["trial", "careful", "careful"]);
  });

  it("goes on the careful way from an element the trial turns down", async () => {
    const out = await split(JSON.stringify(plain), 10, (_value, index) => index !== 1);
    expect(values(out)).toEqual(plain);
    expect(out.map((o) => o.by)).toEqual(["trial", "careful", "careful"]);
  });

  it("says what the careful way says about a lone object, an empty, cut-off or malformed body", async () => {
    const error = { error: { code: 429, message: "quota {[" } };
    expect(values(await split(` ${JSON.stringify(error)}\n`, 5))).toEqual([error]);
    expect(await split("", 4)).toEqual([]);
    expect(await split(" [ ] ", 1)).toEqual([]);
    await expect(split(JSON.stringify(plain).slice(0, 40), 8)).rejects.toBeInstanceOf(StreamReadError);
    await expect(split(JSON.stringify(plain).slice(0, -1), 8)).rejects.toBeInstanceOf(StreamReadError);
    await expect(split(JSON.stringify(plain), 8, () => true, 16)).rejects.toBeInstanceOf(StreamReadError);
    await expect(split("[1, 2]", 3)).rejects.toBeInstanceOf(MalformedStreamError);
    await expect(split(`${JSON.stringify(plain)} x`, 3)).rejects.toBeInstanceOf(MalformedStreamError);
  });
});
