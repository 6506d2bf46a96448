import { parse, useForm, type DefaultValue } from "@conform-to/react";
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import type { z } from "zod";
import type { FormResult } from "~/lib/form-result";
import { parseSubmission } from "~/lib/form-submission";

/**
 * A form checked in the browser by the zod schema its action parses with
 * (Conform, after the Epic Stack's forms): a field is checked when it loses
 * focus, then again as it is typed in; Submit checks everything and focuses the
 * first invalid field instead of sending. Without JavaScript the action's
 * answer (`lastResult`) is what renders the same messages.
 */
export function useSchemaForm<S extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(
  schema: S,
  options: { id: string; lastResult?: FormResult | null; defaultValue?: DefaultValue<z.input<S>> },
) {
  return useForm({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseSubmission(formData, schema),
  });
}

/**
 * The same for a form whose action reads it with its own function over its
 * schema (`check`: field → message, or null when the form is good), so the
 * browser words each message exactly as the action does.
 */
export function useCheckedForm(check: (formData: FormData) => Record<string, string> | null, options: { id: string; lastResult?: FormResult | null }) {
  return useForm<Record<string, string>>({
    id: options.id,
    lastResult: options.lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) =>
      parse(formData, {
        resolve: () => {
          const errors = check(formData);
          return errors ? { error: Object.fromEntries(Object.entries(errors).map(([name, message]) => [name, [message]])) } : { value: {} };
        },
      }),
  });
}

/** An action's messages by field as Conform's reply, so the form shows them as its own (and focuses the first). */
export function errorsAsResult(errors: Record<string, string> | undefined): FormResult | undefined {
  if (!errors || Object.keys(errors).length === 0) return undefined;
  return { status: "error", error: Object.fromEntries(Object.entries(errors).map(([name, message]) => [name, [message]])) };
}

type FieldLike = { errorId: string; errors?: string[] };

/** aria-invalid and aria-describedby for a control: its error (when it has one) and any hint. */
export function errorAria(field: FieldLike, hintId?: string) {
  const invalid = !!field.errors?.length;
  const describedBy = [invalid ? field.errorId : null, hintId].filter(Boolean).join(" ");
  return { "aria-invalid": invalid ? (true as const) : undefined, "aria-describedby": describedBy || undefined };
}

/** A field's first message, in the element its control's aria-describedby names. */
export function FieldMessage({ field, className = "mt-1 text-xs font-medium text-red-700" }: { field: FieldLike; className?: string }) {
  const message = field.errors?.[0];
  if (!message) return null;
  return (
    <p id={field.errorId} role="alert" className={className}>
      {message}
    </p>
  );
}

/** A server's message for one field (a form without Conform: the action's errors by name), shaped like Conform's field. */
export function serverField(name: string, message: string | undefined): FieldLike {
  return { errorId: `${name}-error`, errors: message ? [message] : undefined };
}

export const fieldClass =
  "mt-1 block w-full rounded-lg border border-gray-300 px-3 py-2 shadow-sm focus:border-blue-500 focus:outline-none focus:ring-1 focus:ring-blue-500 aria-[invalid=true]:border-red-600";

type Control =
  | ({ as?: "input" } & InputHTMLAttributes<HTMLInputElement>)
  | ({ as: "textarea" } & TextareaHTMLAttributes<HTMLTextAreaElement>)
  | ({ as: "select" } & SelectHTMLAttributes<HTMLSelectElement>);

/**
 * One labelled form field: the label, the control (input, textarea or select,
 * its other props passed through), an optional hint and the field's error —
 * Conform's field, or serverField() for an action's message — linked to the
 * control with aria-invalid and aria-describedby (error first, then hint).
 */
export function Field({
  id,
  label,
  field,
  hint,
  className,
  ...control
}: {
  id: string;
  label: ReactNode;
  field: FieldLike;
  hint?: ReactNode;
  /** The wrapper's class (the control always has fieldClass). */
  className?: string;
} & Control) {
  const hintId = hint ? `${id}-hint` : undefined;
  const shared = { id, name: control.name ?? id, className: fieldClass, ...errorAria(field, hintId) };
  let input: ReactNode;
  if (control.as === "textarea") {
    const { as: _as, ...rest } = control;
    input = <textarea {...rest} {...shared} />;
  } else if (control.as === "select") {
    const { as: _as, ...rest } = control;
    input = <select {...rest} {...shared} />;
  } else {
    const { as: _as, ...rest } = control;
    input = <input {...rest} {...shared} />;
  }
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      {input}
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-gray-500">
          {hint}
        </p>
      ) : null}
      <FieldMessage field={field} />
    </div>
  );
}
