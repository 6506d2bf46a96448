import { useState } from "react";
import toast from "react-hot-toast";
import { Form, Link, useNavigation } from "react-router";
import { FieldError, FormError } from "~/components/change-forms";
import { adTextWidth, estimateStrength, lintRsa, type LintIssue } from "~/lib/ad-lint";
import type { GeneratorErrorAt } from "~/lib/ad-generator-form";
import { BUSINESS_TYPE_NOUN, type BusinessType } from "~/lib/business-type";
import { DESCRIPTION_MAX, DESCRIPTION_PINS, HEADLINE_MAX, HEADLINE_PINS, PATH_MAX, RSA_DESCRIPTIONS_MAX, RSA_HEADLINES_MAX } from "~/lib/ad-limits";
import { useHydrated } from "~/lib/use-hydrated";
import type { AdGroupOption, BriefValues } from "./brief-form";

export interface ResultLine {
  text: string;
  pinnedField?: string;
}
export interface RsaResultData {
  id: string;
  headlines: ResultLine[];
  descriptions: ResultLine[];
  path1: string;
  path2: string;
  source: "model" | "templates";
  notices: string[];
  claimSources: string[];
  business: { type: BusinessType; chosen: boolean; basis: string[] };
}

type Kind = "headline" | "description";
const pad = (lines: ResultLine[], n: number) => [...lines, ...Array.from({ length: Math.max(0, n - lines.length) }, () => ({ text: "" }))];

async function copyText(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(`Copied ${what}`);
  } catch (error) {
    console.warn(error);
    toast.error("Could not copy to the clipboard");
  }
}

/** The ad as text for pasting elsewhere (Ads Editor, a document). */
function asText(h: ResultLine[], d: ResultLine[], path1: string, path2: string) {
  const used = (l: ResultLine[]) => l.filter((x) => x.text.trim());
  return [
    "Headlines",
    ...used(h).map((x) => x.text),
    "",
    "Descriptions",
    ...used(d).map((x) => x.text),
    ...(path1 ? ["", `Path: /${path1}${path2 ? `/${path2}` : ""}`] : []),
  ].join("\n");
}

function Issues({ issues, id }: { issues: LintIssue[]; id: string }) {
  if (issues.length === 0) return null;
  return (
    <ul id={id} className="mt-0.5 space-y-0.5">
      {issues.map((i, n) => (
        <li key={n} className={`text-xs ${i.severity === "error" ? "font-medium text-red-700" : "text-amber-800"}`}>
          {i.severity === "error" ? "✗ " : "⚠ "}
          {i.message}
        </li>
      ))}
    </ul>
  );
}

/**
 * The generated RSA: every line editable, with its live width count and the gate's verdict as
 * you type; copy one line or all; regenerate one line; Use in campaign (→ a change set and its
 * review page). Regenerate and Use in campaign are form posts, so they work without JavaScript.
 */
