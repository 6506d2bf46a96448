import { describe, expect, it } from "vitest";
import { writeQueue } from "./staging.server";

const settleLater = () => {
  let settle!: { resolve: () => void; reject: (error: Error) => void };
  const promise = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  return { promise, ...settle };
};

describe("writeQueue", () => {
  it("lets the caller go on while fewer than `limit` writes run, and waits for the oldest at the limit", async () => {
    const queue = writeQueue(2);
    const first = settleLater();
    const second = settleLater();
    await queue.push(first.promise);
    let pushed = false;
    const pushing = queue.push(second.promise).then(() => (pushed = true));
    await Promise.resolve();
    expect(pushed).toBe(false);
    first.resolve();
    await pushing;
    expect(pushed).toBe(true);
    second.resolve();
    await queue.drain();
  });

  it("throws a write's failure at the next push or at drain, never as an unhandled rejection", async () => {
    const queue = writeQueue(3);
    const failing = settleLater();
    await queue.push(failing.promise);
    failing.reject(new Error("disk full"));
    await expect(queue.drain()).rejects.toThrow("disk full");
    await expect(queue.push(Promise.resolve())).rejects.toThrow("disk full");
  });
});
