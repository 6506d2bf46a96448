import { Form } from "react-router";
import { KEYWORD_MATCH_TYPES, KEYWORD_MAX_CHARS, KEYWORD_MAX_WORDS } from "~/lib/ad-limits";
import { formatEnum } from "~/lib/format";
import { useField, type FieldMetadata } from "@conform-to/react";
import {
  AddKeywordsForm as AddKeywordsFormSchema,
  AddNegativesForm as AddNegativesFormSchema,
  BudgetForm as BudgetFormSchema,
} from "~/lib/change-form-schemas";
import {
  FieldError,
  FormError,
  Labeled,
  dangerButtonClass,
  inputClass,
  secondaryButtonClass,
  useChangeFormResult,
  useFormErrors,
  usePostAction,
} from "./change-forms";
import { errorAria, FieldMessage, useSchemaForm } from "./forms";

// The campaign screens' change forms. Each one only proposes: the next page is
// the review, where Google's validation is shown and Apply sends it.

/** Micros → "12.50" for an input's default value. */
const units = (micros: number | null) => (micros === null ? "" : (micros / 1_000_000).toFixed(2));

export function CampaignStatusButtons({ campaignId, status }: { campaignId: string; status: string }) {
  const { formError } = useFormErrors("pause", "enable", "remove");
  const postAction = usePostAction();
  if (status === "REMOVED") return null;
  return (
    <Form method="post" action={postAction} aria-label="Campaign status" preventScrollReset className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="kind" value="campaign" />
      <input type="hidden" name="id" value={campaignId} />
      {status === "PAUSED" ? (
        <button type="submit" name="intent" value="enable" className={secondaryButtonClass}>
          Enable campaign
        </button>
      ) : (
        <button type="submit" name="intent" value="pause" className={secondaryButtonClass}>
          Pause campaign
        </button>
      )}
      <button type="submit" name="intent" value="remove" className={dangerButtonClass}>
        Remove campaign
      </button>
      <FieldError id="campaign-status-error" message={formError} />
    </Form>
  );
}

export function BudgetForm({ campaignId, budgetMicros, currency }: { campaignId: string; budgetMicros: number | null; currency: string }) {
  const [form, fields] = useSchemaForm(BudgetFormSchema, { id: "budget-form", lastResult: useChangeFormResult("budget") });
  const postAction = usePostAction();
  // A refusal that is not the amount's (the campaign's, Google's) still shows under the one box.
  const amount = fields.amount.errors?.length ? fields.amount : { errorId: fields.amount.errorId, errors: fields.campaignId.errors ?? form.errors };
  if (budgetMicros === null) return null;
  return (
    <Form
      method="post"
      action={postAction}
      id={form.id}
      onSubmit={form.onSubmit}
      aria-label="Change daily budget"
      preventScrollReset
      noValidate
      className="flex flex-wrap items-start gap-2"
    >
      <input type="hidden" name="intent" value="budget" />
      <input type="hidden" name="campaignId" value={campaignId} />
      <label className="flex flex-col text-xs font-medium text-gray-600">
        Daily budget ({currency})
        <input
          id={fields.amount.id}
          name={fields.amount.name}
          inputMode="decimal"
          key={fields.amount.key}
          defaultValue={typeof fields.amount.initialValue === "string" ? fields.amount.initialValue : units(budgetMicros)}
          className={`mt-0.5 w-32 ${inputClass}`}
          {...errorAria(amount)}
        />
        <FieldMessage field={amount} />
      </label>
      <button type="submit" className={`${secondaryButtonClass} mt-4`}>
        Review budget change
      </button>
    </Form>
  );
}

/** The "set max. CPC" part of a bulk bar (keywords, ad groups); its messages come from the bar's form. */
export function BidField({ currency }: { currency: string }) {
  const [cpc] = useField<string>("cpc");
  return (
    <span className="flex flex-col">
      <span className="flex items-end gap-2">
        <label className="flex flex-col text-xs font-medium text-gray-600">
          Max. CPC ({currency})
          <input name={cpc.name} inputMode="decimal" className={`mt-0.5 w-24 ${inputClass}`} {...errorAria(cpc)} />
        </label>
        <button type="submit" name="intent" value="bid" className={secondaryButtonClass}>
          Set max. CPC
        </button>
      </span>
      <FieldMessage field={cpc} />
    </span>
  );
}

