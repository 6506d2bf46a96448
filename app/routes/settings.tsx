import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { GoogleBudget } from "~/components/google-budget";
import { OptimizationTargets } from "~/components/optimization-targets";
import { PageHeader, buttonClass, dangerButtonClass } from "~/components/ui";
import { formatCustomerId, formatInteger } from "~/lib/format";
import { usageSummary } from "~/server/ai/metered.server";
import { describeModel, MODEL_SETUP_HINT } from "~/server/ai/model.server";
import { listAccounts, refreshAccounts, setActiveAccount } from "~/server/ads/accounts.server";
import { googleBudgetView, startFirstSync } from "~/server/sync-status.server";
import { disconnectGoogle, getConnection } from "~/server/auth/google-connection.server";
import { userContext } from "~/server/request-context.server";
import { isTargetsIntent, targetsAction, targetsSection } from "~/server/optimizer/pages.server";
import { redirectWithToast } from "~/server/toast.server";
import { isSessionsIntent, sessionsAction, sessionsSection } from "~/server/auth/sessions-page.server";
import { SessionsSection } from "~/components/sessions-section";
import { accessTokensAction, accessTokensSection, isAccessTokenIntent } from "~/server/auth/access-tokens-page.server";
import { AccessTokensSection } from "~/components/access-tokens-section";
import { isWebhookIntent, webhooksAction, webhooksSection } from "~/server/agency/webhook-pages.server";
import { AlertWebhooksSection } from "~/components/alert-webhooks-section";
import type { Route } from "./+types/settings";

export function meta() {
  return [{ title: "Settings · Ads AI Manager" }];
}

export async function loader({ context }: Route.LoaderArgs) {
  const session = context.get(userContext);
  const { user } = session;
  const [connection, accounts, usage, targets, sessions, budget, accessTokens, webhooks] = await Promise.all([
    getConnection(user.id),
    listAccounts(user.id),
    usageSummary(user.id),
    targetsSection(user),
    sessionsSection(session),
    googleBudgetView(),
    accessTokensSection(user),
    webhooksSection(user),
  ]);
  const model = describeModel();
  return {
    ai: { configured: model.configured, summary: model.summary, hint: model.configured ? null : MODEL_SETUP_HINT, usage },
    email: user.email,
    targets,
    sessions,
    budget,
    accessTokens,
    webhooks,
    activeCustomerId: user.active_customer_id,
    connection: connection
      ? {
          googleEmail: connection.google_email,
          status: connection.status,
          statusReason: connection.status_reason,
          accountsError: connection.accounts_error,
          accountsSyncedAt: connection.accounts_synced_at,
        }
      : null,
    accounts: accounts.map((a) => ({
      customerId: a.customer_id,
      name: a.name,
      currencyCode: a.currency_code,
      timeZone: a.time_zone,
      manager: a.manager === 1,
      viaManager: a.login_customer_id !== a.customer_id ? a.login_customer_id : null,
    })),
  };
}

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("select-account"), customerId: z.string().regex(/^\d{10}$/, "Choose an account") }),
  z.object({ intent: z.literal("refresh-accounts") }),
  z.object({ intent: z.literal("disconnect") }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const session = context.get(userContext);
  const { user } = session;
  const form = await request.formData();
  if (isTargetsIntent(form)) return targetsAction(user, form);
  if (isSessionsIntent(form)) return sessionsAction(session);
  if (isAccessTokenIntent(form)) return accessTokensAction(user, form);
  if (isWebhookIntent(form)) return webhooksAction(user, form);
  const parsed = ActionSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ error: parsed.error.issues[0].message }, { status: 400 });
  const input = parsed.data;
  switch (input.intent) {
    case "select-account": {
      const ok = await setActiveAccount(user.id, input.customerId);
      if (!ok) return data({ error: "That account is not one of yours" }, { status: 400 });
      // An account never imported gets its first sync now; the others are refreshed on their schedule.
      await startFirstSync(user.id);
      return redirectWithToast("/settings", { type: "success", message: "Active account changed" });
    }
    case "refresh-accounts": {
      const result = await refreshAccounts(user.id);
      return result.ok
        ? redirectWithToast("/settings", { type: "success", message: `Found ${result.accounts.length} accounts` })
        : redirectWithToast("/settings", { type: "error", message: `Accounts could not be loaded: ${result.error}` });
    }
    case "disconnect": {
      await disconnectGoogle(user.id);
      return redirectWithToast("/settings", { type: "success", message: "Google Ads disconnected" });
    }
  }
  return redirect("/settings");
}

