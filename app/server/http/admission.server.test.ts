import { AsyncLocalStorage } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { createAdmission } from "./admission.server";

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("fair admission", () => {
  it("starts one request per event-loop turn, the rest in arrival order", async () => {
    const admission = createAdmission(1);
    const started: number[] = [];
    for (let i = 0; i < 4; i++) admission.admit(() => started.push(i));
    // The first starts at once; the others wait for later turns.
    expect(started).toEqual([0]);
    expect(admission.waiting).toBe(3);
    await turn();
    expect(started).toEqual([0, 1]);
    await turn();
    await turn();
    expect(started).toEqual([0, 1, 2, 3]);
    expect(admission.waiting).toBe(0);
  });

  it("lets a request arriving in a later turn start at once when no one waits", async () => {
    const admission = createAdmission(1);
    const started: string[] = [];
    admission.admit(() => started.push("a"));
    await turn();
    await turn();
    admission.admit(() => started.push("b"));
    expect(started).toEqual(["a", "b"]);
  });

  it("honours a larger allowance per turn", async () => {
    const admission = createAdmission(3);
    const started: number[] = [];
    for (let i = 0; i < 7; i++) admission.admit(() => started.push(i));
    expect(started).toEqual([0, 1, 2]);
    await turn();
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    await turn();
    expect(started).toHaveLength(7);
  });

  it("runs a waiting request in its own async context, not the one of the turn that starts it", async () => {
    const admission = createAdmission(1);
    const store = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    for (const id of ["r1", "r2", "r3"]) store.run(id, () => admission.admit(() => seen.push(store.getStore())));
    await turn();
    await turn();
    expect(seen).toEqual(["r1", "r2", "r3"]);
  });

  it("leaves nothing scheduled once idle, so it never keeps the process awake", async () => {
    const admission = createAdmission(1);
    admission.admit(() => undefined);
    admission.admit(() => undefined);
    await turn();
    await turn();
    await turn();
    const pending = (process as unknown as { getActiveResourcesInfo(): string[] }).getActiveResourcesInfo().filter((r) => r === "Immediate");
    expect(pending).toEqual([]);
  });
});
