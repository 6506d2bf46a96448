import { Form } from "react-router";
import { formatCustomerId, formatDateTime } from "~/lib/format";
import { buttonClass, dangerButtonClass } from "./ui";

interface WebhookView {
  customerId: string;
  name: string;
  url: string;
  secret: string;
}

interface AttemptView {
  id: string;
  attempt: number;
  httpStatus: number | null;
  error: string | null;
  at: string;
  deliveryStatus: "pending" | "delivered" | "failed";
  customerId: string;
  alertTitle: string;
}

const DELIVERY_LABEL = { pending: "Retrying", delivered: "Delivered", failed: "Gave up" } as const;

/**
 * /settings: where each client account's new alerts are POSTed (Slack's
 * incoming webhooks take the `text` field as is), each webhook's signing
 * secret, and the last attempts. Plain forms, no JavaScript needed.
 */
export function AlertWebhooksSection({
  accounts,
  webhooks,
  log,
  busy,
}: {
  accounts: Array<{ customerId: string; name: string }>;
  webhooks: WebhookView[];
  log: AttemptView[];
  busy: boolean;
}) {
  if (accounts.length === 0) return null;
  return (
    <section className="mt-6 rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading" className="text-lg font-semibold text-gray-900">
        Alert webhooks
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        Each new alert of the account is POSTed as JSON with a <code className="rounded bg-gray-100 px-1">text</code> field (a Slack incoming webhook works as
        is). Verify it: <code className="break-words rounded bg-gray-100 px-1">X-Ads-Signature</code> is{" "}
        <code className="break-words rounded bg-gray-100 px-1">sha256=</code> and the hex HMAC-SHA256 of{" "}
        <code className="break-words rounded bg-gray-100 px-1">X-Ads-Timestamp + &quot;.&quot; + body</code> with the secret below. Muted rules and accounts are
        not sent; a refused delivery is tried again, up to 6 times.
      </p>

      {webhooks.length ? (
        <ul className="mt-4 divide-y divide-gray-100" aria-label="Your alert webhooks">
          {webhooks.map((w) => (
            <li key={w.customerId} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
              <div className="min-w-0 flex-1">
                <span className="font-medium text-gray-900">{w.name}</span> <span className="text-gray-500">{formatCustomerId(w.customerId)}</span>
                <span className="block break-all text-gray-700">{w.url}</span>
                <label className="mt-1 block text-xs text-gray-500">
                  Signing secret{" "}
                  <input
                    readOnly
                    value={w.secret}
                    aria-label={`Signing secret for ${w.name}`}
                    className="mt-0.5 block w-full max-w-sm rounded border border-gray-300 px-2 py-0.5 font-mono text-xs text-gray-900"
                  />
                </label>
              </div>
              <div className="flex gap-2">
                <Form method="post">
                  <input type="hidden" name="intent" value="rotate-webhook-secret" />
                  <input type="hidden" name="customerId" value={w.customerId} />
                  <button
                    type="submit"
                    disabled={busy}
                    className="rounded-lg border border-gray-300 px-3 py-2 text-sm font-semibold text-gray-700 hover:bg-gray-50"
                  >
                    New secret
                  </button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="intent" value="remove-webhook" />
                  <input type="hidden" name="customerId" value={w.customerId} />
                  <button type="submit" disabled={busy} aria-label={`Remove the webhook of ${w.name}`} className={dangerButtonClass}>
                    Remove
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-4 text-sm text-gray-600">No webhooks yet.</p>
      )}

      <Form method="post" className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_auto] sm:items-end">
        <input type="hidden" name="intent" value="set-webhook" />
        {/* Labelled by id, not wrapped: a wrapping label's name would include every option's account name. */}
        <div className="flex min-w-0 flex-col text-sm font-medium text-gray-700">
          <label htmlFor="webhook-account">Webhook account</label>
          {/* A long account name would widen the select past a phone's screen. */}
          <select id="webhook-account" name="customerId" className="mt-1 w-full min-w-0 rounded-md border border-gray-300 px-2 py-2 text-sm text-gray-900">
            {accounts.map((a) => (
              <option key={a.customerId} value={a.customerId}>
                {a.name} ({formatCustomerId(a.customerId)})
              </option>
            ))}
          </select>
        </div>
        <label className="flex min-w-0 flex-col text-sm font-medium text-gray-700">
          Webhook URL
          <input
            name="url"
            type="url"
            required
            maxLength={2000}
            placeholder="https://hooks.slack.com/services/…"
            className="mt-1 rounded-md border border-gray-300 px-2 py-2 text-sm text-gray-900"
          />
        </label>
        <button type="submit" disabled={busy} className={buttonClass}>
          Save webhook
        </button>
      </Form>

      <h3 className="mt-6 text-sm font-semibold text-gray-900">Delivery log</h3>
      {log.length ? (
        <div className="relative mt-2 overflow-x-auto">
          <table className="min-w-full text-left text-sm" aria-label="Webhook delivery log">
            <thead className="text-xs uppercase text-gray-500">
              <tr>
                <th className="py-1 pr-4">When</th>
                <th className="py-1 pr-4">Account</th>
                <th className="py-1 pr-4">Alert</th>
                <th className="py-1 pr-4">Attempt</th>
                <th className="py-1 pr-4">Answer</th>
                <th className="py-1">Delivery</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {log.map((l) => (
                <tr key={l.id}>
                  <td className="whitespace-nowrap py-1 pr-4 text-gray-700">{formatDateTime(l.at)}</td>
                  <td className="whitespace-nowrap py-1 pr-4 text-gray-700">{formatCustomerId(l.customerId)}</td>
                  <td className="py-1 pr-4 text-gray-900">{l.alertTitle}</td>
                  <td className="py-1 pr-4 text-gray-700">{l.attempt}</td>
                  <td className="py-1 pr-4 text-gray-700">{l.httpStatus ?? l.error ?? "No answer"}</td>
                  <td className="py-1 text-gray-700">{DELIVERY_LABEL[l.deliveryStatus]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="mt-2 text-sm text-gray-600">Nothing sent yet.</p>
      )}
    </section>
  );
}
