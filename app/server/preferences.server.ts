import type { z } from "zod";
import { getDb } from "./db/db.server";

/**
 * A person's screen preferences, one JSON value per name, read through a zod
 * schema: a value written by an older version that no longer parses counts as
 * unset (the screen's default), never as an error.
 */
export async function getPreference<S extends z.ZodType>(userId: string, name: string, schema: S): Promise<z.output<S> | null> {
  const row = await getDb().selectFrom("user_preferences").select("value").where("user_id", "=", userId).where("name", "=", name).executeTakeFirst();
  if (!row) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(row.value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function setPreference(userId: string, name: string, value: unknown): Promise<void> {
  const json = JSON.stringify(value);
  const now = new Date().toISOString();
  await getDb()
    .insertInto("user_preferences")
    .values({ user_id: userId, name, value: json, updated_at: now })
    .onConflict((oc) => oc.columns(["user_id", "name"]).doUpdateSet({ value: json, updated_at: now }))
    .execute();
}
