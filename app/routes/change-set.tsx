import { Form, Link, useNavigation } from "react-router";
import { FieldError, FormError, dangerButtonClass, secondaryButtonClass, type ChangeFormErrors, usePostAction } from "~/components/change-forms";
import { ChangeStatusBadge, FieldDiffList, SetStatusBadge } from "~/components/change-display";
import { ImpactRecordSection } from "~/components/impact";
import { PageHeader, buttonClass } from "~/components/ui";
import type { ReactNode } from "react";
import { REMOVAL_CONFIRM_WORD } from "~/lib/change-actions";
import { ORIGIN_LABEL } from "~/lib/change-origins";
import { formatDateTime } from "~/lib/format";
import { optimizerHref } from "~/lib/optimizer-url";
import { userContext } from "~/server/request-context.server";
import { changeSetAction, changeSetPage } from "~/server/change-pages.server";
import { approvalFromReviewRequest } from "~/server/changes/approval.server";
import type { Route } from "./+types/change-set";

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Review: ${loaderData.changeSet.title} · Ads AI Manager` : "Change set · Ads AI Manager" }];
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  return changeSetPage(user, params.changeSetId);
}

export async function action({ request, params, context, url }: Route.ActionArgs) {
  const session = context.get(userContext);
  const { user } = session;
  // Apply needs the person's approval, minted from this very request (never from a tool or a transcript).
  return changeSetAction(user, params.changeSetId, await request.formData(), () => approvalFromReviewRequest(request, url, session, params.changeSetId));
}

export default function ChangeSetPage({ loaderData, actionData }: Route.ComponentProps) {
  const { changeSet: cs, account } = loaderData;
  const result = actionData as ChangeFormErrors | undefined;
  const navigation = useNavigation();
  const postAction = usePostAction();
  const busy = navigation.state === "submitting";
  const tz = account.timeZone;
  const open = cs.canApply || cs.canValidate || cs.canDiscard;
  return (
    <>
      {/* An open proposal is a draft: back to the drafts; otherwise to the history it is part of. */}
      <Link to={open ? "/drafts" : "/history"} className="mb-3 inline-block text-sm font-medium text-blue-700 hover:underline">
        {open ? "← Drafts" : "← Change history"}
      </Link>
      <PageHeader
        title={cs.title}
        description={`${open ? "Review before it reaches Google" : "Change set"} · ${account.name}`}
        actions={<SetStatusBadge status={cs.status} />}
      />
      <FormError message={result?.formError && !result.errors?.confirmLargeMoves && !result.errors?.confirmRemovals ? result.formError : null} />
      <section aria-label="About this change set" className="mb-4 rounded-xl border border-gray-200 bg-white p-4 text-sm shadow-sm">
        <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Item label="Proposed by" value={cs.proposedBy}>
            <span className="block text-xs font-normal text-gray-600">
              {cs.chat ? (
                <>
                  In the chat{" "}
                  <Link to={optimizerHref("", { chat: cs.chat.id })} className="text-blue-700 hover:underline">
                    “{cs.chat.title}”
                  </Link>
                </>
              ) : cs.origin === "mcp" && cs.sourceDetail ? (
                `${ORIGIN_LABEL.mcp}, ${cs.sourceDetail}`
              ) : (
                ORIGIN_LABEL[cs.origin]
              )}
            </span>
          </Item>
          <Item label="Proposed" value={formatDateTime(cs.createdAt, tz)} />
          <Item
            label={cs.appliedAt ? "Applied" : "Validated by Google"}
            value={cs.appliedAt ? formatDateTime(cs.appliedAt, tz) : cs.validatedAt ? formatDateTime(cs.validatedAt, tz) : "Not yet"}
          />
          <Item label="Mode" value={cs.atomic ? "All or nothing" : "Each change on its own"} />
          {cs.approvedBy ? <Item label="Applied by" value={cs.approvedBy} /> : null}
        </dl>
        {cs.revertOf ? (
          <p className="mt-3">
            This undoes{" "}
            <Link to={`/changes/${cs.revertOf}`} className="font-medium text-blue-700 hover:underline">
              an earlier change set
            </Link>
            .
          </p>
        ) : null}
        {cs.revertedBy ? (
          <p className="mt-3">
            Undone by{" "}
            <Link to={`/changes/${cs.revertedBy}`} className="font-medium text-blue-700 hover:underline">
              a later change set
            </Link>
            .
          </p>
        ) : null}
      </section>
      <Verdict cs={cs} />
      {loaderData.impact ? <ImpactRecordSection record={loaderData.impact} /> : null}
      <section aria-label="Changes" className="relative mb-6 overflow-x-auto rounded-xl border border-gray-200 bg-white shadow-sm">
        <table className="min-w-full divide-y divide-gray-200 text-sm">
          <caption className="sr-only">Changes in this change set</caption>
          <thead className="bg-gray-50">
            <tr>
              <th scope="col" className="px-3 py-2 text-left font-semibold text-gray-700">
                Change
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold text-gray-700">
                Before → after
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold text-gray-700">
                Google
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {cs.changes.map((c) => (
              <tr key={c.id} className={c.status === "invalid" || c.status === "failed" ? "bg-red-50/50" : undefined}>
                <th scope="row" className="px-3 py-2 text-left align-top font-medium text-gray-900">
                  {c.label}
                </th>
                <td className="px-3 py-2 align-top">
                  <FieldDiffList fields={c.fields} largeMove={c.largeMove} />
                  {c.permanent ? <p className="mt-1 text-xs font-semibold text-red-800">Permanent: Google cannot undo a removal.</p> : null}
                </td>
                <td className="px-3 py-2 align-top">
                  <ChangeStatusBadge status={c.status} />
                  {c.errorMessage ? (
                    <p className="mt-1 max-w-md text-xs text-red-800">
                      {c.errorMessage}
                      {c.errorCode ? <span className="ml-1 font-mono text-red-600">({c.errorCode})</span> : null}
                    </p>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {cs.canApply ? (
        <Form method="post" action={postAction} aria-label="Apply" className="mb-4 rounded-xl border border-blue-200 bg-blue-50 p-4">
          <input type="hidden" name="intent" value="apply" />
          <p className="mb-3 text-sm text-blue-900">
            Google accepted {cs.counts.total === 1 ? "this change" : `all ${cs.counts.total} changes`} in a test run. Nothing has changed in your account yet:
            Apply sends {cs.counts.total === 1 ? "it" : "them"} now{cs.atomic && cs.counts.total > 1 ? ", all or nothing" : ""}.
          </p>
          {cs.needsConfirmation ? (
            <div className="mb-3">
              <label className="flex items-start gap-2 text-sm font-medium text-amber-900">
                <input
                  type="checkbox"
                  name="confirmLargeMoves"
                  className="mt-0.5 h-4 w-4"
                  aria-invalid={result?.errors?.confirmLargeMoves ? true : undefined}
                  aria-describedby={result?.errors?.confirmLargeMoves ? "confirm-error" : undefined}
                />
                Yes, apply the large change: a budget or bid moves by more than {cs.confirmPercent}%.
              </label>
              <FieldError id="confirm-error" message={result?.errors?.confirmLargeMoves} />
            </div>
          ) : null}
          {cs.removals > 0 ? (
            <div className="mb-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
              <p className="font-semibold">
                This removes {cs.removals === 1 ? "a campaign, ad group or ad" : `${cs.removals} campaigns, ad groups or ads`}. Removing cannot be undone:
                Google cannot enable a removed one again, and Revert cannot bring it back. Pausing stops it just as well and can be undone.
              </p>
              <label htmlFor="confirm-removals" className="mt-2 block font-medium">
                Type {REMOVAL_CONFIRM_WORD} to confirm the removal
              </label>
              <input
                id="confirm-removals"
                name="confirmRemovals"
                type="text"
                autoComplete="off"
                spellCheck={false}
                className="mt-1 w-full max-w-xs rounded-md border border-red-300 px-3 py-2 text-gray-900"
                aria-invalid={result?.errors?.confirmRemovals ? true : undefined}
                aria-describedby={result?.errors?.confirmRemovals ? "confirm-removals-error" : undefined}
              />
              <FieldError id="confirm-removals-error" message={result?.errors?.confirmRemovals} />
            </div>
          ) : null}
          <button type="submit" className={buttonClass} disabled={busy}>
            Apply
          </button>
        </Form>
      ) : null}
      <div className="flex flex-wrap gap-3">
        {cs.canValidate ? <IntentButton intent="validate" label="Validate with Google again" action={postAction} disabled={busy} /> : null}
        {cs.canDiscard ? <IntentButton intent="discard" label="Discard" action={postAction} disabled={busy} /> : null}
        {cs.canRevert ? <IntentButton intent="revert" label="Revert" action={postAction} disabled={busy} danger /> : null}
      </div>
    </>
  );
}

/** A one-button form: the review page's secondary actions. */
function IntentButton({
  intent,
  label,
  action,
  disabled,
  danger = false,
}: {
  intent: string;
  label: string;
  action: string;
  disabled: boolean;
  danger?: boolean;
}) {
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="intent" value={intent} />
      <button type="submit" className={danger ? dangerButtonClass : secondaryButtonClass} disabled={disabled}>
        {label}
      </button>
    </Form>
  );
}

function Item({ label, value, children }: { label: string; value: string; children?: ReactNode }) {
  return (
    <div>
      <dt className="text-gray-500">{label}</dt>
      <dd className="mt-0.5 font-medium text-gray-900">
        {value}
        {children}
      </dd>
    </div>
  );
}

function Verdict({ cs }: { cs: Route.ComponentProps["loaderData"]["changeSet"] }) {
  const { counts } = cs;
  let text: string | null = null;
  let tone = "bg-gray-50 text-gray-800";
  switch (cs.status) {
    case "proposed":
      text = "Not validated yet: Google has not checked these changes. Validate them before applying.";
      tone = "bg-amber-50 text-amber-900";
      break;
    case "validated":
      text = `Google validated ${counts.total === 1 ? "the change" : `all ${counts.total} changes`}.`;
      tone = "bg-green-50 text-green-900";
      break;
    case "invalid":
      text = `Google refused ${counts.invalid} of ${counts.total} changes; nothing was applied. Fix the input and propose again, or discard this set.`;
      tone = "bg-red-50 text-red-900";
      break;
    case "applying":
      text =
        "Settling with Google… The outcome of these changes is being confirmed from Google's live state, retried in the background until Google answers. Reload this page to see it.";
      tone = "bg-amber-50 text-amber-900";
      break;
    case "applied":
      text = `Applied at Google: ${counts.applied} ${counts.applied === 1 ? "change" : "changes"}.`;
      tone = "bg-green-50 text-green-900";
      break;
    case "partially_applied":
      text = `${counts.applied} of ${counts.total} changes applied; ${counts.failed} failed (Google's reason is next to each).`;
      tone = "bg-amber-50 text-amber-900";
      break;
    case "failed":
      text = "Nothing was applied; Google's reason is next to each change.";
      tone = "bg-red-50 text-red-900";
      break;
    case "discarded":
      text = "Discarded: nothing was sent to Google.";
      break;
  }
  return (
    <p role="status" className={`mb-4 rounded-md px-3 py-2 text-sm ${tone}`}>
      {text}
    </p>
  );
}
