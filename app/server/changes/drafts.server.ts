import { sql } from "kysely";
import { z } from "zod";
import { containsPattern } from "../ads/metric-sql.server";
import { getDb } from "../db/db.server";
import type { ChangeSetOrigin, ChangeSetStatus } from "../db/schema";
import { invalidInput, NotFoundError } from "../domain-errors.server";
import { CHANGE_SET_ORIGINS } from "~/lib/change-origins";
import { proposerOf } from "./origin.server";

// Drafts (issue 29 point 4): the change sets proposed but neither applied nor discarded, from
// wherever they came (the chat, the ad generator, a recommendation, the campaign screens'
// ticked rows, the API, a Revert), so a proposal left on its review page is not lost. Listed
// with who or what proposed it, when, and Google's verdict from the dry run; discarded in bulk.

/** A draft's statuses: its dry run is still to come (proposed), passed (validated) or refused (invalid). */
export const DRAFT_STATUSES = ["proposed", "validated", "invalid"] as const satisfies readonly ChangeSetStatus[];
export const DRAFTS_PAGE_SIZE = 50;
/** How many drafts one bulk discard takes. */
export const MAX_DISCARD = 200;

export const DraftsQuery = z.object({
  customerId: z
    .string()
    .regex(/^\d{10}$/, "Customer ID must be 10 digits")
    .optional()
    .describe("One of the caller's accounts; all of them when left out"),
  origin: z
    .enum(CHANGE_SET_ORIGINS, { error: `origin must be one of ${CHANGE_SET_ORIGINS.join(", ")}` })
    .optional()
    .describe("Where it was proposed"),
  status: z
    .enum(DRAFT_STATUSES, { error: `status must be one of ${DRAFT_STATUSES.join(", ")}` })
    .optional()
    .describe("Google's verdict: validated (accepted in the dry run), invalid (refused), proposed (not checked yet)"),
  q: z.string().trim().max(200, "Keep the search under 200 characters").optional().describe("Words in the title"),
  page: z.coerce.number({ error: "page must be a number" }).int().min(1).max(10_000).default(1),
});
export type DraftsFilters = z.input<typeof DraftsQuery>;

export interface DraftItem {
  id: string;
  customerId: string;
  title: string;
  status: (typeof DRAFT_STATUSES)[number];
  /** The person's email, or "Recommendation", "Rule" or "Assistant". */
  proposedBy: string;
  origin: ChangeSetOrigin;
  chat: { id: string; title: string } | null;
  recommendationId: string | null;
  revertOf: string | null;
  createdAt: string;
  validatedAt: string | null;
  changeCount: number;
  refusedCount: number;
  /** Google's verdict in a sentence. */
  verdict: string;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

function verdictOf(status: DraftItem["status"], changes: number, refused: number, error: string | null): string {
  if (status === "validated") return changes === 1 ? "Google accepted the change in a dry run" : `Google accepted all ${changes} changes in a dry run`;
  if (status === "invalid") return `Google refused ${refused} of ${plural(changes, "change")}`;
  // Back to "proposed" after Apply found the values changed at Google: that reason is the verdict.
  return error ?? "Not checked by Google yet";
}

async function accountsOf(userId: string, customerId: string | undefined): Promise<string[]> {
  const accounts = (await getDb().selectFrom("ads_accounts").select("customer_id").where("user_id", "=", userId).execute()).map((a) => a.customer_id);
  if (customerId && !accounts.includes(customerId)) throw new NotFoundError("Account not found", { customerId: "Account not found" });
  return customerId ? [customerId] : accounts;
}

/** The caller's drafts, newest first, a page at a time. */
export async function listDrafts(userId: string, filters: DraftsFilters = {}): Promise<{ drafts: DraftItem[]; total: number }> {
  const parsed = DraftsQuery.safeParse(filters);
  if (!parsed.success) throw invalidInput(parsed.error);
  const f = parsed.data;
  const customers = await accountsOf(userId, f.customerId);
  if (customers.length === 0) return { drafts: [], total: 0 };
  const db = getDb();
  let base = db
    .selectFrom("change_sets as cs")
    .where("cs.user_id", "=", userId)
    .where("cs.customer_id", "in", customers)
    .where("cs.status", "in", f.status ? [f.status] : DRAFT_STATUSES);
  if (f.origin) base = base.where("cs.origin", "=", f.origin);
  if (f.q) base = base.where(sql<boolean>`lower(${sql.ref("cs.title")}) LIKE ${containsPattern(f.q)} ESCAPE '!'`);
  const [{ total }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
    base
      .leftJoin("users as u", "u.id", "cs.user_id")
      .leftJoin("chats as ch", (j) => j.onRef("ch.id", "=", "cs.chat_id").onRef("ch.user_id", "=", "cs.user_id"))
      .select([
        "cs.id",
        "cs.customer_id",
        "cs.title",
        "cs.status",
        "cs.source",
        "cs.recommendation_id",
        "cs.origin",
        "cs.chat_id",
        "cs.revert_of",
        "cs.created_at",
        "cs.validated_at",
        "cs.error",
        "u.email",
        "ch.title as chat_title",
      ])
      .orderBy("cs.created_at", "desc")
      .orderBy("cs.id")
      .limit(DRAFTS_PAGE_SIZE)
      .offset((f.page - 1) * DRAFTS_PAGE_SIZE)
      .execute(),
  ]);
  const counts = new Map<string, { changes: number; refused: number }>();
  if (rows.length > 0) {
    for (const c of await db
      .selectFrom("changes")
      .select(["change_set_id", (eb) => eb.fn.countAll<number>().as("n"), sql<number>`sum(case when status = 'invalid' then 1 else 0 end)`.as("refused")])
      .where(
        "change_set_id",
        "in",
        rows.map((r) => r.id),
      )
      .groupBy("change_set_id")
      .execute()) {
      counts.set(c.change_set_id, { changes: Number(c.n), refused: Number(c.refused) });
    }
  }
  const drafts = rows.map((r): DraftItem => {
    const status = r.status as DraftItem["status"];
    const { changes, refused } = counts.get(r.id) ?? { changes: 0, refused: 0 };
    return {
      id: r.id,
      customerId: r.customer_id,
      title: r.title,
      status,
      proposedBy: proposerOf(r, r.email),
      origin: r.origin,
      chat: r.chat_id ? { id: r.chat_id, title: r.chat_title ?? "a deleted chat" } : null,
      recommendationId: r.recommendation_id,
      revertOf: r.revert_of,
      createdAt: r.created_at,
      validatedAt: r.validated_at,
      changeCount: changes,
      refusedCount: refused,
      verdict: verdictOf(status, changes, refused, r.error),
    };
  });
  return { drafts, total: Number(total) };
}

