import { diffFields, fieldName, type FieldDiff } from "~/lib/change-fields";
import { formatMoney } from "~/lib/format";
import { getDb } from "../db/db.server";
import { OPEN_CHANGE_SET_STATUSES, type ChangeSetOrigin, type ChangeSetStatus } from "../db/schema";
import { proposerOf } from "./origin.server";
import { getConfig } from "../env.server";
import { ConflictError, DomainError, NotFoundError } from "../domain-errors.server";
import { syncAccount } from "../ads/sync.server";
import { applyChangeSet, isRevertable, validateChangeSet, type ApplyOptions, type ChangeSetDetail } from "./pipeline.server";
import { largeMoves, moveOf, startingValue, valuesInForce } from "./large-moves.server";
import { isPermanentRemoval } from "./removals.server";
import { errorMessage, log } from "../log.server";

/** A change set as the review page and the API show it. */
export interface ChangeSetView {
  id: string;
  customerId: string;
  title: string;
  status: ChangeSetStatus;
  source: string;
  sourceDetail: string | null;
  /** The person who proposed it (or "Recommendation"/"Rule"/"Assistant"). */
  proposedBy: string;
  /** Where it was proposed. */
  origin: ChangeSetOrigin;
  /** The chat whose assistant proposed it (its title as the chat list shows it), else null. */
  chat: { id: string; title: string } | null;
  /** The person who pressed Apply (email), once someone did. */
  approvedBy: string | null;
  atomic: boolean;
  needsConfirmation: boolean;
  confirmPercent: number;
  /** Campaigns, ad groups and ads this set removes: permanent at Google, so apply needs confirmRemovals. */
  removals: number;
  createdAt: string;
  validatedAt: string | null;
  approvedAt: string | null;
  appliedAt: string | null;
  error: string | null;
  revertOf: string | null;
  /** The applied change set that undid this one, if any. */
  revertedBy: string | null;
  canApply: boolean;
  canValidate: boolean;
  canDiscard: boolean;
  canRevert: boolean;
  counts: { total: number; valid: number; invalid: number; applied: number; failed: number };
  changes: ChangeView[];
}

export interface ChangeView {
  id: string;
  resourceKind: string;
  operation: string;
  resourceName: string | null;
  label: string;
  status: string;
  /** Google's error code ("RangeError.TOO_LOW") and reason, when refused or failed. */
  errorCode: string | null;
  errorMessage: string | null;
  fieldPath: string | null;
  /** Budget or bid moves beyond CHANGE_CONFIRM_PERCENT (from the value in force when the item had none of its own). */
  largeMove: boolean;
  /** A removal Google cannot undo (a campaign, ad group or ad). */
  permanent: boolean;
  fields: FieldDiff[];
  before: unknown;
  after: unknown;
}

const OPEN = OPEN_CHANGE_SET_STATUSES;
const parse = (s: string | null): unknown => (s === null ? null : JSON.parse(s));