export function RsaResult({
  result,
  values,
  errors,
  formError,
  errorAt,
  adGroups,
  connected,
}: {
  result: RsaResultData;
  values: BriefValues;
  errors: Record<string, string>;
  formError?: string;
  /** Which button's post formError answers: it shows next to that button. */
  errorAt?: GeneratorErrorAt;
  adGroups: AdGroupOption[];
  connected: boolean;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [headlines, setHeadlines] = useState(() => pad(result.headlines, RSA_HEADLINES_MAX));
  const [descriptions, setDescriptions] = useState(() => pad(result.descriptions, RSA_DESCRIPTIONS_MAX));
  const [path1, setPath1] = useState(result.path1);
  const [path2, setPath2] = useState(result.path2);
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errorFor = (at: GeneratorErrorAt) => (formError && errorAt === at ? formError : null);
  const pending = busy ? navigation.formData?.get("regenerate") : null;

  // The gate on what is on screen now: filled lines only (an empty optional slot is not an asset).
  const filled = (lines: ResultLine[]) => lines.map((l, i) => ({ ...l, i })).filter((l) => l.text.trim() !== "");
  const fh = filled(headlines);
  const fd = filled(descriptions);
  const lint = lintRsa({ headlines: fh, descriptions: fd, path1, path2 }, { claimSources: result.claimSources });
  const issuesOf = (kind: Kind, slot: number) => {
    const list = kind === "headline" ? fh : fd;
    const at = list.findIndex((l) => l.i === slot);
    return at < 0 ? [] : (kind === "headline" ? lint.headlines : lint.descriptions)[at];
  };
  const strength = estimateStrength(
    { headlines: fh, descriptions: fd },
    values.keywords.split(/\r?\n/).filter((k) => k.trim()),
  );
  const errorCount = [...lint.headlines, ...lint.descriptions, lint.path1, lint.path2, lint.ad].flat().filter((i) => i.severity === "error").length;

  const setLine = (kind: Kind, slot: number, patch: Partial<ResultLine>) =>
    (kind === "headline" ? setHeadlines : setDescriptions)((prev) => prev.map((l, i) => (i === slot ? { ...l, ...patch } : l)));
  // Enter in a line must not submit the form (that would regenerate or use the ad).
  const noEnter = (e: React.KeyboardEvent) => {
    if (e.key === "Enter") e.preventDefault();
  };

  const lineRow = (kind: Kind, line: ResultLine, slot: number) => {
    const max = kind === "headline" ? HEADLINE_MAX : DESCRIPTION_MAX;
    const pins = kind === "headline" ? HEADLINE_PINS : DESCRIPTION_PINS;
    const label = `${kind === "headline" ? "Headline" : "Description"} ${slot + 1}`;
    const width = adTextWidth(line.text);
    const issues = issuesOf(kind, slot);
    const serverError = errors[`${kind}.${slot}`];
    const id = `${kind}-${slot}`;
    const regenerating = pending === `${kind}.${slot}`;
    return (
      <li key={slot} className="rounded-lg border border-gray-200 p-2" data-testid={`${kind}-line`}>
        <div className="flex items-center justify-between gap-2 text-xs text-gray-600">
          <label htmlFor={id} className="font-medium">
            {label}
          </label>
          <span aria-label={`${label} length`} className={width > max ? "font-semibold text-red-700" : "text-gray-500"}>
            {width}/{max}
          </span>
        </div>
        <input
          id={id}
          name={kind}
          value={line.text}
          onChange={(e) => setLine(kind, slot, { text: e.target.value })}
          onKeyDown={noEnter}
          className="mt-1 block w-full rounded-md border border-gray-300 px-2 py-1 text-sm text-gray-900 aria-[invalid=true]:border-red-600"
          aria-invalid={serverError || issues.some((i) => i.severity === "error") ? true : undefined}
          aria-describedby={`${id}-issues ${id}-error`}
        />
        <Issues issues={issues} id={`${id}-issues`} />
        <FieldError id={`${id}-error`} message={serverError} />
        <FieldError id={`${id}-regenerate-error`} message={errorFor(`regenerate:${kind}.${slot}`)} />
        <div className="mt-1 flex flex-wrap items-center gap-3 text-xs">
          <select
            name={`${kind}Pin`}
            value={line.pinnedField ?? ""}
            onChange={(e) => setLine(kind, slot, { pinnedField: e.target.value || undefined })}
            aria-label={`Pin for ${label.toLowerCase()}`}
            className="rounded border border-gray-300 px-1 py-0.5 text-xs"
          >
            <option value="">Any position</option>
            {pins.map((p, n) => (
              <option key={p} value={p}>
                Pin to position {n + 1}
              </option>
            ))}
          </select>
          <button
            type="submit"
            name="regenerate"
            value={`${kind}.${slot}`}
            disabled={busy || line.text.trim() === ""}
            aria-label={`Regenerate ${label.toLowerCase()}`}
            className="font-medium text-blue-700 hover:underline disabled:opacity-50"
          >
            {regenerating ? "Regenerating…" : "Regenerate"}
          </button>
          {hydrated ? (
            <button
              type="button"
              onClick={() => void copyText(line.text, label.toLowerCase())}
              aria-label={`Copy ${label.toLowerCase()}`}
              className="font-medium text-gray-600 hover:text-gray-900"
              disabled={line.text.trim() === ""}
            >
              Copy
            </button>
          ) : null}
        </div>
      </li>
    );
  };

  const pathInput = (name: "path1" | "path2", value: string, set: (v: string) => void, issues: LintIssue[]) => (
    <div className="flex-1">
      <div className="flex justify-between text-xs text-gray-600">
        <label htmlFor={name} className="font-medium">
          {name === "path1" ? "Path 1" : "Path 2"}
        </label>
        <span aria-label={`${name === "path1" ? "Path 1" : "Path 2"} length`}>
          {adTextWidth(value)}/{PATH_MAX}
        </span>
      </div>
      <input
        id={name}
        name={name}
        value={value}
        onChange={(e) => set(e.target.value)}
        onKeyDown={noEnter}
        className="mt-1 block w-full rounded-md border border-gray-300 px-2 py-1 text-sm"
        aria-invalid={issues.length || errors[name] ? true : undefined}
      />
      <Issues issues={issues} id={`${name}-issues`} />
      <FieldError id={`${name}-error`} message={errors[name]} />
    </div>
  );

  return (
    <Form method="post" aria-label="Generated ad" className="mt-4 space-y-4">
      {/* Without JavaScript, Enter in a line "checks" it: the first submit button is the form's default. */}
      {hydrated ? null : (
        <button type="submit" name="intent" value="check" className="rounded-md border border-gray-300 px-3 py-1.5 text-sm font-semibold text-gray-700">
          Check lines
        </button>
      )}
      {(["product", "targetAudience", "tone", "businessType", "adGroupId", "keywords", "facts"] as const).map((k) => (
        <input key={k} type="hidden" name={k} value={values[k]} />
      ))}
      {values.offers.map((offer) => (
        <input key={offer} type="hidden" name="offer" value={offer} />
      ))}
      <input type="hidden" name="source" value={result.source} />

      <div className="rounded-lg bg-gray-50 p-3 text-sm" role="status" aria-label="How this ad was written">
        <p className="font-medium text-gray-900">
          {result.source === "model" ? "Written by the AI model, checked line by line." : "Written from templates, checked line by line."}
        </p>
        <p className="mt-1 text-gray-700">
          Written for {BUSINESS_TYPE_NOUN[result.business.type]}
          {result.business.chosen ? ", as you chose." : `: ${result.business.basis.join(" ")}`}
        </p>
        {result.notices.map((n) => (
          <p key={n} className="mt-1 text-gray-700">
            {n}
          </p>
        ))}
      </div>
      {/* Check lines sits at the top of the form, and so does its answer (or one no button owns). */}
      <FormError message={formError && (errorAt === "check" || !errorAt) ? formError : null} />

      <section aria-label="Estimated strength" className="rounded-lg border border-gray-200 p-3">
        <p className="text-sm font-semibold text-gray-900">
          Estimated strength: {strength.band} ({strength.score}/100)
        </p>
        <p className="text-xs text-gray-500">Our estimate from Google&apos;s published factors, not Google&apos;s own Ad Strength rating.</p>
        {strength.reasons.length ? (
          <ul className="mt-1 list-disc pl-5 text-xs text-gray-700">
            {strength.reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        ) : null}
      </section>

      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span className={errorCount ? "font-medium text-red-700" : "text-green-700"}>
          {errorCount ? `${errorCount} problem${errorCount === 1 ? "" : "s"} to fix before using this ad` : "Every line passes the checks."}
        </span>
        {hydrated ? (
          <button
            type="button"
            onClick={() => void copyText(asText(headlines, descriptions, path1, path2), "the whole ad")}
            className="rounded-md border border-gray-300 px-3 py-1 font-semibold text-gray-700 hover:bg-gray-50"
          >
            Copy all
          </button>
        ) : null}
      </div>
      <Issues issues={lint.ad} id="ad-issues" />

      <fieldset>
        <legend className="text-sm font-semibold text-gray-900">Headlines (up to {HEADLINE_MAX} characters)</legend>
        <ol className="mt-2 grid gap-2 md:grid-cols-2">{headlines.map((l, i) => lineRow("headline", l, i))}</ol>
      </fieldset>
      <fieldset>
        <legend className="text-sm font-semibold text-gray-900">Descriptions (up to {DESCRIPTION_MAX} characters)</legend>
        <ol className="mt-2 space-y-2">{descriptions.map((l, i) => lineRow("description", l, i))}</ol>
      </fieldset>
      <fieldset className="flex gap-3">
        <legend className="text-sm font-semibold text-gray-900">Display path</legend>
        {pathInput("path1", path1, setPath1, lint.path1)}
        {pathInput("path2", path2, setPath2, lint.path2)}
      </fieldset>

      <section aria-label="Use in campaign" className="rounded-lg border border-blue-200 bg-blue-50 p-3">
        {connected ? (
          <>
            <label htmlFor="targetAdGroupId" className="block text-sm font-medium text-gray-800">
              Ad group for this ad
            </label>
            <select
              id="targetAdGroupId"
              name="targetAdGroupId"
              defaultValue={values.adGroupId}
              className="mt-1 block w-full rounded-md border border-gray-300 px-2 py-1 text-sm"
              aria-invalid={errors.targetAdGroupId ? true : undefined}
              aria-describedby={errors.targetAdGroupId ? "targetAdGroupId-error" : undefined}
            >
              <option value="">Choose an ad group</option>
              {adGroups.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.campaignName} › {g.name}
                </option>
              ))}
            </select>
            <FieldError id="targetAdGroupId-error" message={errors.targetAdGroupId} />
            <label htmlFor="useFinalUrl" className="mt-2 block text-sm font-medium text-gray-800">
              Landing page (final URL)
            </label>
            <input
              id="useFinalUrl"
              name="finalUrl"
              type="url"
              defaultValue={values.finalUrl}
              placeholder="https://example.com/boots"
              onKeyDown={noEnter}
              className="mt-1 block w-full rounded-md border border-gray-300 px-2 py-1 text-sm aria-[invalid=true]:border-red-600"
              aria-invalid={errors.finalUrl ? true : undefined}
              aria-describedby={errors.finalUrl ? "useFinalUrl-error" : undefined}
            />
            <FieldError id="useFinalUrl-error" message={errors.finalUrl} />
            <p className="mt-2 text-xs text-gray-600">This creates a change set for review; nothing is sent to Google until you Apply it.</p>
            <button
              type="submit"
              name="intent"
              value="use"
              disabled={busy}
              className="mt-2 rounded-lg bg-blue-600 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-700 disabled:opacity-50"
            >
              Use in campaign
            </button>
            <FieldError id="use-error" message={errorFor("use")} />
          </>
        ) : (
          <p className="text-sm text-gray-700">
            <Link to="/campaigns" className="font-semibold text-blue-700 hover:underline">
              Connect Google Ads
            </Link>{" "}
            to put this ad into one of your ad groups.
          </p>
        )}
      </section>
    </Form>
  );
}
