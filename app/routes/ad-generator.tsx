import { useActionData, useLocation } from "react-router";
import { BriefForm } from "~/components/ad-generator/brief-form";
import { RsaResult } from "~/components/ad-generator/rsa-result";
import { SeedGenerator } from "~/components/ad-generator/seed-generator";
import { Notice, PageHeader } from "~/components/ui";
import type { AdForm } from "~/lib/ad-templates";
import { userContext } from "~/server/request-context.server";
import { adGeneratorAction, adGeneratorPage, type GeneratorActionData } from "~/server/ad-generator.server";
import type { Route } from "./+types/ad-generator";

// /ad-generator — writes a responsive search ad that passes the gate (app/lib/ad-lint.ts).
//
// Query parameter (a contract: the optimizer's weak-ad recommendation links here):
//   ?adGroupId=<Google ad group id>  chooses that ad group of the active account, prefilling
//   its top keywords and a final URL from its ads (AD_GROUP_PARAM in app/lib/ad-generator-form.ts).
//   An id that isn't a search ad group of the active account shows a notice and chooses none.
//
// No account and no AI model: exactly the seed (three template cards after about 2 s).

export function meta() {
  return [{ title: "Ad Generator · Ads AI Manager" }];
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  return adGeneratorPage(user, url);
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = context.get(userContext);
  return adGeneratorAction(user, await request.formData());
}

const cardClass = "rounded-xl border border-gray-200 bg-white p-6 shadow-sm";

export default function AdGenerator({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>() as GeneratorActionData | undefined;
  const { search } = useLocation();

  if (loaderData.mode === "seed") {
    const v = actionData?.values ?? loaderData.values;
    const form: AdForm = { product: v.product, targetAudience: v.targetAudience, tone: v.tone as AdForm["tone"] };
    return (
      <>
        <PageHeader title="Ad Generator" description="Generate ad copy that fits Google's limits" />
        <SeedGenerator key={actionData ? "posted" : "fresh"} initialForm={form} initialAds={actionData?.seedAds ?? []} errors={actionData?.errors ?? {}} />
      </>
    );
  }

  const connected = loaderData.account !== null;
  const values = actionData?.values ?? loaderData.values;
  const errors = actionData?.errors ?? {};
  return (
    <>
      <PageHeader
        title="Ad Generator"
        description={
          connected
            ? `Responsive search ads for ${loaderData.account!.name}, checked against Google's limits and editorial rules`
            : "Generate ad copy that fits Google's limits"
        }
      />
      {loaderData.notice ? <Notice>{loaderData.notice}</Notice> : null}
      {!loaderData.modelConfigured ? (
        <p className="mb-4 rounded-md bg-gray-100 px-3 py-2 text-sm text-gray-700">
          No AI model is configured, so ads are written from templates built from your inputs, keywords and existing ads. {loaderData.modelHint}
        </p>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <section className={cardClass} aria-labelledby="ad-details">
          <h2 id="ad-details" className="text-lg font-semibold text-gray-900">
            Ad Details
          </h2>
          {/* Keyed by the address: choosing another ad group reloads its keywords and final URL. */}
          <BriefForm
            key={search}
            values={values}
            errors={actionData?.result ? {} : errors}
            connected={connected}
            adGroups={loaderData.adGroups}
            business={loaderData.business}
            pastOffers={loaderData.pastOffers}
            // A refused Generate (or any post that came back without an ad) answers under the Generate button.
            generateError={actionData?.errorAt === "generate" || !actionData?.result ? (actionData?.formError ?? null) : null}
          />
        </section>
        <section className={cardClass} aria-labelledby="generated-ads">
          <h2 id="generated-ads" className="text-lg font-semibold text-gray-900">
            Generated Ads
          </h2>
          {actionData?.result ? (
            <RsaResult
              key={actionData.result.id}
              result={actionData.result}
              values={values}
              errors={errors}
              formError={actionData.formError}
              errorAt={actionData.errorAt}
              adGroups={loaderData.adGroups}
              connected={connected}
            />
          ) : (
            <div className="flex flex-col items-center justify-center py-16 text-center">
              <h3 className="font-semibold text-gray-900">Ready to Generate</h3>
              <p className="mt-1 max-w-sm text-sm text-gray-600">
                {connected
                  ? "Choose an ad group, check its keywords, add the facts the ad may state, then generate a complete responsive search ad."
                  : "Describe your product and audience, then generate ad copy."}
              </p>
            </div>
          )}
        </section>
      </div>
    </>
  );
}