export function StatusButtons() {
  return (
    <>
      <button type="submit" name="intent" value="pause" className={secondaryButtonClass}>
        Pause selected
      </button>
      <button type="submit" name="intent" value="enable" className={secondaryButtonClass}>
        Enable selected
      </button>
      <button type="submit" name="intent" value="remove" className={dangerButtonClass}>
        Remove selected
      </button>
    </>
  );
}

/** A control's name, its messages and what was typed last time: a Conform field, or the same shape built by hand. */
type ControlField = { name: string; errorId: string; errors?: string[]; initialValue?: unknown; key?: string };

function MatchTypeSelect({ field, defaultValue = "PHRASE" }: { field: ControlField; defaultValue?: string }) {
  return (
    <Labeled label="Match type">
      {(controlId) => (
        <>
          <select
            id={controlId}
            name={field.name}
            key={field.key}
            defaultValue={initial(field) ?? defaultValue}
            className={`mt-0.5 ${inputClass}`}
            {...errorAria(field)}
          >
            {KEYWORD_MATCH_TYPES.map((m) => (
              <option key={m} value={m}>
                {formatEnum(m)}
              </option>
            ))}
          </select>
          <FieldMessage field={field} />
        </>
      )}
    </Labeled>
  );
}

function AdGroupSelect({
  field,
  options,
  placeholder,
}: {
  field: ControlField;
  options: Array<{ id: string; name: string }>;
  /** An empty first choice ("Choose an ad group…"): the person must pick one, nothing is preselected. */
  placeholder?: string;
}) {
  return (
    <Labeled label="Ad group">
      {(controlId) => (
        <>
          <select
            id={controlId}
            name={field.name}
            key={field.key}
            required={placeholder !== undefined}
            // The choice submitted last time, so a refused form comes back as it was.
            defaultValue={initial(field) ?? (placeholder !== undefined ? "" : undefined)}
            className={`mt-0.5 max-w-xs ${inputClass}`}
            {...errorAria(field)}
          >
            {placeholder !== undefined ? (
              <option value="" disabled>
                {placeholder}
              </option>
            ) : null}
            {options.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
          <FieldMessage field={field} />
        </>
      )}
    </Labeled>
  );
}

const KEYWORD_HINT = `One per line, at most ${KEYWORD_MAX_CHARS} characters and ${KEYWORD_MAX_WORDS} words each. [exact] and "phrase" set the match type of a line.`;

export function AddKeywordsForm({ adGroups, currency }: { adGroups: Array<{ id: string; name: string }>; currency: string }) {
  const [form, fields] = useSchemaForm(AddKeywordsFormSchema, { id: "add-keywords", lastResult: useChangeFormResult("add_keywords") });
  const postAction = usePostAction();
  const fieldless = form.errors?.length && Object.keys(form.allErrors).length === 1 ? form.errors[0] : null;
  if (adGroups.length === 0) return null;
  return (
    <Form
      method="post"
      action={postAction}
      id={form.id}
      onSubmit={form.onSubmit}
      aria-label="Add keywords"
      preventScrollReset
      noValidate
      className="rounded-xl border border-gray-200 bg-white p-4 shadow-sm"
    >
      <h3 className="mb-3 font-semibold text-gray-900">Add keywords</h3>
      <FormError message={fieldless} />
      <input type="hidden" name="intent" value="add_keywords" />
      <div className="flex flex-col gap-3">
        <AdGroupSelect field={fields.adGroupId} options={adGroups} placeholder="Choose an ad group…" />
        <KeywordsBox label="Keywords" field={fields.keywords} />
        <div className="flex flex-wrap items-start gap-3">
          <MatchTypeSelect field={fields.matchType} />
          <label className="flex flex-col text-xs font-medium text-gray-600">
            Max. CPC ({currency}, optional)
            <input
              id={fields.cpc.id}
              name={fields.cpc.name}
              key={fields.cpc.key}
              defaultValue={initial(fields.cpc)}
              inputMode="decimal"
              className={`mt-0.5 w-28 ${inputClass}`}
              {...errorAria(fields.cpc)}
            />
            <FieldMessage field={fields.cpc} />
          </label>
        </div>
        <div>
          <button type="submit" className={secondaryButtonClass}>
            Review new keywords
          </button>
        </div>
      </div>
    </Form>
  );
}

export function AddNegativesForm({ campaignId, adGroups }: { campaignId: string; adGroups: Array<{ id: string; name: string }> }) {
  const lastResult = useChangeFormResult("add_negatives");
  const [form, fields] = useSchemaForm(AddNegativesFormSchema, { id: "add-negatives", lastResult });
  const postAction = usePostAction();
  // The parent (campaign or ad group) is the server's to check: its message comes by the form's field name.
  const parentId = { errorId: `${form.id}-parent-error`, errors: lastResult?.error?.parentId ?? undefined };
  const fieldless = form.errors?.length && Object.keys(form.allErrors).length === 1 ? form.errors[0] : null;
  return (
    <Form
      method="post"
      action={postAction}
      id={form.id}
      onSubmit={form.onSubmit}
      aria-label="Add negative keywords"
      preventScrollReset
      noValidate
      className="rounded-xl border border-gray-200 bg-white p-4 shadow-sm"
    >
      <h3 className="mb-3 font-semibold text-gray-900">Add negative keywords</h3>
      <FormError message={fieldless} />
      <input type="hidden" name="intent" value="add_negatives" />
      <input type="hidden" name="campaignId" value={campaignId} />
      <div className="flex flex-col gap-3">
        <fieldset className="text-xs font-medium text-gray-600">
          <legend>Exclude in</legend>
          <div className="mt-1 flex flex-wrap items-center gap-4 text-sm font-normal text-gray-800">
            <label className="flex items-center gap-1">
              <input type="radio" name="level" value="campaign" defaultChecked /> The whole campaign
            </label>
            <label className="flex items-center gap-1">
              <input type="radio" name="level" value="ad_group" /> One ad group:
            </label>
          </div>
        </fieldset>
        {adGroups.length > 0 ? <AdGroupSelect field={{ ...parentId, name: "adGroupId" }} options={adGroups} /> : null}
        <KeywordsBox label="Negative keywords" field={fields.keywords} />
        <MatchTypeSelect field={fields.matchType} />
        <div>
          <button type="submit" className={secondaryButtonClass}>
            Review negative keywords
          </button>
        </div>
      </div>
    </Form>
  );
}

/** What was typed last time (from the action's reply), for an uncontrolled control's defaultValue. */
const initial = (field: { initialValue?: unknown }) => (typeof field.initialValue === "string" ? field.initialValue : undefined);

function KeywordsBox({ label, field }: { label: string; field: FieldMetadata<string | undefined> }) {
  const hintId = `${field.id}-hint`;
  return (
    <label className="flex flex-col text-xs font-medium text-gray-600">
      {label}
      <textarea
        id={field.id}
        name={field.name}
        key={field.key}
        rows={4}
        defaultValue={initial(field)}
        className={`mt-0.5 ${inputClass}`}
        {...errorAria(field, hintId)}
      />
      <span id={hintId} className="mt-1 font-normal text-gray-500">
        {KEYWORD_HINT}
      </span>
      <FieldMessage field={field} />
    </label>
  );
}

/** The search-terms bar's controls: add the ticked terms as keywords or as negatives. */
export function SearchTermActions({ currency }: { currency: string }) {
  const { errors } = useFormErrors("term_keywords", "term_negatives");
  return (
    <>
      <MatchTypeSelect
        field={{ name: "matchType", errorId: "terms-match-error", errors: errors.matchType ? [errors.matchType] : undefined }}
        defaultValue="EXACT"
      />
      <button type="submit" name="intent" value="term_keywords" className={secondaryButtonClass}>
        Add as keywords
      </button>
      <Labeled label="Exclude in">
        {(id) => (
          <select id={id} name="level" defaultValue="campaign" className={`mt-0.5 ${inputClass}`}>
            <option value="campaign">The campaign</option>
            <option value="ad_group">Their ad group</option>
          </select>
        )}
      </Labeled>
      <button type="submit" name="intent" value="term_negatives" className={secondaryButtonClass}>
        Add as negatives
      </button>
      <span className="sr-only">Keywords get the ad group default bid ({currency}).</span>
    </>
  );
}
