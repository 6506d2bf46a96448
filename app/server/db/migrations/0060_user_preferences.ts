import type { Kysely } from "kysely";

// Per-user screen preferences (for now: which columns the campaigns table
// shows). Kept on the server, not in localStorage, so they follow the person
// to another browser and work without JavaScript. `value` is JSON text.
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("user_preferences")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("user_preferences_pk", ["user_id", "name"])
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("user_preferences").execute();
}
