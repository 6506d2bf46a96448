// The sync's per-batch reading, in isolation: one searchStream batch of the
// rich demo account's keyword performance (10,000 rows), read the general way
// (JSON.parse, then each row by its plan) and straight from its bytes (the
// batch decoder). CPU per row, alternating, best of several rounds.
//   npx tsx bench/decode.bench.ts
import { createDemoStore, DEMO_RICH_CUSTOMER_ID, executeQuery } from "../emulator/ads";
import { decodeBatch } from "../app/server/ads/sync/batch-decoder.server";
import { readRow } from "../app/server/ads/sync/row-plan.server";
import { parseJsonElement } from "../app/server/ads/stream-json.server";
import { SYNC_STEPS } from "../app/server/ads/sync/streams.server";

const ROWS = 10_000;
const ROUNDS = 7;
const customerId = DEMO_RICH_CUSTOMER_ID;
const store = createDemoStore({ today: "2026-11-22" });
const range = { from: "2026-08-24", to: "2026-11-21" };

for (const table of ["ads_keyword_daily", "ads_search_term_daily", "ads_keywords"] as const) {
  const step = SYNC_STEPS.find((s) => s.table === table)!;
  const result = executeQuery(store, customerId, step.query(range));
  const rows = Array.from({ length: Math.min(ROWS, result.rowCount) }, (_, i) => result.row(i));
  const bytes = Buffer.from(JSON.stringify({ results: rows, fieldMask: "x", requestId: "r" }), "latin1");
  const plan = step.compiled!;
  const general = () => {
    const el = parseJsonElement(bytes) as { results: Record<string, unknown>[] };
    return el.results.map((r) => readRow(plan, r, customerId));
  };
  const decoded = () => decodeBatch(plan, bytes, customerId)!;
  if (JSON.stringify(general()) !== JSON.stringify(decoded())) throw new Error(`${table}: the two ways differ`);
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
  console.log(
    `${table}: ${rows.length} rows, ${Math.round(bytes.length / rows.length)} bytes/row — JSON.parse + rows ${best.general.toFixed(2)} µs/row, decoder ${best.decoded.toFixed(2)} µs/row`,
  );
}
