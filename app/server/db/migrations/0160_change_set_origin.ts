import { sql, type Kysely } from "kysely";

// Issue 29 point 4: drafts with a home. A change set records where it was proposed, so the
// Drafts list can say it and the API can filter by it, and which chat proposed it, so the
// review page can link to the chat instead of printing "chat:<id>":
//   origin   "chat" (the assistant), "ad_generator", "recommendation" (its Apply), "campaign"
//            (the campaign screens' forms, ticked rows included), "api" (POST
//            /accounts/{id}/change-sets) or "revert" (a Revert of an applied set)
//   chat_id  the chats.id of an assistant's proposal, else null
// Sets proposed before this migration are filled in from what they recorded: revert_of, the
// source, "chat:<id>" in source_detail, "Ad generator (…)" in source_detail. Earlier API
// proposals recorded nothing that tells them from the forms' and are listed as "campaign".
export async function up(db: Kysely<unknown>) {
  await db.schema
    .alterTable("change_sets")
    .addColumn("origin", "text", (c) => c.notNull().defaultTo("campaign"))
    .execute();
  await db.schema.alterTable("change_sets").addColumn("chat_id", "text").execute();
  await sql`UPDATE change_sets SET origin = 'recommendation' WHERE source = 'rule'`.execute(db);
  await sql`UPDATE change_sets SET origin = 'ad_generator' WHERE source = 'user' AND source_detail LIKE 'Ad generator%'`.execute(db);
  await sql`UPDATE change_sets SET origin = 'chat', chat_id = substr(source_detail, 6) WHERE source = 'assistant' AND source_detail LIKE 'chat:%'`.execute(db);
  await sql`UPDATE change_sets SET origin = 'chat' WHERE source = 'assistant'`.execute(db);
  await sql`UPDATE change_sets SET origin = 'revert' WHERE revert_of IS NOT NULL`.execute(db);
  // The Drafts list and the navigation's count: one account's open sets, newest first.
  await db.schema.createIndex("change_sets_open_idx").on("change_sets").columns(["user_id", "customer_id", "status", "created_at"]).execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropIndex("change_sets_open_idx").ifExists().execute();
  await db.schema.alterTable("change_sets").dropColumn("chat_id").execute();
  await db.schema.alterTable("change_sets").dropColumn("origin").execute();
}
