import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { ChangeOperation, ChangeResourceKind, ChangeSetSource, Database } from "../../app/server/db/schema";

/**
 * Test support: a change set as the pipeline leaves it once Google applied it
 * (status "applied", each change with its resource name), at a chosen time.
 * Impact tests need changes applied weeks ago, which no test can wait for.
 */
export interface AppliedChange {
  kind: ChangeResourceKind;
  operation: ChangeOperation;
  /** The resource (for a create, the one Google named). */
  resourceName: string;
  label?: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

export async function recordAppliedChangeSet(
  db: Kysely<Database>,
  opts: {
    /** Default: a random UUID. */
    id?: string;
    userId: string;
    customerId: string;
    title: string;
    appliedAt: string;
    source?: ChangeSetSource;
    recommendationId?: string | null;
    revertOf?: string | null;
    changes: AppliedChange[];
  },
): Promise<string> {
  const id = opts.id ?? randomUUID();
  await db
    .insertInto("change_sets")
    .values({
      id,
      user_id: opts.userId,
      customer_id: opts.customerId,
      source: opts.source ?? "user",
      source_detail: null,
      title: opts.title,
      status: "applied",
      atomic: 1,
      needs_confirmation: 0,
      revert_of: opts.revertOf ?? null,
      created_at: opts.appliedAt,
      validated_at: opts.appliedAt,
      approved_at: opts.appliedAt,
      applied_at: opts.appliedAt,
      error: null,
      recommendation_id: opts.recommendationId ?? null,
    })
    .execute();
  await db
    .insertInto("changes")
    .values(
      opts.changes.map((c, seq) => ({
        id: randomUUID(),
        change_set_id: id,
        seq,
        resource_kind: c.kind,
        operation: c.operation,
        resource_name: c.operation === "create" ? null : c.resourceName,
        label: c.label ?? opts.title,
        before_json: c.before === undefined || c.before === null ? null : JSON.stringify(c.before),
        after_json: c.after === undefined || c.after === null ? null : JSON.stringify(c.after),
        operation_json: JSON.stringify(
          c.operation === "create" ? { create: {} } : c.operation === "remove" ? { remove: c.resourceName } : { update: { resourceName: c.resourceName } },
        ),
        status: "applied" as const,
        error_code: null,
        error_message: null,
        field_path: null,
        result_resource_name: c.operation === "create" ? c.resourceName : null,
        request_id: null,
        applied_at: opts.appliedAt,
      })),
    )
    .execute();
  return id;
}
