import { useMemo, useRef, useState } from "react";
import { Form, useNavigation, useSubmit } from "react-router";
import { Field, errorsAsResult, useCheckedForm } from "~/components/forms";
import { TONES } from "~/lib/ad-templates";
import { FACT_MAX_CHARS, MAX_FACTS, MAX_KEYWORDS, parseBrief, type BriefValues } from "~/lib/ad-generator-form";
import { BUSINESS_TYPE_LABEL, BUSINESS_TYPES, type BusinessTypeGuess } from "~/lib/business-type";
import { useHydrated } from "~/lib/use-hydrated";
import { GenerateButton, missingFields, RequiredMark, RequiredNote } from "./generate-button";

export type { BriefValues };

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
 * The brief: the seed's fields (no ad type: only responsive search ads are made), the kind of
 * business, and with an account connected the ad group (its top keywords and final URL
 * prefilled, its old offers to confirm), keywords, facts and final URL. Choosing an ad group
 * reloads the page with `?adGroupId=` (a GET submit, so what was typed rides along).
 */
export function BriefForm({
  values,
  errors,
  connected,
  adGroups,
  business = null,
  pastOffers = [],
  generateError = null,
}: {
  values: BriefValues;
  errors: Record<string, string>;
  connected: boolean;
  adGroups: AdGroupOption[];
  /** What the account shows (null: no account, the brief decides). */
  business?: BusinessTypeGuess | null;
  /** The chosen ad group's lines that state an offer or a price. */
  pastOffers?: string[];
  /** The refusal of the last Generate, shown under its button. */
  generateError?: string | null;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const [form, setForm] = useState(values);
  const generating = navigation.state !== "idle" && navigation.formMethod === "POST" && navigation.formData?.get("intent") === "generate";
  const missing = missingFields([
    ["Product/Service", form.product],
    ["Target Audience", form.targetAudience],
  ]);
  const update = (key: keyof BriefValues) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
    setForm((prev) => ({ ...prev, [key]: e.target.value }));
  // The action's own reading of the brief runs in the browser too; its answer (`errors`) is shown the same way.
  const lastResult = useMemo(() => errorsAsResult(errors), [errors]);
  const [checked, fields] = useCheckedForm(checkBrief, { id: "brief", lastResult });

  return (
    <Form method="post" ref={formRef} id={checked.id} onSubmit={checked.onSubmit} className="mt-4 space-y-4" noValidate={hydrated} aria-label="Ad details">
      <input type="hidden" name="intent" value="generate" />
      <RequiredNote />
      <Field
        id="product"
        label={
          <>
            Product/Service
            <RequiredMark />
          </>
        }
        field={fields.product}
        value={form.product}
        onChange={update("product")}
        required
        maxLength={200}
        placeholder="e.g. Waterproof hiking boots"
      />
      <Field
        id="targetAudience"
        label={
          <>
            Target Audience
            <RequiredMark />
          </>
        }
        field={fields.targetAudience}
        value={form.targetAudience}
        onChange={update("targetAudience")}
        required
        maxLength={200}
        placeholder="e.g. weekend hikers"
      />
      <Field as="select" id="tone" label="Tone" field={fields.tone} value={form.tone} onChange={update("tone")}>
        {TONES.map((t) => (
          <option key={t} value={t}>
            {title(t)}
          </option>
        ))}
      </Field>
      <Field
        as="select"
        id="businessType"
        label="Kind of business"
        field={fields.businessType}
        value={form.businessType}
        onChange={update("businessType")}
        hint={business ? <>How we know: {business.basis.join(" ")}</> : "Chooses the calls to action: shop and order, ask for a quote, or book a visit."}
      >
        <option value="">{business ? `As the account shows: ${BUSINESS_TYPE_LABEL[business.type]}` : "Read it from what I type"}</option>
        {BUSINESS_TYPES.map((t) => (
          <option key={t} value={t}>
            {BUSINESS_TYPE_LABEL[t]}
          </option>
        ))}
      </Field>

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
              void submit(fd, { method: "get", replace: true, preventScrollReset: true });
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
                must come from here, from an old offer you tick below, or from the product and audience above.
              </>
            }
            rows={4}
            value={form.facts}
            onChange={update("facts")}
            placeholder={"Free shipping over $50\n60-day returns"}
          />
          {pastOffers.length > 0 ? <PastOffers offers={pastOffers} confirmed={values.offers} error={errors.offer} /> : null}
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

      <GenerateButton hydrated={hydrated} generating={generating} missing={missing} error={generateError} />
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

/**
 * The ad group's offers and prices, each ticked only by the person: an old ad's "Up to 30% Off"
 * may have ended, so none is stated again unless confirmed as true today.
 */
function PastOffers({ offers, confirmed, error }: { offers: string[]; confirmed: string[]; error?: string }) {
  return (
    <fieldset aria-describedby={`offers-hint${error ? " offers-error" : ""}`}>
      <legend className="block text-sm font-medium text-gray-700">Offers and prices in this ad group&apos;s ads</legend>
      <p id="offers-hint" className="mt-1 text-xs text-gray-500">
        Used only if you tick them: tick the ones that are still true today.
      </p>
      <ul className="mt-1 space-y-1">
        {offers.map((offer, i) => (
          <li key={offer}>
            <label className="flex items-start gap-2 text-sm text-gray-800">
              <input type="checkbox" name="offer" value={offer} defaultChecked={confirmed.includes(offer)} className="mt-0.5 h-4 w-4" id={`offer-${i}`} />
              {offer}
            </label>
          </li>
        ))}
      </ul>
      {error ? (
        <p id="offers-error" role="alert" className="mt-1 text-xs font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
