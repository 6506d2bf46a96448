import { useId, useState } from "react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { FieldError, FormError, Labeled, inputClass, useChangeFormResult, usePostAction } from "~/components/change-forms";
import { firstErrors, type FormResult } from "~/lib/form-result";
import { PageHeader, buttonClass } from "~/components/ui";
import {
  DESCRIPTION_MAX,
  DESCRIPTION_PINS,
  HEADLINE_MAX,
  HEADLINE_PINS,
  PATH_MAX,
  RSA_DESCRIPTIONS_MAX,
  RSA_DESCRIPTIONS_MIN,
  RSA_HEADLINES_MAX,
  RSA_HEADLINES_MIN,
} from "~/lib/ad-limits";
import { adTextWidth, lintLine, type LineKind } from "~/lib/ad-lint";
import { hrefWith } from "~/lib/query";
import { rangeOnly } from "~/lib/report-query";
import { useHydrated } from "~/lib/use-hydrated";
import { userContext } from "~/server/request-context.server";
import { newAdPage, proposeAction } from "~/server/change-pages.server";
import type { Route } from "./+types/new-ad";

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `New ad · ${loaderData.campaign.name} · Ads AI Manager` : "New ad · Ads AI Manager" }];
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  return newAdPage(user, params.campaignId);
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = context.get(userContext);
  return proposeAction(user, await request.formData());
}

/** What was typed, by field, from the action's reply (a repeated field is a list). */
function typed(result: FormResult | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(result?.initialValue ?? {})) {
    const list = Array.isArray(value) ? value : [value];
    out[name] = list.map((v) => (typeof v === "string" ? v : ""));
  }
  return out;
}

export default function NewAdPage({ loaderData }: Route.ComponentProps) {
  const { campaign, adGroups, suggestedFinalUrl } = loaderData;
  const result = useChangeFormResult("create_rsa");
  const { "": formError, ...errors } = firstErrors(result);
  const values = typed(result);
  const fieldless = formError && Object.keys(errors).length === 0 ? formError : null;
  const { search } = useLocation();
  const navigation = useNavigation();
  const postAction = usePostAction();
  const backHref = hrefWith(`/campaigns/${campaign.id}`, rangeOnly(search), { tab: "ads" });
  const value = (name: string, i = 0, fallback = "") => values[name]?.[i] ?? fallback;
  const preselected = new URLSearchParams(search).get("adGroupId") ?? undefined;

  return (
    <>
      <Link to={backHref} className="mb-3 inline-block text-sm font-medium text-blue-700 hover:underline">
        ← {campaign.name}
      </Link>
      <PageHeader title="New responsive search ad" description={`In ${campaign.name} · ${loaderData.account.name}`} />
      <FormError message={fieldless} />
      {adGroups.length === 0 ? (
        <p className="text-gray-600">This campaign has no ad groups to put an ad in.</p>
      ) : (
        <Form method="post" action={postAction} noValidate aria-label="New responsive search ad" className="space-y-6">
          <input type="hidden" name="intent" value="create_rsa" />
          <section className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm">
            <Labeled label="Ad group" className="text-sm">
              {(id) => (
                <>
                  <select id={id} name="adGroupId" defaultValue={value("adGroupId", 0, preselected)} className={`mt-1 max-w-md ${inputClass}`}>
                    {adGroups.map((g) => (
                      <option key={g.id} value={g.id}>
                        {g.name}
                      </option>
                    ))}
                  </select>
                  <FieldError id="adgroup-error" message={errors.adGroupId} />
                </>
              )}
            </Labeled>
          </section>
          <AssetFields
            kind="headline"
            title="Headlines"
            count={RSA_HEADLINES_MAX}
            required={RSA_HEADLINES_MIN}
            limit={HEADLINE_MAX}
            pins={HEADLINE_PINS}
            values={values}
            errors={errors}
            groupError={errors.headlines}
          />
          <AssetFields
            kind="description"
            title="Descriptions"
            count={RSA_DESCRIPTIONS_MAX}
            required={RSA_DESCRIPTIONS_MIN}
            limit={DESCRIPTION_MAX}
            pins={DESCRIPTION_PINS}
            values={values}
            errors={errors}
            groupError={errors.descriptions}
          />
          <section className="grid gap-4 rounded-xl border border-gray-200 bg-white p-5 shadow-sm md:grid-cols-3">
            <label className="flex flex-col text-sm font-medium text-gray-700 md:col-span-3">
              Final URL
              <input
                name="finalUrl"
                type="url"
                defaultValue={value("finalUrl", 0, suggestedFinalUrl)}
                className={`mt-1 ${inputClass}`}
                aria-invalid={errors.finalUrl ? true : undefined}
                aria-describedby={errors.finalUrl ? "finalurl-error" : undefined}
              />
              <FieldError id="finalurl-error" message={errors.finalUrl} />
            </label>
            <CountedInput
              name="path1"
              label={`Path 1 (optional, ${PATH_MAX} characters)`}
              limit={PATH_MAX}
              defaultValue={value("path1")}
              error={errors.path1}
            />
            <CountedInput
              name="path2"
              label={`Path 2 (optional, ${PATH_MAX} characters)`}
              limit={PATH_MAX}
              defaultValue={value("path2")}
              error={errors.path2}
            />
          </section>
          <p className="text-sm text-gray-600">Nothing is sent yet: the next page shows Google&apos;s validation, and Apply creates the ad.</p>
          <button type="submit" className={buttonClass} disabled={navigation.state === "submitting"}>
            Review new ad
          </button>
        </Form>
      )}
    </>
  );
}

