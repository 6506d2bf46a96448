import { addDays, type DateRange } from "~/lib/dates";
import type { AdsClient } from "../client.server";
import type { ReplaceScopes } from "./bulk-insert.server";
import { ENTITY_TABLES, planEntityReads, readChanges, type TableRead } from "./changes.server";
import { SYNC_STEPS, type AnyStep, type StagedTable } from "./streams.server";

/**
 * An incremental refresh (ADR 021): after an account's first sync, a refresh
 * reads only what can have changed.
 * - Daily metrics of the days still moving: the last `lookbackDays` days (the
 *   conversion-lag window) and any day after the last refresh's data; they
 *   replace those days. Days that fell out of the 90-day window are deleted,
 *   not re-read; older days are kept as they are.
 * - Entities that changed since the last refresh, found with change_status;
 *   every entity table read whole at most a day apart (what Google changes
 *   itself, such as quality scores, serving and approval status, asset labels,
 *   is not in change_status).
 */

/** Every entity table is read whole when the last whole read is this old. */
export const STRUCTURE_EVERY_MS = 24 * 3_600_000;

/** One stream to read: a step over a range, narrowed by a filter when only some entities changed. */
export interface ReadTask {
  step: AnyStep;
  range: DateRange;
  filter?: string;
}

/** What the account's sync state says about the data in the tables (0120). */
export interface LastSync {
  dataFrom: string | null;
  dataTo: string | null;
  /** When the last successful sync started reading: changes are read from there. */
  changesSince: string | null;
  structureReadAt: string | null;
}

export interface RefreshPlan {
  tasks: ReadTask[];
  /** The tables read, in the order the tasks write them. */
  tables: StagedTable[];
  /** Which rows of each table the staged rows replace. */
  scopes: ReplaceScopes;
  /** The first day whose metrics are re-read. */
  metricsFrom: string;
  /** Every entity table is read whole. */
  structural: boolean;
  /** change_status rows read (0 for a structural refresh, which does not ask). */
  changes: number;
}

/** Whether the last sync left what a refresh needs; otherwise the sync reads everything. */
export function canRefresh(last: LastSync): boolean {
  return last.dataFrom !== null && last.dataTo !== null && last.changesSince !== null && last.structureReadAt !== null;
}

/** The first day to re-read: the days still moving and every day after the last data, never before the window. */
export function firstMovingDay(range: DateRange, last: LastSync, lookbackDays: number): string {
  const moving = addDays(range.to, -(lookbackDays - 1));
  const afterLast = last.dataTo ? addDays(last.dataTo, 1) : range.from;
  const from = afterLast < moving ? afterLast : moving;
  // Days before the kept data's start (a clock set back) are not there to keep: read the window whole.
  if (last.dataFrom === null || last.dataFrom > range.from) return range.from;
  return from < range.from ? range.from : from;
}

/**
 * Plans the refresh of an account whose last sync left `last`: asks change_status what changed
 * (one operation) unless every entity table is due for a whole read anyway.
 */
export async function planRefresh(opts: {
  client: AdsClient;
  customerId: string;
  loginCustomerId: string | undefined;
  timeZone: string;
  now: Date;
  range: DateRange;
  last: LastSync;
  lookbackDays: number;
}): Promise<RefreshPlan> {
  const { now, range, last } = opts;
  const metricsFrom = firstMovingDay(range, last, opts.lookbackDays);
  let structural = last.structureReadAt === null || now.getTime() - Date.parse(last.structureReadAt) >= STRUCTURE_EVERY_MS;
  let reads = new Map<StagedTable, TableRead>();
  let changes = 0;
  if (!structural) {
    const found = await readChanges(opts.client, opts.customerId, opts.loginCustomerId, opts.timeZone, new Date(last.changesSince!), now);
    changes = found.rows;
    // More changes than one page holds: read everything rather than guess which.
    structural = found.overflow;
    reads = planEntityReads(found);
  }
  if (structural) reads = new Map(ENTITY_TABLES.map((t) => [t, { kind: "whole" } as TableRead]));

  const tasks: ReadTask[] = [];
  const scopes: Record<string, ReplaceScopes[string]> = {};
  const metricsRange = { from: metricsFrom, to: range.to };
  for (const step of SYNC_STEPS) {
    if (step.daily) {
      tasks.push({ step, range: metricsRange });
      scopes[step.table] = { kind: "days", keepFrom: range.from, from: metricsFrom };
      continue;
    }
    const read = reads.get(step.table);
    if (!read) continue;
    if (read.kind === "whole") {
      tasks.push({ step, range });
      scopes[step.table] = { kind: "all" };
    } else {
      for (const filter of read.filters) tasks.push({ step, range, filter });
      scopes[step.table] = { kind: "keys", columns: read.key };
    }
  }
  const tables = [...new Set(tasks.map((t) => t.step.table))];
  return { tasks, tables, scopes, metricsFrom, structural, changes };
}
