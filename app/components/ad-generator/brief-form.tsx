import { useMemo, useRef, useState } from "react";
import { Form, useNavigation, useSubmit } from "react-router";
import { Field, errorsAsResult, useCheckedForm } from "~/components/forms";
import { AD_TYPES, TONES } from "~/lib/ad-templates";
import { FACT_MAX_CHARS, MAX_FACTS, MAX_KEYWORDS, parseBrief } from "~/lib/ad-generator-form";
import { useHydrated } from "~/lib/use-hydrated";

export interface BriefValues {
  product: string;
  targetAudience: string;
  tone: string;
  adType: string;
  adGroupId: string;
  keywords: string;
  facts: string;
  finalUrl: string;
}

export interface AdGroupOption {
  id: string;
  name: string;
  campaignName: string;
}

/** The brief's check, as the action reads it (generate checks the final URL too). */
function checkBrief(formData: FormData) {
  const parsed = parseBrief((name) => String(formData.get(name) ?? ""), formData.get("intent") === "generate");
  return parsed.ok ? null : parsed.errors;
}

const title = (t: string) => t[0].toUpperCase() + t.slice(1);

/** Campaign → its ad groups, in the order given. */
function byCampaign(adGroups: AdGroupOption[]): Array<[string, AdGroupOption[]]> {
  const out = new Map<string, AdGroupOption[]>();
  for (const g of adGroups) out.set(g.campaignName, [...(out.get(g.campaignName) ?? []), g]);
  return [...out];
}

/**
 * The brief: the seed's four fields, and with an account connected the ad group (its top
 * keywords and final URL prefilled), keywords, facts and final URL. Choosing an ad group
 * reloads the page with `?adGroupId=` (a GET submit, so what was typed rides along).
 */
export function BriefForm({
  values,
  errors,
  connected,
  adGroups,
}: {
  values: BriefValues;
  errors: Record<string, string>;
  connected: boolean;
  adGroups: AdGroupOption[];
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const [form, setForm] = useState(values);
  const generating = navigation.state !== "idle" && navigation.formMethod === "POST" && navigation.formData?.get("intent") === "generate";
  const incomplete = form.product.trim() === "" || form.targetAudience.trim() === "";
  const update = (key: keyof BriefValues) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
    setForm((prev) => ({ ...prev, [key]: e.target.value }));
  // The action's own reading of the brief runs in the browser too; its answer (`errors`) is shown the same way.
  const lastResult = useMemo(() => errorsAsResult(errors), [errors]);
  const [checked, fields] = useCheckedForm(checkBrief, { id: "brief", lastResult });

  return (
    <Form method="post" ref={formRef} id={checked.id} onSubmit={checked.onSubmit} className="mt-4 space-y-4" noValidate={hydrated} aria-label="Ad details">
      <input type="hidden" name="intent" value="generate" />
      <Field
        id="product"
        label="Product/Service"
        field={fields.product}
        value={form.product}
        onChange={update("product")}
        required
        maxLength={200}
        placeholder="e.g. Waterproof hiking boots"
      />
      <Field
        id="targetAudience"
        label="Target Audience"
        field={fields.targetAudience}
        value={form.targetAudience}
        onChange={update("targetAudience")}
        required
        maxLength={200}
        placeholder="e.g. weekend hikers"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field as="select" id="tone" label="Tone" field={fields.tone} value={form.tone} onChange={update("tone")}>
          {TONES.map((t) => (
            <option key={t} value={t}>
              {title(t)}
            </option>
          ))}
        </Field>
        <Field as="select" id="adType" label="Ad Type" field={fields.adType} value={form.adType} onChange={update("adType")}>
          {AD_TYPES.map((t) => (
            <option key={t} value={t}>
              {title(t)}
            </option>
          ))}
        </Field>
      </div>

      {connected ? (
        <>
          <Field
            as="select"
            id="adGroupId"
            label="Campaign and ad group"
            field={fields.adGroupId}
            hint="Its best-performing lines guide the style; its low performers are avoided."
            value={form.adGroupId}
            onChange={(e) => {
              setForm((prev) => ({ ...prev, adGroupId: e.target.value }));
              // Reload with the ad group's keywords and final URL; what was typed rides along.
              const fd = new FormData(formRef.current!);
              fd.set("adGroupId", e.target.value);
              fd.delete("intent");
              submit(fd, { method: "get", replace: true, preventScrollReset: true });
            }}
          >
            <option value="">No ad group (write from the brief only)</option>
            {byCampaign(adGroups).map(([campaign, groups]) => (
              <optgroup key={campaign} label={campaign}>
                {groups.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </Field>
          <Field
            as="textarea"
            id="keywords"
            label="Keywords (one per line)"
            field={fields.keywords}
            hint={<>The ad group&apos;s top keywords by impressions; at most {MAX_KEYWORDS}. Headlines will include the first ones.</>}
            rows={4}
            value={form.keywords}
            onChange={update("keywords")}
          />
          <Field
            as="textarea"
            id="facts"
            label="Facts the ad may state (one per line)"
            field={fields.facts}
            hint={
              <>
                Offers, prices, shipping, guarantees (at most {MAX_FACTS}, {FACT_MAX_CHARS} characters each). Any number, price, offer or superlative in the ad
                must come from here or from the ad group&apos;s existing ads.
              </>
            }
            rows={4}
            value={form.facts}
            onChange={update("facts")}
            placeholder={"Free shipping over $50\n60-day returns"}
          />
          <Field
            id="finalUrl"
            label="Final URL"
            field={fields.finalUrl}
            type="url"
            value={form.finalUrl}
            onChange={update("finalUrl")}
            placeholder="https://example.com/boots"
          />
        </>
      ) : null}

      <button
        type="submit"
        disabled={hydrated && (generating || incomplete)}
        className="w-full rounded-lg bg-blue-600 px-4 py-2.5 font-semibold text-white shadow-sm hover:bg-blue-700 disabled:cursor-not-allowed disabled:opacity-50"
      >
        {generating ? "Generating..." : "Generate Ad Copy"}
      </button>
      {connected && !hydrated ? (
        // After Generate in the document, so Enter in a field still generates (the first submit button is the default).
        <button
          type="submit"
          formMethod="get"
          formNoValidate
          className="w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm font-semibold text-gray-700"
        >
          Load the chosen ad group&apos;s keywords and final URL
        </button>
      ) : null}
    </Form>
  );
}
