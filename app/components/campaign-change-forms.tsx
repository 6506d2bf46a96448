import { Form } from "react-router";
import { KEYWORD_MATCH_TYPES, KEYWORD_MAX_CHARS, KEYWORD_MAX_WORDS } from "~/lib/ad-limits";
import { formatEnum } from "~/lib/format";
import { FieldError, FormError, Labeled, dangerButtonClass, inputClass, secondaryButtonClass, useFormErrors, usePostAction } from "./change-forms";

// The campaign screens' change forms. Each one only proposes: the next page is
// the review, where Google's validation is shown and Apply sends it.

const errorProps = (id: string, message: string | undefined) =>
  message ? { "aria-invalid": true as const, "aria-describedby": id } : {};

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
  const { formError, errors, values } = useFormErrors("budget");
  const postAction = usePostAction();
  const message = errors.amount ?? errors.campaignId ?? formError ?? undefined;
  if (budgetMicros === null) return null;
  return (
    <Form method="post" action={postAction} aria-label="Change daily budget" preventScrollReset noValidate className="flex flex-wrap items-start gap-2">
      <input type="hidden" name="intent" value="budget" />
      <input type="hidden" name="campaignId" value={campaignId} />
      <label className="flex flex-col text-xs font-medium text-gray-600">
        Daily budget ({currency})
        <input
          name="amount"
          inputMode="decimal"
          defaultValue={values.amount?.[0] ?? units(budgetMicros)}
          className={`mt-0.5 w-32 ${inputClass}`}
          {...errorProps("budget-error", message)}
        />
        <FieldError id="budget-error" message={message} />
      </label>
      <button type="submit" className={`${secondaryButtonClass} mt-4`}>
        Review budget change
      </button>
    </Form>
  );
}

