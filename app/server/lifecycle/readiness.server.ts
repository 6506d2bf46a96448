import { Migrator } from "kysely";
import { pingDb, type DB } from "../db/db.server";
import { migrations } from "../db/migrations";
import { errorMessage } from "../log.server";

/**
 * Readiness (`/readyz`): may this instance take traffic? Unlike `/healthz`
 * (the process is up), it is false while the database is unreachable, while a
 * migration this build carries is not applied, while the job engine is not
 * running, and (server.ts) from the moment shutdown begins, so a proxy or an
 * orchestrator sends requests elsewhere. Each failed check says why, in words
 * an operator can act on.
 */
export type CheckResult = { ok: true } | { ok: false; reason: string };

export interface ReadinessCheck {
  name: string;
  run: () => Promise<CheckResult> | CheckResult;
}

export interface Readiness {
  ready: boolean;
  /** Every failed check's reason, "database: …; jobs: …"; null when ready. */
  reason: string | null;
  checks: Record<string, "ok" | string>;
}

/** A check that hangs (a PostgreSQL that accepts connections but never answers) fails after this. */
const CHECK_TIMEOUT_MS = 3_000;

async function bounded(check: ReadinessCheck): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: `no answer within ${CHECK_TIMEOUT_MS / 1000} s` }), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([Promise.resolve().then(check.run), timeout]);
  } catch (error) {
    return { ok: false, reason: errorMessage(error) };
  } finally {
    clearTimeout(timer);
  }
}

export async function checkReadiness(checks: ReadinessCheck[]): Promise<Readiness> {
  const results = await Promise.all(checks.map(async (check) => [check.name, await bounded(check)] as const));
  const failed = results.filter(([, r]) => !r.ok).map(([name, r]) => `${name}: ${(r as { reason: string }).reason}`);
  return {
    ready: failed.length === 0,
    reason: failed.length ? failed.join("; ") : null,
    checks: Object.fromEntries(results.map(([name, r]) => [name, r.ok ? "ok" : r.reason])),
  };
}

/** The database answers, and has every migration this build carries (another instance may still be migrating it). */
export function databaseChecks(db: DB): ReadinessCheck[] {
  return [
    {
      name: "database",
      run: async () => {
        await pingDb(db);
        return { ok: true };
      },
    },
    {
      name: "migrations",
      run: async () => {
        const found = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).getMigrations();
        const pending = found.filter((m) => !m.executedAt).map((m) => m.name);
        if (pending.length === 0) return { ok: true };
        const names = pending.slice(0, 3).join(", ") + (pending.length > 3 ? ` and ${pending.length - 3} more` : "");
        return { ok: false, reason: `${pending.length} not applied: ${names}` };
      },
    },
  ];
}
