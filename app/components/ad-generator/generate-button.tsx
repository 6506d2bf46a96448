// The pieces the seed's generator and the RSA brief share: the mark on a required field, and
// "Generate Ad Copy" with what keeps it disabled and the error its post answered, both right
// under it.

/** After a required field's label; the control's own `required` tells assistive technology. */
export function RequiredMark() {
  return (
    <span aria-hidden="true" className="ml-0.5 text-red-700">
      *
    </span>
  );
}

export function RequiredNote() {
  return (
    <p className="text-xs text-gray-600">
      Fields marked <span className="text-red-700">*</span> are required.
    </p>
  );
}

/** Which required fields are still empty, by their labels. */
export function missingFields(fields: Array<[label: string, value: string]>): string[] {
  return fields.filter(([, value]) => value.trim() === "").map(([label]) => label);
}

/**
 * Generate: disabled while generating or while a required field is empty (the seed's rule; with
 * JavaScript only, since without it the server answers an empty field by that field), saying why.
 */
export function GenerateButton({ hydrated, generating, missing, error }: { hydrated: boolean; generating: boolean; missing: string[]; error?: string | null }) {
  const blocked = hydrated && missing.length > 0 && !generating;
  const describedBy = [blocked ? "generate-why" : null, error ? "generate-error" : null].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <button
        type="submit"
        disabled={hydrated && (generating || missing.length > 0)}
        aria-describedby={describedBy}
        className="w-full rounded-lg bg-blue-600 px-4 py-2.5 font-semibold text-white shadow-sm hover:bg-blue-700 disabled:cursor-not-allowed disabled:opacity-50"
      >
        {generating ? "Generating..." : "Generate Ad Copy"}
      </button>
      {blocked ? (
        <p id="generate-why" className="mt-1 text-xs text-gray-600">
          Fill in {missing.join(" and ")} to generate.
        </p>
      ) : null}
      {error ? (
        <p id="generate-error" role="alert" className="mt-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  );
}
