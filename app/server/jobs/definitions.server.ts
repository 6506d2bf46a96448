import type { z } from "zod";
import type { QueueName } from "./queues.server";

/**
 * What a kind of job is: the shape of its data (checked when it is queued and
 * again when it runs), what running it does, and what happens when it fails
 * for good. Registered once per process by catalog.server.ts.
 */
export interface JobContext {
  jobId: string;
  /** 1 for the first run, 2 for the first retry, … */
  attempt: number;
  /** Aborted when the run times out, its lease is lost, or the server shuts down: stop soon. */
  signal: AbortSignal;
}

export interface JobDefinition<T> {
  schema: z.ZodType<T>;
  handler: (data: T, ctx: JobContext) => Promise<void>;
  /** One running job per key across every instance (an account's sync, a change set's settling), and one queued. */
  singletonKey?: (data: T) => string;
  /**
   * While a job of the key runs: "skip" (default) queues nothing more (the running one does the
   * work); "queue" queues one to run after it (new data the running one did not see).
   */
  whileRunning?: "skip" | "queue";
  /** Failed for good (retries used up): record the reason where people see it. Must not throw for a missing row. */
  onFailed?: (data: T, reason: string) => Promise<void>;
}

/**
 * Thrown by a handler that cannot do its work yet (a live holder still has the
 * change set): the job ends as completed, and a new one with the same data is
 * queued for `at`. Uses no retry.
 */
export class RetryLater extends Error {
  name = "RetryLater";
  constructor(
    reason: string,
    readonly at: Date,
  ) {
    super(reason);
  }
}

const definitions = new Map<QueueName, JobDefinition<unknown>>();

export function defineJob<T>(name: QueueName, definition: JobDefinition<T>): void {
  definitions.set(name, definition as JobDefinition<unknown>);
}

export function jobDefinition(name: QueueName): JobDefinition<unknown> {
  const definition = definitions.get(name);
  if (!definition) throw new Error(`No handler is defined for the job queue "${name}" (app/server/jobs/catalog.server.ts)`);
  return definition;
}

export function definedQueues(): QueueName[] {
  return [...definitions.keys()];
}