function AssetFields({
  kind,
  title,
  count,
  required,
  limit,
  pins,
  values,
  errors,
  groupError,
}: {
  kind: "headline" | "description";
  title: string;
  count: number;
  required: number;
  limit: number;
  pins: readonly string[];
  values: Record<string, string[]>;
  errors: Record<string, string>;
  groupError?: string;
}) {
  const label = kind === "headline" ? "Headline" : "Description";
  return (
    <fieldset className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm">
      <legend className="px-1 text-sm font-semibold text-gray-900">
        {title} ({required}–{count}, up to {limit} characters each)
      </legend>
      <FieldError id={`${kind}s-error`} message={groupError} />
      <div className="mt-2 grid gap-3 md:grid-cols-2">
        {Array.from({ length: count }, (_, i) => (
          <div key={i} className="flex items-start gap-2">
            <div className="flex-1">
              <CountedInput
                name={kind}
                label={`${label} ${i + 1}${i < required ? "" : " (optional)"}`}
                limit={limit}
                defaultValue={values[kind]?.[i] ?? ""}
                error={errors[`${kind}.${i}`]}
                errorId={`${kind}-${i}-error`}
                kind={kind}
              />
            </div>
            <label className="flex flex-col text-xs font-medium text-gray-600">
              <span aria-hidden="true">Pin</span>
              <select
                name={`${kind}Pin`}
                defaultValue={values[`${kind}Pin`]?.[i] ?? ""}
                className={`mt-0.5 ${inputClass}`}
                aria-label={`Pin for ${label.toLowerCase()} ${i + 1}`}
              >
                <option value="">Any position</option>
                {pins.map((p, n) => (
                  <option key={p} value={p}>
                    Position {n + 1}
                  </option>
                ))}
              </select>
            </label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * A text input with a live "12/30" count in Google's width (a double-width character counts 2)
 * and the gate's verdict as you type (JavaScript), and the server's message under it.
 */
function CountedInput({
  name,
  label,
  limit,
  defaultValue,
  error,
  errorId,
  kind = "path",
}: {
  name: string;
  label: string;
  limit: number;
  defaultValue: string;
  error?: string;
  errorId?: string;
  kind?: LineKind;
}) {
  const hydrated = useHydrated();
  const [value, setValue] = useState(defaultValue);
  const id = errorId ?? `${name}-error`;
  const width = adTextWidth(value);
  const over = width > limit;
  // The length is shown by the count; the other rules (capitals, "!", symbols…) as messages.
  const problems = hydrated && value.trim() ? lintLine(value, kind).filter((i) => i.severity === "error" && i.code !== "TOO_LONG") : [];
  const inputId = useId();
  return (
    <div className="flex flex-col text-xs font-medium text-gray-600">
      <span className="flex justify-between gap-2">
        <label htmlFor={inputId}>{label}</label>
        {hydrated ? (
          <span aria-live="polite" className={over ? "font-semibold text-red-700" : "text-gray-400"}>
            {width}/{limit}
          </span>
        ) : null}
      </span>
      <input
        id={inputId}
        name={name}
        defaultValue={defaultValue}
        onChange={(e) => setValue(e.currentTarget.value)}
        className={`mt-0.5 ${inputClass}`}
        aria-invalid={error || over || problems.length ? true : undefined}
        aria-describedby={error ? id : undefined}
      />
      {problems.length && !error ? <p className="mt-1 text-xs font-medium text-red-700">{problems[0].message}</p> : null}
      <FieldError id={id} message={error} />
    </div>
  );
}
