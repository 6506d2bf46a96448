/**
 * Every kind of background job, with its retry policy: the one list of queues
 * (pg-boss creates a queue per entry on PostgreSQL; the SQLite back end reads
 * the same settings). Handlers are attached in catalog.server.ts.
 *
 * Retries: attempt n waits retryDelaySeconds·2ⁿ⁻¹ to twice that when
 * retryBackoff is on (pg-boss's formula, jitter included), retryDelaySeconds
 * otherwise. After retryLimit retries the job is failed for good with the last
 * attempt's reason, and its kind's onFailed hook records that reason where
 * people see it. A run longer than timeoutSeconds is stopped and counts as a
 * failed attempt.
 */
export interface QueueSettings {
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
  timeoutSeconds: number;
  /** Jobs of this queue run at the same time in one instance (one per singleton key across all instances), per back end. */
  concurrency: number | { postgres: number; sqlite: number };
  /** Cron (UTC, minute precision): the job is enqueued on this schedule, once across all instances. */
  cron?: string;
}

const queues = {
  /** A change set left "applying" is settled against Google's live state (changes/settle.server.ts). */
  "settle-change-set": { retryLimit: 10, retryDelaySeconds: 5, retryBackoff: true, timeoutSeconds: 300, concurrency: 2 },
  /** Finds change sets left "applying" whose holder is gone and queues their settling (the backstop). */
  "settle-sweep": { retryLimit: 0, retryDelaySeconds: 0, retryBackoff: false, timeoutSeconds: 60, concurrency: 1, cron: "* * * * *" },
  /** One outgoing mail of the outbox (email/outbox.server.ts). */
  "send-mail": { retryLimit: 8, retryDelaySeconds: 30, retryBackoff: true, timeoutSeconds: 120, concurrency: 4 },
  /** One alert POSTed to a person's webhook (agency/alert-webhook.server.ts); a refused POST is retried by the handler's own backoff. */
  "send-webhook": { retryLimit: 2, retryDelaySeconds: 30, retryBackoff: true, timeoutSeconds: 60, concurrency: 2 },
  /** The daily alert digest mails, once a day at 07:00 UTC (agency/alert-digest.server.ts). */
  "alert-digest": { retryLimit: 2, retryDelaySeconds: 60, retryBackoff: true, timeoutSeconds: 600, concurrency: 1, cron: "0 7 * * *" },
  /** The recommendations engine over one account's synced data (optimizer/engine-job.server.ts). */
  "engine-run": { retryLimit: 2, retryDelaySeconds: 30, retryBackoff: true, timeoutSeconds: 900, concurrency: 1 },
  /** Changes made outside the product, read from Google's change_event (changes/history-import.server.ts). */
  "history-import": { retryLimit: 0, retryDelaySeconds: 0, retryBackoff: false, timeoutSeconds: 120, concurrency: 2 },
  /** An account's impact records, computed again after its data changed (impact/job.server.ts). */
  "impact-records": { retryLimit: 2, retryDelaySeconds: 60, retryBackoff: true, timeoutSeconds: 600, concurrency: 1 },
  /** The anomaly checks on an account's data after a refresh (agency/alert-job.server.ts). */
  "alert-check": { retryLimit: 2, retryDelaySeconds: 60, retryBackoff: true, timeoutSeconds: 300, concurrency: 1 },
  /** One account's sync (the sync's own module: ads/sync). */
  // SQLite has one writer: one sync at a time there.
  "sync-account": { retryLimit: 2, retryDelaySeconds: 60, retryBackoff: true, timeoutSeconds: 2 * 3600, concurrency: { postgres: 2, sqlite: 1 } },
  /** Plans which accounts are due for a refresh and queues their syncs (the sync's scheduler). */
  "sync-scheduler-tick": { retryLimit: 0, retryDelaySeconds: 0, retryBackoff: false, timeoutSeconds: 120, concurrency: 1, cron: "* * * * *" },
} satisfies Record<string, QueueSettings>;

export type QueueName = keyof typeof queues;
export const QUEUES: Record<QueueName, QueueSettings> = queues;

export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];

export function queueSettings(name: QueueName): QueueSettings {
  return QUEUES[name];
}

/** When attempt `retryCount + 1` may start after a failure (pg-boss's formula, for the SQLite back end). */
export function retryDelayMs(settings: Pick<QueueSettings, "retryDelaySeconds" | "retryBackoff">, retryCount: number): number {
  if (!settings.retryBackoff) return settings.retryDelaySeconds * 1000;
  const base = (Math.max(1, settings.retryDelaySeconds) * 2 ** Math.min(16, retryCount + 1)) / 2;
  return Math.round((base + base * Math.random()) * 1000);
}
