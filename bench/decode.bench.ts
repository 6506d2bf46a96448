// The sync's per-batch reading, in isolation (issue 26 point 7: is hand-written decoding still worth it?).
// For every stream with a row plan: one searchStream batch of the rich demo account (up to 10,000 rows)
// read two ways, CPU per row, alternating, best of several rounds:
//   general  JSON.parse, then zod (the step's schema) and toRow: every stream without a plan, and a batch the
//            decoder leaves alone;
//   decoder  straight from the batch's bytes (batch-decoder.server.ts), what the sync uses for a plain batch.
// The last columns weigh the decoder's saving by the stream's rows in the 100,000-keyword backfill.
//   npx tsx bench/decode.bench.ts
import { createDemoStore, DEMO_RICH_CUSTOMER_ID, executeQuery } from "../emulator/ads";
import { decodeBatch } from "../app/server/ads/sync/batch-decoder.server";
import { parseJsonElement } from "../app/server/ads/stream-json.server";
import { SYNC_STEPS } from "../app/server/ads/sync/streams.server";

const ROWS = 10_000;
const ROUNDS = 7;
const customerId = DEMO_RICH_CUSTOMER_ID;
const store = createDemoStore({ today: "2026-11-22" });
const range = { from: "2026-08-24", to: "2026-11-21" };
/** Rows per table in the 100,000-keyword backfill (README, the sync benchmark's per-step counts). */
const BACKFILL_ROWS: Record<string, number> = {
  ads_campaign_daily: 18_000,
  ads_ad_group_daily: 152_000,
  ads_keywords: 100_000,
  ads_keyword_daily: 453_415,
  ads_ad_daily: 152_000,
  ads_search_term_daily: 175_749,
};

console.log("| stream | rows | bytes/row | general µs/row | decoder µs/row | decoder vs general | backfill rows | saved on the backfill |");
console.log("|---|---|---|---|---|---|---|---|");
for (const step of SYNC_STEPS.filter((s) => s.compiled)) {
  const table = step.table;
  const result = executeQuery(store, customerId, step.query(range));
  const rows = Array.from({ length: Math.min(ROWS, result.rowCount) }, (_, i) => result.row(i));
  const bytes = Buffer.from(JSON.stringify({ results: rows, fieldMask: "x", requestId: "r" }), "latin1");
  const plan = step.compiled!;
  const general = () => {
    const el = parseJsonElement(bytes) as { results: Record<string, unknown>[] };
    return el.results.map((r) => {
      const row = step.toRow(step.schema.parse(r), customerId) as Record<string, unknown>;
      return plan.columns.map((c) => row[c] ?? null);
    });
  };
  const decoded = () => decodeBatch(plan, bytes, customerId)!;
  if (JSON.stringify(general()) !== JSON.stringify(decoded())) throw new Error(`${table}: the general way and the decoder differ`);
  const best = { general: Infinity, decoded: Infinity };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, fn] of [
      ["general", general],
      ["decoded", decoded],
    ] as const) {
      const t0 = process.hrtime.bigint();
      for (let k = 0; k < 5; k++) fn();
      const us = Number(process.hrtime.bigint() - t0) / 1000 / (5 * rows.length);
      best[name] = Math.min(best[name], us);
    }
  }
  const saving = 1 - best.decoded / best.general;
  const backfill = BACKFILL_ROWS[table] ?? 0;
  console.log(
    `| ${table} | ${rows.length} | ${Math.round(bytes.length / rows.length)} | ${best.general.toFixed(2)} | ${best.decoded.toFixed(2)} | ` +
      `${Math.round(saving * 100)} % less | ${backfill.toLocaleString("en-US")} | ${(((best.general - best.decoded) * backfill) / 1e6).toFixed(2)} s |`,
  );
}
