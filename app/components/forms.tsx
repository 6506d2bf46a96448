import { useForm } from "@conform-to/react";
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
  options: { id: string; lastResult?: FormResult | null },
) {
  return useForm({
    id: options.id,
    lastResult: options.lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseSubmission(formData, schema),
  });
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
