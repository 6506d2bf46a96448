import { useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { Form, Link } from "react-router";
import {
  AdFormSchema,
  DESCRIPTION_MAX,
  GENERATION_DELAY_MS,
  generateTemplateAds,
  HEADLINE_MAX,
  TONES,
  type AdForm,
  type GeneratedAd,
} from "~/lib/ad-templates";
import { useHydrated } from "~/lib/use-hydrated";
import { Field, fieldClass, serverField } from "~/components/forms";
import { GenerateButton, missingFields, RequiredMark, RequiredNote } from "./generate-button";

/**
 * The seed's generator (no Google Ads account, no AI model): three template cards after about
 * 2 s with JavaScript; without it the form posts and the server renders the same cards.
 */
export function SeedGenerator({ initialForm, initialAds, errors }: { initialForm: AdForm; initialAds: GeneratedAd[]; errors: Record<string, string> }) {
  const hydrated = useHydrated();
  const [form, setForm] = useState<AdForm>(initialForm);
  const [ads, setAds] = useState<GeneratedAd[]>(initialAds);
  const [generating, setGenerating] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const missing = missingFields([
    ["Product/Service", form.product],
    ["Target Audience", form.targetAudience],
  ]);

  function generate(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = AdFormSchema.safeParse(form);
    if (generating || !parsed.success) return;
    setGenerating(true);
    // Seed behaviour with no AI provider: templates, after ~2 s.
    timer.current = setTimeout(() => {
      setAds(generateTemplateAds(parsed.data));
      setGenerating(false);
    }, GENERATION_DELAY_MS);
  }

  const update = (key: keyof AdForm) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setForm((prev) => ({ ...prev, [key]: e.target.value }));

  return (
    <>
      <div className="grid gap-6 lg:grid-cols-2">
        <section className="rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-labelledby="ad-details">
          <h2 id="ad-details" className="text-lg font-semibold text-gray-900">
            Ad Details
          </h2>
          <Form method="post" onSubmit={generate} className="mt-4 space-y-4" noValidate={hydrated}>
            <RequiredNote />
            <Field
              id="product"
              label={
                <>
                  Product/Service
                  <RequiredMark />
                </>
              }
              field={serverField("product", errors.product)}
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
              field={serverField("targetAudience", errors.targetAudience)}
              value={form.targetAudience}
              onChange={update("targetAudience")}
              required
              maxLength={200}
              placeholder="e.g. weekend hikers"
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field as="select" id="tone" label="Tone" field={serverField("tone", errors.tone)} value={form.tone} onChange={update("tone")}>
                {TONES.map((t) => (
                  <option key={t} value={t}>
                    {t[0].toUpperCase() + t.slice(1)}
                  </option>
                ))}
              </Field>
            </div>
            <GenerateButton hydrated={hydrated} generating={generating} missing={missing} />
          </Form>
        </section>

        <section className="rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-labelledby="generated-ads">
          <h2 id="generated-ads" className="text-lg font-semibold text-gray-900">
            Generated Ads
          </h2>
          {ads.length === 0 ? (
            <div className="flex flex-col items-center justify-center py-16 text-center">
              <h3 className="font-semibold text-gray-900">Ready to Generate</h3>
              <p className="mt-1 max-w-sm text-sm text-gray-600">Describe your product and audience, then generate ad copy.</p>
            </div>
          ) : (
            <ul className="mt-4 space-y-4">
              {ads.map((ad, i) => (
                <AdCard key={`${i}-${ad.headline}`} ad={ad} onChange={(next) => setAds((prev) => prev.map((a, j) => (j === i ? next : a)))} />
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}

function AdCard({ ad, onChange }: { ad: GeneratedAd; onChange: (ad: GeneratedAd) => void }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(ad);
  const tooLong = draft.headline.length > HEADLINE_MAX || draft.description.length > DESCRIPTION_MAX;

  async function copy() {
    try {
      await navigator.clipboard.writeText(`${ad.headline}\n${ad.description}\n${ad.cta}`);
      toast.success("Copied to clipboard");
    } catch (error) {
      console.error(error);
      toast.error("Could not copy to the clipboard");
    }
  }

  return (
    <li className="rounded-lg border border-gray-200 p-4" data-testid="generated-ad">
      {editing ? (
        <div className="space-y-2">
          <label className="block text-xs font-medium text-gray-600">
            Headline ({draft.headline.length}/{HEADLINE_MAX})
            <input className={fieldClass} value={draft.headline} onChange={(e) => setDraft({ ...draft, headline: e.target.value })} />
          </label>
          <label className="block text-xs font-medium text-gray-600">
            Description ({draft.description.length}/{DESCRIPTION_MAX})
            <textarea className={fieldClass} value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} />
          </label>
          <label className="block text-xs font-medium text-gray-600">
            Call to action
            <input className={fieldClass} value={draft.cta} onChange={(e) => setDraft({ ...draft, cta: e.target.value })} />
          </label>
          {tooLong ? <p className="text-sm text-red-600">Over Google's character limit.</p> : null}
          <div className="flex gap-3 text-sm">
            <button
              type="button"
              disabled={tooLong}
              className="font-semibold text-blue-600 disabled:opacity-50"
              onClick={() => {
                onChange(draft);
                setEditing(false);
              }}
            >
              Save
            </button>
            <button
              type="button"
              className="text-gray-600"
              onClick={() => {
                setDraft(ad);
                setEditing(false);
              }}
            >
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <>
          <h3 className="font-semibold text-blue-700">{ad.headline}</h3>
          <p className="mt-1 text-sm text-gray-700">{ad.description}</p>
          <span className="mt-2 inline-block rounded bg-blue-50 px-2 py-0.5 text-xs font-semibold text-blue-700">{ad.cta}</span>
          <div className="mt-3 flex gap-4 text-sm">
            <button type="button" onClick={() => void copy()} className="font-medium text-gray-600 hover:text-gray-900">
              Copy
            </button>
            <button
              type="button"
              onClick={() => {
                setDraft(ad);
                setEditing(true);
              }}
              className="font-medium text-gray-600 hover:text-gray-900"
            >
              Edit
            </button>
            <Link to="/campaigns" className="font-medium text-blue-600 hover:underline">
              Use in Campaign
            </Link>
          </div>
        </>
      )}
    </li>
  );
}