export async function changeSetView(detail: ChangeSetDetail, currency: string): Promise<ChangeSetView> {
  const db = getDb();
  const { set, changes } = detail;
  const [user, revertedBy, chat] = await Promise.all([
    db.selectFrom("users").select("email").where("id", "=", set.user_id).executeTakeFirst(),
    db
      .selectFrom("change_sets")
      .select("id")
      .where("revert_of", "=", set.id)
      .where("status", "in", ["applied", "partially_applied", "applying"])
      .executeTakeFirst(),
    set.chat_id
      ? db.selectFrom("chats").select(["id", "title"]).where("id", "=", set.chat_id).where("user_id", "=", set.user_id).executeTakeFirst()
      : Promise.resolve(undefined),
  ]);
  const count = (s: string) => changes.filter((c) => c.status === s).length;
  const moves = changes.map(moveOf);
  const [large, inForce] = await Promise.all([largeMoves(db, set.customer_id, moves), valuesInForce(db, set.customer_id, moves)]);
  return {
    id: set.id,
    customerId: set.customer_id,
    title: set.title,
    status: set.status,
    source: set.source,
    sourceDetail: set.source_detail,
    proposedBy: proposerOf(set, user?.email ?? null),
    origin: set.origin,
    // A chat deleted since still says where the proposal came from.
    chat: set.chat_id ? { id: set.chat_id, title: chat?.title ?? "a deleted chat" } : null,
    // Only the person a change set is for can apply it (approval.server.ts): the approver is its owner.
    approvedBy: set.approved_at ? (user?.email ?? "Deleted user") : null,
    atomic: set.atomic === 1,
    needsConfirmation: set.needs_confirmation === 1,
    confirmPercent: getConfig().CHANGE_CONFIRM_PERCENT,
    removals: changes.filter(isPermanentRemoval).length,
    createdAt: set.created_at,
    validatedAt: set.validated_at,
    approvedAt: set.approved_at,
    appliedAt: set.applied_at,
    error: set.error,
    revertOf: set.revert_of,
    revertedBy: revertedBy?.id ?? null,
    canApply: set.status === "validated",
    canValidate: set.status === "proposed" || set.status === "invalid",
    canDiscard: OPEN.includes(set.status),
    canRevert: isRevertable(set, changes, !!revertedBy),
    counts: { total: changes.length, valid: count("valid"), invalid: count("invalid"), applied: count("applied"), failed: count("failed") },
    changes: changes.map((c, i) => {
      const before = parse(c.before_json);
      const after = parse(c.after_json);
      return {
        id: c.id,
        resourceKind: c.resource_kind,
        operation: c.operation,
        resourceName: c.result_resource_name ?? c.resource_name,
        label: c.label,
        status: c.status,
        errorCode: c.error_code,
        errorMessage: c.error_message,
        fieldPath: c.field_path,
        largeMove: large[i],
        permanent: isPermanentRemoval(c),
        fields: withValuesInForce(diffFields(before, after, currency), moves[i], inForce[i], currency),
        before,
        after,
      };
    }),
  };
}

/** A money field the item had no value of its own for reads "Not set (in force: €1.20)", its change measured from that. */
function withValuesInForce(fields: FieldDiff[], move: ReturnType<typeof moveOf>, inForce: Record<string, unknown>, currency: string): FieldDiff[] {
  return fields.map((f) => {
    const key = Object.keys(move.after ?? {}).find((k) => k.endsWith("Micros") && fieldName(k) === f.field);
    if (!key) return f;
    const from = startingValue(move, key, inForce);
    const own = move.operation === "update" ? move.before?.[key] : undefined;
    const to = move.after?.[key];
    if (typeof from !== "number" || from <= 0 || own === from || typeof to !== "number") return f;
    return { ...f, before: `${f.before ?? "Not set"} (in force: ${formatMoney(from, currency)})`, percent: ((to - from) / from) * 100 };
  });
}

/**
 * Asks Google to check a freshly proposed set. An outage leaves it "proposed"
 * (the review page offers to validate again) rather than losing the proposal.
 */
export async function validateQuietly(userId: string, id: string): Promise<string | null> {
  try {
    await validateChangeSet(userId, id);
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    const message = error instanceof Error ? error.message : String(error);
    log.warn(`Validating change set ${id}: ${message}`);
    return "Google could not be reached to validate these changes; try again in a moment.";
  }
}

/** A proposal the person decided against; it is kept (not deleted) but never applied. */
export async function discardChangeSet(userId: string, id: string): Promise<void> {
  const db = getDb();
  const r = await db
    .updateTable("change_sets")
    .set({ status: "discarded" })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("status", "in", OPEN)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 1) return;
  const set = await db.selectFrom("change_sets").select("status").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  if (!set) throw new NotFoundError("Change set not found");
  throw new ConflictError(`This change set is already ${set.status.replace("_", " ")}`);
}

/** Proposals of this account waiting for the person's review, newest first. */
export async function listOpenChangeSets(userId: string, customerId: string) {
  return getDb()
    .selectFrom("change_sets")
    .select(["id", "title", "status", "created_at"])
    .where("user_id", "=", userId)
    .where("customer_id", "=", customerId)
    .where("status", "in", OPEN)
    .orderBy("created_at", "desc")
    .limit(20)
    .execute();
}

/**
 * The person's Apply. Updates show on the screens at once (read model); what
 * was created is fetched by a background sync, since only Google has its full form.
 */
export async function applyAndRefresh(userId: string, id: string, opts: ApplyOptions): Promise<ChangeSetDetail> {
  const detail = await applyChangeSet(userId, id, opts);
  if (detail.changes.some((c) => c.operation === "create" && c.status === "applied")) {
    syncAccount(userId, detail.set.customer_id).catch((error: unknown) => log.warn(`Sync after applying ${id}: ${errorMessage(error)}`));
  }
  return detail;
}
