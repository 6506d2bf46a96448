import { useEffect, useId, useState, type ReactNode } from "react";
import { Form, useActionData, useLocation, useNavigation } from "react-router";
import { FormProvider } from "@conform-to/react";
import { bulkBarErrors } from "~/lib/change-form-schemas";
import { firstErrors, type FormResult } from "~/lib/form-result";
import { currentPath } from "~/lib/query";
import { useHydrated } from "~/lib/use-hydrated";
import { useCheckedForm } from "./forms";

/**
 * Where this page's POST forms send to: the page itself, query kept (tab,
 * range) but never a ?token= from the sign-in redirect, which a form's
 * default action would copy into the page.
 */
export function usePostAction(): string {
  const { pathname, search } = useLocation();
  return currentPath(pathname, search);
}

/** What a change form's action answers when the input is refused: Conform's reply (messages by the form's own field names, what was typed). */
export interface ChangeFormReply {
  intent?: string;
  result?: FormResult;
}

/** The reply to the last submission, if it came from a form with one of these intents (for Conform's lastResult). */
export function useChangeFormResult(...intents: string[]): FormResult | undefined {
  const data = useActionData() as ChangeFormReply | undefined;
  return data?.intent && intents.includes(data.intent) ? data.result : undefined;
}

/** The same reply as one message per field, for the forms that are only buttons and a selection. */
export function useFormErrors(...intents: string[]): { formError: string | null; errors: Record<string, string> } {
  const { "": formError = null, ...errors } = firstErrors(useChangeFormResult(...intents));
  return { formError, errors };
}

/** What the change-set page's buttons answer when refused (no fields of their own). */
export interface ChangeFormErrors {
  formError?: string;
  errors?: Record<string, string>;
}

export function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 text-xs font-medium text-red-700">
      {message}
    </p>
  );
}

/** A form-level refusal that no single field owns (e.g. "Ad group not found in this account"). */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="mb-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  );
}

export const inputClass = "rounded-md border border-gray-300 px-2 py-1 text-sm text-gray-900 aria-[invalid=true]:border-red-600";
export const secondaryButtonClass =
  "rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm font-semibold text-gray-700 hover:bg-gray-50 disabled:cursor-not-allowed disabled:opacity-50";
export const dangerButtonClass =
  "rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-semibold text-red-700 hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-50";

/** The row checkbox of a selectable table; it belongs to the table's bulk form by `form=`. */
export function SelectBox({ form, name = "id", value, label }: { form: string; name?: string; value: string; label: string }) {
  return <input type="checkbox" form={form} name={name} value={value} aria-label={label} className="h-4 w-4 rounded border-gray-300" />;
}

/** Ticks or clears every row checkbox of a bulk form (JavaScript only; without it each row is ticked by hand). */
export function SelectAll({ form, label }: { form: string; label: string }) {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <input
      type="checkbox"
      aria-label={label}
      className="h-4 w-4 rounded border-gray-300"
      onChange={(e) => {
        for (const box of document.querySelectorAll<HTMLInputElement>(`input[type=checkbox][form="${form}"]`)) box.checked = e.currentTarget.checked;
        // Setting .checked fires no event: tell the bulk bar its selection changed.
        document.dispatchEvent(new Event(SELECTION_EVENT));
      }}
    />
  );
}

const SELECTION_EVENT = "bulk-selection-change";

/**
 * How many rows of a bulk form are ticked, kept current with JavaScript; null
 * before hydration and without JavaScript (the server then refuses an empty
 * selection with "Choose at least one item").
 */
export function useSelectedCount(formId: string): number | null {
  const hydrated = useHydrated();
  const location = useLocation();
  const [count, setCount] = useState(0);
  useEffect(() => {
    const recount = () => setCount(document.querySelectorAll(`input[type=checkbox][form="${formId}"]:checked`).length);
    recount();
    document.addEventListener("change", recount);
    document.addEventListener(SELECTION_EVENT, recount);
    return () => {
      document.removeEventListener("change", recount);
      document.removeEventListener(SELECTION_EVENT, recount);
    };
    // Another page of rows (sort, filter, paging) keeps the bar but not the ticks.
  }, [formId, location.key]);
  return hydrated ? count : null;
}

/**
 * The bar above a selectable table: its buttons act on the ticked rows. Each
 * button only proposes; nothing reaches Google before the review's Apply.
 * With JavaScript the buttons stay disabled until a row is ticked.
 */
export function BulkBar({
  id,
  label,
  hidden,
  intents,
  children,
}: {
  id: string;
  label: string;
  hidden: Record<string, string>;
  /** Which action results belong to this bar. */
  intents: string[];
  children: ReactNode;
}) {
  const { formError, errors } = useFormErrors(...intents);
  const [form] = useCheckedForm(bulkBarErrors, { id, lastResult: useChangeFormResult(...intents) });
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const action = usePostAction();
  const selectionError = errors.id ?? errors.term;
  const selected = useSelectedCount(id);
  const fieldless = formError && Object.keys(errors).length === 0 ? formError : null;
  return (
    <Form
      method="post"
      action={action}
      id={form.id}
      onSubmit={form.onSubmit}
      noValidate
      aria-label={label}
      preventScrollReset
      className="mb-3 rounded-lg border border-gray-200 bg-gray-50 px-3 py-2"
    >
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <fieldset disabled={busy || selected === 0} className="flex flex-wrap items-end gap-2 text-sm">
        <legend className="sr-only">{label}</legend>
        <span className="self-center text-gray-600" data-testid="selection-count">
          {selected === null ? "With selected:" : selected === 0 ? "Tick rows to act on them:" : `With ${selected} selected:`}
        </span>
        {/* The controls inside (BidField) read their messages from this form. */}
        <FormProvider context={form.context}>{children}</FormProvider>
      </fieldset>
      <FieldError id={`${id}-selection-error`} message={selectionError ?? fieldless} />
    </Form>
  );
}

/**
 * A label above its control, tied by id rather than by wrapping: a wrapping
 * label would make a select's options part of its accessible name.
 */
export function Labeled({ label, className = "", children }: { label: ReactNode; className?: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className={`flex flex-col text-xs font-medium text-gray-600 ${className}`}>
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}

/** A list screen's filter in the address: a labelled select whose first option is "no filter". */
export function FilterSelect({
  label,
  name,
  value,
  any,
  options,
}: {
  label: string;
  name: string;
  value: string | undefined;
  /** The first option's text, e.g. "Any status". */
  any: string;
  options: Array<[value: string, label: string]>;
}) {
  return (
    <Labeled label={label}>
      {(id) => (
        <select id={id} name={name} defaultValue={value ?? ""} className={`mt-0.5 ${inputClass}`}>
          <option value="">{any}</option>
          {options.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      )}
    </Labeled>
  );
}