const FEATURE_NAMES = {
  chat: { name: "AI assistant", uses: "messages" },
  ad_copy: { name: "Ad generator", uses: "generations" },
} as const;

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { connection, accounts, activeCustomerId, ai } = loaderData;
  const total = ai.usage.features.reduce(
    (sum, f) => ({
      totalTokens: sum.totalTokens + f.totalTokens,
      inputTokens: sum.inputTokens + f.inputTokens,
      outputTokens: sum.outputTokens + f.outputTokens,
      calls: sum.calls + f.calls,
    }),
    { totalTokens: 0, inputTokens: 0, outputTokens: 0, calls: 0 },
  );
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <>
      <PageHeader title="Settings" description="Your Google Ads connection and accounts" />
      {actionData && "error" in actionData && actionData.error ? (
        <p role="alert" className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {actionData.error}
        </p>
      ) : null}
      <section className="rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-labelledby="connection-heading">
        <h2 id="connection-heading" className="text-lg font-semibold text-gray-900">
          Google Ads connection
        </h2>
        {!connection ? (
          <div className="mt-3">
            <p className="text-gray-600">Not connected.</p>
            <a href="/api/v1/auth/google?returnTo=/settings" className={`${buttonClass} mt-4`}>
              Connect Google Ads
            </a>
          </div>
        ) : (
          <div className="mt-3 space-y-3">
            <p className="text-gray-700">
              Connected as <strong>{connection.googleEmail}</strong>
            </p>
            {connection.status === "reconnect_needed" ? (
              <div role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
                {connection.statusReason ?? "This connection needs to be renewed."}{" "}
                <a href="/api/v1/auth/google?returnTo=/settings" className="font-semibold underline">
                  Reconnect
                </a>
              </div>
            ) : null}
            <Form method="post">
              <input type="hidden" name="intent" value="disconnect" />
              <button type="submit" disabled={busy} className={dangerButtonClass}>
                Disconnect Google Ads
              </button>
            </Form>
          </div>
        )}
      </section>

      {connection ? (
        <section className="mt-6 rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-labelledby="accounts-heading">
          <div className="flex items-center justify-between gap-4">
            <h2 id="accounts-heading" className="text-lg font-semibold text-gray-900">
              Accounts
            </h2>
            <Form method="post">
              <input type="hidden" name="intent" value="refresh-accounts" />
              <button type="submit" disabled={busy} className="text-sm font-semibold text-blue-600 hover:underline">
                Reload accounts
              </button>
            </Form>
          </div>
          {connection.accountsError ? (
            <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              Your accounts could not be loaded: {connection.accountsError}
            </p>
          ) : null}
          {accounts.length === 0 ? (
            <p className="mt-3 text-gray-600">No accounts found.</p>
          ) : (
            <Form method="post" className="mt-4">
              <input type="hidden" name="intent" value="select-account" />
              <fieldset>
                <legend className="sr-only">Active account</legend>
                <ul className="divide-y divide-gray-100">
                  {accounts.map((a) => (
                    <li key={a.customerId} className="flex items-center gap-3 py-3">
                      <input
                        type="radio"
                        name="customerId"
                        id={`acct-${a.customerId}`}
                        value={a.customerId}
                        defaultChecked={a.customerId === activeCustomerId}
                        disabled={a.manager}
                      />
                      <label htmlFor={`acct-${a.customerId}`} className="flex-1">
                        <span className="font-medium text-gray-900">{a.name}</span>{" "}
                        <span className="text-sm text-gray-500">
                          {formatCustomerId(a.customerId)} · {a.currencyCode} · {a.timeZone}
                          {a.manager ? " · Manager account" : ""}
                          {a.viaManager ? ` · via ${formatCustomerId(a.viaManager)}` : ""}
                        </span>
                        {a.customerId === activeCustomerId ? (
                          <span className="ml-2 rounded bg-blue-50 px-2 py-0.5 text-xs font-semibold text-blue-700">Active</span>
                        ) : null}
                      </label>
                    </li>
                  ))}
                </ul>
              </fieldset>
              <button type="submit" disabled={busy} className={`${buttonClass} mt-4`}>
                Use selected account
              </button>
            </Form>
          )}
        </section>
      ) : null}

      {connection ? <GoogleBudget view={loaderData.budget} timeZone={accounts.find((a) => a.customerId === activeCustomerId)?.timeZone ?? "UTC"} /> : null}

      {loaderData.targets ? (
        <OptimizationTargets data={loaderData.targets} lastResult={actionData && "targetResult" in actionData ? actionData.targetResult : undefined} />
      ) : null}

      <section className="mt-6 rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-labelledby="ai-heading">
        <h2 id="ai-heading" className="text-lg font-semibold text-gray-900">
          AI model
        </h2>
        <dl className="mt-3 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-gray-500">Model in use</dt>
          <dd className="font-medium text-gray-900" data-testid="ai-model">
            {ai.summary}
          </dd>
          <dt className="text-gray-500">Tokens this month</dt>
          <dd className="text-gray-900" data-testid="ai-tokens">
            {formatInteger(total.totalTokens)}{" "}
            <span className="text-gray-500">
              ({formatInteger(total.inputTokens)} in, {formatInteger(total.outputTokens)} out, over {formatInteger(total.calls)}{" "}
              {total.calls === 1 ? "model call" : "model calls"})
            </span>
          </dd>
        </dl>
        {ai.configured || total.calls > 0 ? (
          <>
            <h3 className="mt-4 text-sm font-semibold text-gray-900">By feature</h3>
            <ul className="mt-2 divide-y divide-gray-100 text-sm" aria-label="AI use by feature">
              {ai.usage.features.map((f) => (
                <li key={f.feature} className="py-2" data-testid={`ai-usage-${f.feature}`}>
                  <span className="font-medium text-gray-900">{FEATURE_NAMES[f.feature].name}</span>
                  <span className="block text-gray-600 sm:ml-2 sm:inline">
                    {formatInteger(f.totalTokens)} tokens this month over {formatInteger(f.calls)} {f.calls === 1 ? "call" : "calls"} · today{" "}
                    {formatInteger(f.usedToday)} of {formatInteger(f.dailyLimit)} {FEATURE_NAMES[f.feature].uses}
                  </span>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {ai.usage.budget ? (
          <p className="mt-3 text-sm text-gray-700" data-testid="ai-budget">
            This installation&apos;s monthly budget: {formatInteger(ai.usage.budget.used)} of {formatInteger(ai.usage.budget.limit)} tokens used
            {ai.usage.budget.used >= ai.usage.budget.limit ? "; until the 1st (UTC) the built-in analyst and templates answer instead of the model." : "."}
          </p>
        ) : null}
        {ai.hint ? <p className="mt-3 text-sm text-gray-600">{ai.hint}</p> : null}
      </section>

      <AlertWebhooksSection {...loaderData.webhooks} busy={busy} />

      <AccessTokensSection
        {...loaderData.accessTokens}
        created={actionData && "createdToken" in actionData ? actionData.createdToken : undefined}
        lastResult={actionData && "tokenResult" in actionData ? actionData.tokenResult : undefined}
        busy={busy}
      />

      <SessionsSection sessions={loaderData.sessions} busy={busy} />
    </>
  );
}
