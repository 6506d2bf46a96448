import type { ChangeSet } from "../db/schema";

// Who or what proposed a change set, in the words every screen and the API use: the review
// page, the Drafts list and history. A change set belongs to the person it was proposed for
// (the one chatting, pressing a recommendation's Apply or filling in a form), and only that
// person can apply it (approval.server.ts), so their email is also who pressed Apply.

/** The proposer: the person's email, or "Recommendation", "Rule" or "Assistant". */
export function proposerOf(set: Pick<ChangeSet, "source" | "recommendation_id">, email: string | null): string {
  if (set.source === "user") return email ?? "Deleted user";
  if (set.source === "rule") return set.recommendation_id ? "Recommendation" : "Rule";
  return "Assistant";
}

/**
 * History's "who": the person as the viewer may see them (their email, or "Another user" of a
 * shared account); a rule's, a recommendation's or the assistant's change names the person who
 * applied it after the proposer.
 */
export function appliedChangeWho(set: Pick<ChangeSet, "source" | "recommendation_id">, person: string): string {
  if (set.source === "user") return person;
  return `${proposerOf(set, null)}, applied by ${person.includes("@") ? person : person.toLowerCase()}`;
}
