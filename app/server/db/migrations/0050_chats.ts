import type { Kysely } from "kysely";

// The assistant's conversations, one per user and Google Ads account. Messages
// are stored in the AI SDK's UIMessage form (parts as JSON text), so a chat
// reloads exactly as it was shown, tool results and evidence included. Tokens
// are kept per assistant message for the monthly total in /settings; user_id
// and created_at on messages serve the per-user daily message limit.

export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable("chats")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("chats_user_idx").on("chats").columns(["user_id", "customer_id", "updated_at"]).execute();

  await db.schema
    .createTable("chat_messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("chat_id", "text", (c) => c.notNull().references("chats.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("parts_json", "text", (c) => c.notNull())
    .addColumn("metadata_json", "text")
    .addColumn("input_tokens", "integer")
    .addColumn("output_tokens", "integer")
    .addColumn("total_tokens", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("chat_messages_chat_seq_uq", ["chat_id", "seq"])
    .execute();
  await db.schema.createIndex("chat_messages_user_idx").on("chat_messages").columns(["user_id", "role", "created_at"]).execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable("chat_messages").execute();
  await db.schema.dropTable("chats").execute();
}