/** The "set max. CPC" part of a bulk bar (keywords, ad groups). */
export function BidField({ intents = ["bid", "pause", "enable", "remove"], currency }: { intents?: string[]; currency: string }) {
  const { errors } = useFormErrors(...intents);
  return (
    <span className="flex flex-col">
      <span className="flex items-end gap-2">
        <label className="flex flex-col text-xs font-medium text-gray-600">
          Max. CPC ({currency})
          <input name="cpc" inputMode="decimal" className={`mt-0.5 w-24 ${inputClass}`} {...errorProps("bid-error", errors.cpc)} />
        </label>
        <button type="submit" name="intent" value="bid" className={secondaryButtonClass}>
          Set max. CPC
        </button>
      </span>
      <FieldError id="bid-error" message={errors.cpc} />
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

function MatchTypeSelect({ id, defaultValue = "PHRASE", error }: { id: string; defaultValue?: string; error?: string }) {
  return (
    <Labeled label="Match type">
      {(controlId) => (
        <>
          <select id={controlId} name="matchType" defaultValue={defaultValue} className={`mt-0.5 ${inputClass}`} {...errorProps(id, error)}>
            {KEYWORD_MATCH_TYPES.map((m) => (
              <option key={m} value={m}>
                {formatEnum(m)}
              </option>
            ))}
          </select>
          <FieldError id={id} message={error} />
        </>
      )}
    </Labeled>
  );
}

function AdGroupSelect({
  id,
  options,
  error,
  name = "adGroupId",
  placeholder,
  value,
}: {
  id: string;
  options: Array<{ id: string; name: string }>;
  error?: string;
  name?: string;
  /** An empty first choice ("Choose an ad group…"): the person must pick one, nothing is preselected. */
  placeholder?: string;
  /** The choice submitted last time, so a refused form comes back as it was. */
  value?: string;
}) {
  return (
    <Labeled label="Ad group">
      {(controlId) => (
        <>
          <select
            id={controlId}
            name={name}
            required={placeholder !== undefined}
            defaultValue={value ?? (placeholder !== undefined ? "" : undefined)}
            className={`mt-0.5 max-w-xs ${inputClass}`}
            {...errorProps(id, error)}
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
          <FieldError id={id} message={error} />
        </>
      )}
    </Labeled>
  );
}

const KEYWORD_HINT = `One per line, at most ${KEYWORD_MAX_CHARS} characters and ${KEYWORD_MAX_WORDS} words each. [exact] and "phrase" set the match type of a line.`;

export function AddKeywordsForm({ adGroups, currency }: { adGroups: Array<{ id: string; name: string }>; currency: string }) {
  const { formError, errors, values } = useFormErrors("add_keywords");
  const postAction = usePostAction();
  const fieldless = formError && Object.keys(errors).length === 0 ? formError : null;
  if (adGroups.length === 0) return null;
  return (
    <Form method="post" action={postAction} aria-label="Add keywords" preventScrollReset noValidate className="rounded-xl border border-gray-200 bg-white p-4 shadow-sm">
      <h3 className="mb-3 font-semibold text-gray-900">Add keywords</h3>
      <FormError message={fieldless} />
      <input type="hidden" name="intent" value="add_keywords" />
      <div className="flex flex-col gap-3">
        <AdGroupSelect
          id="add-keywords-adgroup-error"
          options={adGroups}
          error={errors.adGroupId}
          placeholder="Choose an ad group…"
          value={values.adGroupId?.[0]}
        />
        <label className="flex flex-col text-xs font-medium text-gray-600">
          Keywords
          <textarea name="keywords" rows={4} defaultValue={values.keywords?.[0]} className={`mt-0.5 ${inputClass}`} aria-describedby="add-keywords-hint" {...errorProps("add-keywords-error", errors.keywords)} />
          <span id="add-keywords-hint" className="mt-1 font-normal text-gray-500">
            {KEYWORD_HINT}
          </span>
          <FieldError id="add-keywords-error" message={errors.keywords} />
        </label>
        <div className="flex flex-wrap items-start gap-3">
          <MatchTypeSelect id="add-keywords-match-error" error={errors.matchType} />
          <label className="flex flex-col text-xs font-medium text-gray-600">
            Max. CPC ({currency}, optional)
            <input name="cpc" inputMode="decimal" className={`mt-0.5 w-28 ${inputClass}`} {...errorProps("add-keywords-cpc-error", errors.cpc)} />
            <FieldError id="add-keywords-cpc-error" message={errors.cpc} />
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
  const { formError, errors, values } = useFormErrors("add_negatives");
  const postAction = usePostAction();
  const fieldless = formError && Object.keys(errors).length === 0 ? formError : null;
  return (
    <Form method="post" action={postAction} aria-label="Add negative keywords" preventScrollReset noValidate className="rounded-xl border border-gray-200 bg-white p-4 shadow-sm">
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
        {adGroups.length > 0 ? <AdGroupSelect id="add-negatives-adgroup-error" options={adGroups} error={errors.parentId} /> : null}
        <label className="flex flex-col text-xs font-medium text-gray-600">
          Negative keywords
          <textarea name="keywords" rows={4} defaultValue={values.keywords?.[0]} className={`mt-0.5 ${inputClass}`} aria-describedby="add-negatives-hint" {...errorProps("add-negatives-error", errors.keywords)} />
          <span id="add-negatives-hint" className="mt-1 font-normal text-gray-500">
            {KEYWORD_HINT}
          </span>
          <FieldError id="add-negatives-error" message={errors.keywords} />
        </label>
        <MatchTypeSelect id="add-negatives-match-error" error={errors.matchType} />
        <div>
          <button type="submit" className={secondaryButtonClass}>
            Review negative keywords
          </button>
        </div>
      </div>
    </Form>
  );
}

/** The search-terms bar's controls: add the ticked terms as keywords or as negatives. */
export function SearchTermActions({ currency }: { currency: string }) {
  const { errors } = useFormErrors("term_keywords", "term_negatives");
  return (
    <>
      <MatchTypeSelect id="terms-match-error" defaultValue="EXACT" error={errors.matchType} />
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
