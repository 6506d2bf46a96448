import { useState } from "react";
import { Form } from "react-router";
import { AccessTokenForm, TOKEN_EXPIRY_DAYS, TOKEN_NAME_MAX, type AccessTokenView, type TokenScope } from "~/lib/access-token-form";
import type { FormResult } from "~/lib/form-result";
import { formatDateTime } from "~/lib/format";
import { useHydrated } from "~/lib/use-hydrated";
import { errorAria, Field, FieldMessage, useSchemaForm } from "./forms";
import { buttonClass, dangerButtonClass } from "./ui";

export interface CreatedTokenView {
  id: string;
  name: string;
  token: string;
}

const SCOPE_TEXT: Record<TokenScope, { label: string; hint: string }> = {
  read: { label: "Read", hint: "Look at the accounts: campaigns, keywords, search terms, recommendations, change history." },
  propose: { label: "Propose", hint: "Draft change sets for you to review. It can never apply one: you do, on the review page." },
};

const EXPIRY_LABEL: Record<(typeof TOKEN_EXPIRY_DAYS)[number], string> = { "7": "7 days", "30": "30 days", "90": "90 days", "365": "1 year" };

/** The new token, once: with a Copy button where JavaScript runs, selectable text everywhere. */
function NewToken({ created }: { created: CreatedTokenView }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="mt-4 rounded-lg border border-green-200 bg-green-50 p-4 text-sm text-green-900">
      <p className="font-semibold">Access token “{created.name}” created. Copy it now: it will not be shown again.</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <input
          readOnly
          aria-label={`New access token ${created.name}`}
          value={created.token}
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 flex-1 rounded border border-green-300 bg-white px-2 py-1 font-mono text-xs text-gray-900"
        />
        {hydrated ? (
          <button
            type="button"
            className="rounded border border-green-300 bg-white px-3 py-1 text-xs font-semibold text-green-800 hover:bg-green-100"
            onClick={() => void navigator.clipboard?.writeText(created.token).then(() => setCopied(true))}
          >
            {copied ? "Copied" : "Copy"}
          </button>
        ) : null}
      </div>
    </div>
  );
}

/**
 * /settings: personal access tokens for the person's own AI agent (the MCP
 * server) and scripts (the JSON API): created with a name, scopes and an
 * expiry, shown once, listed with when they were last used, revocable. Every
 * form works without JavaScript.
 */
export function AccessTokensSection({
  tokens,
  max,
  mcpUrl,
  created,
  lastResult,
  busy,
}: {
  tokens: AccessTokenView[];
  max: number;
  mcpUrl: string;
  created?: CreatedTokenView;
  lastResult?: FormResult;
  busy: boolean;
}) {
  // A fresh form after each creation (its fields empty again).
  const [form, fields] = useSchemaForm(AccessTokenForm, {
    id: `new-token-${created?.id ?? "form"}`,
    lastResult,
    defaultValue: { name: "", scopes: "read", expiresInDays: TOKEN_EXPIRY_DAYS[0] },
  });
  const checkedScopes = ([] as unknown[]).concat(fields.scopes.initialValue ?? []);
  return (
    <section className="mt-6 rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-labelledby="tokens-heading">
      <h2 id="tokens-heading" className="text-lg font-semibold text-gray-900">
        Access tokens
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        For your own AI agent (the MCP server at <code className="break-words rounded bg-gray-100 px-1">{mcpUrl}</code>) or your scripts (the JSON API). An
        agent with a token can look and propose; only you apply changes, here in the app.
      </p>
      {created ? <NewToken created={created} /> : null}

      {tokens.length === 0 ? (
        <p className="mt-4 text-sm text-gray-600">No access tokens yet.</p>
      ) : (
        <ul className="mt-4 divide-y divide-gray-100" aria-label="Your access tokens">
          {tokens.map((t) => (
            <li key={t.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
              <div className="min-w-0">
                <span className="break-words font-medium text-gray-900">{t.name}</span>
                {t.scopes.map((s) => (
                  <span key={s} className="ml-2 inline-block rounded bg-blue-50 px-2 py-0.5 text-xs font-semibold text-blue-700">
                    {SCOPE_TEXT[s].label}
                  </span>
                ))}
                {t.expired ? <span className="ml-2 inline-block rounded bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-700">Expired</span> : null}
                <span className="block text-gray-500">
                  Created {formatDateTime(t.createdAt)} · {t.expired ? "Expired" : "Expires"} {formatDateTime(t.expiresAt)} ·{" "}
                  {t.lastUsedAt ? `Last used ${formatDateTime(t.lastUsedAt)}` : "Never used"}
                </span>
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="revoke-access-token" />
                <input type="hidden" name="tokenId" value={t.id} />
                <button type="submit" disabled={busy} aria-label={`Revoke ${t.name}`} className={dangerButtonClass}>
                  Revoke
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}

      <h3 className="mt-6 text-sm font-semibold text-gray-900">New access token</h3>
      {tokens.length >= max ? (
        <p className="mt-2 text-sm text-gray-600">You have {max} tokens, the most there can be: revoke one to create another.</p>
      ) : (
        <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="mt-2 grid gap-4 sm:grid-cols-2">
          <input type="hidden" name="intent" value="create-access-token" />
          <Field
            id={fields.name.id}
            name={fields.name.name}
            key={fields.name.key}
            label="Name"
            field={fields.name}
            hint="Which agent or script will use it, e.g. Claude Desktop"
            maxLength={TOKEN_NAME_MAX}
            autoComplete="off"
            defaultValue={fields.name.initialValue}
          />
          <Field
            as="select"
            id={fields.expiresInDays.id}
            name={fields.expiresInDays.name}
            key={fields.expiresInDays.key}
            label="Expires after"
            field={fields.expiresInDays}
            defaultValue={fields.expiresInDays.initialValue}
          >
            {TOKEN_EXPIRY_DAYS.map((days) => (
              <option key={days} value={days}>
                {EXPIRY_LABEL[days]}
              </option>
            ))}
          </Field>
          <fieldset className="sm:col-span-2" {...errorAria(fields.scopes)}>
            <legend className="text-sm font-medium text-gray-700">Scopes</legend>
            {(["read", "propose"] as const).map((scope) => (
              <label key={scope} className="mt-2 flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  name={fields.scopes.name}
                  value={scope}
                  defaultChecked={checkedScopes.includes(scope)}
                  key={`${fields.scopes.key}-${scope}`}
                  className="mt-1"
                />
                <span>
                  <span className="font-medium text-gray-900">{SCOPE_TEXT[scope].label}</span>
                  <span className="block text-gray-600">{SCOPE_TEXT[scope].hint}</span>
                </span>
              </label>
            ))}
            <FieldMessage field={fields.scopes} />
          </fieldset>
          <div className="sm:col-span-2">
            <button type="submit" disabled={busy} className={buttonClass}>
              Create token
            </button>
            {form.errors?.length ? (
              <p id={form.errorId} role="alert" className="mt-2 text-sm text-red-700">
                {form.errors[0]}
              </p>
            ) : null}
          </div>
        </Form>
      )}
    </section>
  );
}