/** How many drafts wait in one account: the navigation's count. */
export async function countDrafts(userId: string, customerId: string): Promise<number> {
  const row = await getDb()
    .selectFrom("change_sets")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .where("customer_id", "=", customerId)
    .where("status", "in", DRAFT_STATUSES)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const DiscardDraftsBody = z.object({
  ids: z
    .array(z.uuid("Each id must be a change set id"), { error: "ids must be a list of change set ids" })
    .min(1, "Choose at least one draft to discard")
    .max(MAX_DISCARD, `Discard at most ${MAX_DISCARD} drafts at a time`),
});

export interface DiscardOutcome {
  /** Discarded now: kept for the record as "discarded", never sent to Google. */
  discarded: string[];
  /** Left as they were, with why (applied or discarded meanwhile, or no such draft of the caller's). */
  notDiscarded: Array<{ id: string; reason: string }>;
}

/**
 * Discards the caller's drafts among `ids` in one statement, guarded by their status, so a set
 * being applied at the same moment is never discarded under the apply (and never both).
 */
export async function discardDrafts(userId: string, ids: string[]): Promise<DiscardOutcome> {
  const parsed = DiscardDraftsBody.safeParse({ ids });
  if (!parsed.success) throw invalidInput(parsed.error);
  const wanted = [...new Set(parsed.data.ids)];
  const db = getDb();
  const discarded = (
    await db
      .updateTable("change_sets")
      .set({ status: "discarded" })
      .where("user_id", "=", userId)
      .where("id", "in", wanted)
      .where("status", "in", DRAFT_STATUSES)
      .returning("id")
      .execute()
  ).map((r) => r.id);
  const done = new Set(discarded);
  const rest = wanted.filter((id) => !done.has(id));
  const states = new Map(
    rest.length
      ? (await db.selectFrom("change_sets").select(["id", "status"]).where("user_id", "=", userId).where("id", "in", rest).execute()).map((r) => [
          r.id,
          r.status,
        ])
      : [],
  );
  return {
    discarded: wanted.filter((id) => done.has(id)),
    notDiscarded: rest.map((id) => {
      const status = states.get(id);
      return { id, reason: status ? `Already ${status.replace("_", " ")}` : "No such draft among yours" };
    }),
  };
}
