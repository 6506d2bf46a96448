import type { Kysely } from "kysely";

// Issue 14, target 6: an account's first sync is staged (ADR 013, amendment
// "staged first sync"). Stage 1 switches in everything the dashboard and the
// campaign list need; stage 2 imports the three large daily tables (keyword,
// ad and search-term performance) right after. These columns say where that
// detail import stands, so the screens and the API can say "still importing"
// instead of showing missing rows as zeros:
//   detail_status  null (never staged, or an account synced before this
//                  migration: complete whenever last_success_at is set),
//                  "running", "ok" or "failed"
//   detail_step    what a running detail import is doing, e.g. "Loading keyword performance"
//   detail_done    detail steps finished (of DETAIL_STEP_COUNT)
//   detail_error   why it failed, naming the step; the stage-1 data stays
// The run that owns the import is the row's run_id, and its heartbeat is the
// row's heartbeat_at, so the existing staleness rule covers a crashed stage 2.
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable("ads_sync_state").addColumn("detail_status", "text").execute();
  await db.schema.alterTable("ads_sync_state").addColumn("detail_step", "text").execute();
  await db.schema
    .alterTable("ads_sync_state")
    .addColumn("detail_done", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("ads_sync_state").addColumn("detail_error", "text").execute();
}

export async function down(db: Kysely<unknown>) {
  for (const column of ["detail_error", "detail_done", "detail_step", "detail_status"]) {
    await db.schema.alterTable("ads_sync_state").dropColumn(column).execute();
  }
}
