import { Form } from "react-router";
import { formatDateTime } from "~/lib/format";
import { dangerButtonClass } from "./ui";

export interface SessionRow {
  id: string;
  createdAt: string;
  device: string;
  current: boolean;
}

/** /settings: where the account is signed in, and the way to end it all at once (works without JavaScript). */
export function SessionsSection({ sessions, busy }: { sessions: SessionRow[]; busy: boolean }) {
  return (
    <section className="mt-6 rounded-xl border border-gray-200 bg-white p-6 shadow-sm" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading" className="text-lg font-semibold text-gray-900">
        Signed-in devices
      </h2>
      <p className="mt-1 text-sm text-gray-600">Every sign-in below is also an API token. Signing out everywhere ends them all, this one included.</p>
      <ul className="mt-3 divide-y divide-gray-100" aria-label="Active sessions">
        {sessions.map((s) => (
          <li key={s.id} className="py-3 text-sm">
            <span className="block break-words text-gray-900">{s.device}</span>
            <span className="text-gray-500">
              Signed in {formatDateTime(s.createdAt)}
              {s.current ? (
                <span className="ml-2 inline-block whitespace-nowrap rounded bg-blue-50 px-2 py-0.5 text-xs font-semibold text-blue-700">This device</span>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
      <Form method="post" className="mt-4">
        <input type="hidden" name="intent" value="sign-out-everywhere" />
        <button type="submit" disabled={busy} className={dangerButtonClass}>
          Sign out everywhere
        </button>
      </Form>
    </section>
  );
}
