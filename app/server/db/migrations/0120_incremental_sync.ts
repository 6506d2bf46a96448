import type { Kysely } from "kysely";

// Issue 26: after an account's first sync (the backfill), refreshes read only
// what can have changed (sync/refresh.server.ts, ADR 021). What a refresh needs
// to know about the last one:
//   changes_since      the instant (ISO) the last successful sync started reading:
//                      the next refresh asks change_status for changes from there on
//   structure_read_at  when every entity table was last read whole (at most a day
//                      apart: change_status does not report what Google changes itself)
//   refresh_kind       what the last successful sync was: "full" or "incremental"
//   refresh_operations Google Ads API operations the last sync spent (the scheduler's estimate)
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable("ads_sync_state").addColumn("changes_since", "text").execute();
  await db.schema.alterTable("ads_sync_state").addColumn("structure_read_at", "text").execute();
  await db.schema.alterTable("ads_sync_state").addColumn("refresh_kind", "text").execute();
  await db.schema.alterTable("ads_sync_state").addColumn("refresh_operations", "integer").execute();
}

export async function down(db: Kysely<unknown>) {
  for (const column of ["refresh_operations", "refresh_kind", "structure_read_at", "changes_since"]) {
    await db.schema.alterTable("ads_sync_state").dropColumn(column).execute();
  }
}
