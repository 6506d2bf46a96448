import client from "prom-client";
import { queueDepth, onJobAttempt, QUEUES, type QueueName } from "../jobs/jobs.server";

/**
 * The server's own numbers, for Prometheus (`/metrics`, on only with
 * METRICS_TOKEN; server.ts serves it). One registry per process: HTTP
 * durations by route pattern and status, syncs and engine runs (duration and
 * rows), the job queues (depth, attempts and their outcome), Google Ads
 * operations against the daily budget, model tokens, and Node's process
 * metrics. Label values come from fixed sets (route patterns, queue names,
 * outcomes), never from a user's input.
 */
export const registry = new client.Registry();

/** Node's process metrics (CPU, memory, event loop lag, GC): the server's main thread only (boot). */
export function collectProcessMetrics() {
  client.collectDefaultMetrics({ register: registry });
}

const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const longSeconds = [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

const httpDuration = new client.Histogram({
  name: "http_request_duration_seconds",
  help: "HTTP requests by route pattern (e.g. /campaigns/:campaignId), method and status, until the response was finished",
  labelNames: ["route", "method", "status"],
  buckets: seconds,
  registers: [registry],
});

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export function observeHttp(route: string, method: string, status: number, durationSeconds: number) {
  httpDuration.observe({ route, method: METHODS.has(method) ? method : "OTHER", status: String(status) }, durationSeconds);
}

const syncDuration = new client.Histogram({
  name: "sync_duration_seconds",
  help: "Account syncs from start to their final state, by outcome (ok, failed, or elsewhere: another instance held the account)",
  labelNames: ["outcome"],
  buckets: longSeconds,
  registers: [registry],
});
const syncRows = new client.Counter({
  name: "sync_rows_total",
  help: "Rows written by successful syncs",
  registers: [registry],
});

export function observeSync(outcome: "ok" | "failed" | "elsewhere", durationSeconds: number, rows: number) {
  syncDuration.observe({ outcome }, durationSeconds);
  if (outcome === "ok") syncRows.inc(rows);
}

const engineDuration = new client.Histogram({
  name: "engine_run_duration_seconds",
  help: "Recommendations engine runs (after a sync, or on demand), by outcome",
  labelNames: ["outcome"],
  buckets: longSeconds,
  registers: [registry],
});
const engineRecommendations = new client.Counter({
  name: "engine_recommendations_total",
  help: "Recommendations stored by engine runs",
  registers: [registry],
});

export function observeEngine(outcome: "ok" | "failed", durationSeconds: number, recommendations: number) {
  engineDuration.observe({ outcome }, durationSeconds);
  engineRecommendations.inc(recommendations);
}

const jobAttempts = new client.Counter({
  name: "job_attempts_total",
  help: "Job attempts by queue and outcome (completed, failed, retry-later) in this instance",
  labelNames: ["queue", "outcome"],
  registers: [registry],
});
const jobDuration = new client.Histogram({
  name: "job_duration_seconds",
  help: "Job attempts from start to their recorded outcome, by queue",
  labelNames: ["queue"],
  buckets: longSeconds,
  registers: [registry],
});
onJobAttempt((queue, outcome, durationSeconds) => {
  jobAttempts.inc({ queue, outcome });
  jobDuration.observe({ queue }, durationSeconds);
});

new client.Gauge({
  name: "jobs_queued",
  help: "Jobs waiting to run (or waiting for their retry), by queue, across all instances",
  labelNames: ["queue"],
  registers: [registry],
  async collect() {
    const depth = await queueDepth();
    for (const queue of Object.keys(QUEUES) as QueueName[]) this.set({ queue }, depth.get(queue)?.queued ?? 0);
  },
});
new client.Gauge({
  name: "jobs_running",
  help: "Jobs running now, by queue, across all instances",
  labelNames: ["queue"],
  registers: [registry],
  async collect() {
    const depth = await queueDepth();
    for (const queue of Object.keys(QUEUES) as QueueName[]) this.set({ queue }, depth.get(queue)?.active ?? 0);
  },
});

/**
 * Google Ads operations used in the rolling 24 hours and the budget for them
 * (GOOGLE_ADS_DAILY_OPERATIONS), across all instances. The sync's quota
 * ledger (issue 26) provides the figures through setGoogleOperationsSource;
 * until it does, neither gauge exists (no made-up zero).
 */
export function setGoogleOperationsSource(source: () => Promise<{ used: number; budget: number }>) {
  for (const name of ["google_ads_operations_used", "google_ads_operations_budget"]) registry.removeSingleMetric(name);
  let last: Promise<{ used: number; budget: number }> | undefined;
  // Both gauges read one answer per scrape.
  const read = () => (last ??= source().finally(() => setTimeout(() => (last = undefined), 0)));
  new client.Gauge({
    name: "google_ads_operations_used",
    help: "Google Ads API operations used in the last 24 hours, by every instance (the quota ledger)",
    registers: [registry],
    async collect() {
      this.set((await read()).used);
    },
  });
  new client.Gauge({
    name: "google_ads_operations_budget",
    help: "Google Ads API operations allowed per rolling 24 hours (GOOGLE_ADS_DAILY_OPERATIONS)",
    registers: [registry],
    async collect() {
      this.set((await read()).budget);
    },
  });
}

const modelTokens = new client.Counter({
  name: "model_tokens_total",
  help: "Language model tokens used, by model and direction (input, output)",
  labelNames: ["model", "direction"],
  registers: [registry],
});

/** The metered door to the language model (issue 25) reports each call's usage here. */
export function recordModelTokens(model: string, usage: { inputTokens?: number; outputTokens?: number }) {
  if (usage.inputTokens) modelTokens.inc({ model, direction: "input" }, usage.inputTokens);
  if (usage.outputTokens) modelTokens.inc({ model, direction: "output" }, usage.outputTokens);
}

export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
