import type { Change, ChangeResourceKind } from "../db/schema";
import { ConflictError } from "../domain-errors.server";

/**
 * Removing a campaign, an ad group or an ad is final at Google: a removed one
 * cannot be enabled again, and Revert cannot bring it back. Such a change
 * applies only with the person's explicit confirmation, typed on the review
 * page (REMOVAL_CONFIRM_WORD) or `confirmRemovals: true` in the API. Keywords
 * and negatives are not in this list: a revert re-creates them.
 */
const PERMANENT: ChangeResourceKind[] = ["campaign", "ad_group", "ad"];

export const isPermanentRemoval = (c: Pick<Change, "operation" | "resource_kind">) => c.operation === "remove" && PERMANENT.includes(c.resource_kind);

export function refuseUnconfirmedRemovals(changes: Array<Pick<Change, "operation" | "resource_kind">>, confirmed: boolean | undefined) {
  const n = changes.filter(isPermanentRemoval).length;
  if (n === 0 || confirmed) return;
  const message = `This removes ${n === 1 ? "a campaign, ad group or ad" : `${n} campaigns, ad groups or ads`} for good: removing cannot be undone, not even by Revert. Confirm the removal to apply it, or discard the set and pause instead.`;
  throw new ConflictError(message, { confirmRemovals: message });
}
