import { useState } from "react";
import { Form, Link, useLocation } from "react-router";
import { formatCustomerId } from "~/lib/format";

export interface SwitcherAccount {
  customerId: string;
  name: string;
  /** The manager's name, or null for an account reached directly. */
  manager: string | null;
}

/** How many accounts the menu lists; the rest are one search away on /accounts. */
const SHOWN = 30;

/**
 * The header's account switcher (issue 31 point 1): a disclosure listing the
 * client accounts under their managers, each a one-button form that makes
 * it the active account and comes back to the same screen. With JavaScript
 * the box filters the list as one types; without, it is a search of
 * /accounts (a GET form), so both work.
 */
export function AccountSwitcher({
  accounts,
  active,
  inline = false,
}: {
  accounts: SwitcherAccount[];
  active: { customerId: string; name: string } | null;
  /** Inside the phone's menu (itself a disclosure): shown open, without a disclosure of its own. */
  inline?: boolean;
}) {
  const location = useLocation();
  const [filter, setFilter] = useState("");
  const needle = filter.trim().toLowerCase();
  const matching = needle
    ? accounts.filter(
        (a) => a.name.toLowerCase().includes(needle) || a.customerId.includes(needle.replace(/-/g, "")) || a.manager?.toLowerCase().includes(needle),
      )
    : accounts;
  const shown = matching.slice(0, SHOWN);
  const groups = new Map<string, SwitcherAccount[]>();
  for (const a of shown) {
    const key = a.manager ?? "Direct access";
    groups.set(key, [...(groups.get(key) ?? []), a]);
  }
  // Back to the screen the person is on, unless it belongs to the previous account (a campaign, a change set).
  const returnTo = /^\/(campaigns|changes)\//.test(location.pathname) ? location.pathname.split("/").slice(0, 2).join("/") : location.pathname;
  const body = (
    <div className="space-y-2 px-3 pb-3">
      <Form method="get" action="/accounts" role="search" aria-label="Account search">
        <label className="block text-xs font-medium text-gray-600">
          Find an account
          <input
            type="search"
            name="q"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            maxLength={100}
            placeholder="Name or customer ID"
            className="mt-0.5 w-full rounded-md border border-gray-300 px-2 py-1 text-sm text-gray-900"
          />
        </label>
      </Form>
      <div className="relative max-h-72 overflow-y-auto">
        {[...groups].map(([manager, list]) => (
          <div key={manager} role="group" aria-label={manager}>
            <p className="px-1 pt-1 text-xs font-semibold uppercase tracking-wide text-gray-500">{manager}</p>
            <ul>
              {list.map((a) => (
                <li key={a.customerId}>
                  <Form method="post" action="/accounts">
                    <input type="hidden" name="intent" value="select-account" />
                    <input type="hidden" name="customerId" value={a.customerId} />
                    <input type="hidden" name="returnTo" value={returnTo} />
                    <button
                      type="submit"
                      aria-current={a.customerId === active?.customerId ? "true" : undefined}
                      className="w-full rounded px-2 py-1 text-left text-sm text-gray-800 hover:bg-blue-50 aria-[current=true]:font-semibold aria-[current=true]:text-blue-700"
                    >
                      <span className="block truncate">{a.name}</span>
                      <span className="block text-xs text-gray-500">{formatCustomerId(a.customerId)}</span>
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          </div>
        ))}
        {matching.length === 0 ? <p className="px-1 py-2 text-sm text-gray-500">No account matches.</p> : null}
      </div>
      <Link to="/accounts" className="block px-1 text-sm font-semibold text-blue-700 hover:underline">
        All accounts{matching.length > SHOWN ? ` (${matching.length - SHOWN} more)` : ""}
      </Link>
    </div>
  );
  if (inline) {
    return (
      <section className="border-b border-gray-100 pt-2" aria-label="Switch account" data-testid="account-switcher">
        <p className="px-5 text-xs text-gray-500">
          Account: <span className="font-medium text-gray-900">{active ? active.name : "none chosen"}</span>
        </p>
        {body}
      </section>
    );
  }
  return (
    <details className="group relative border-b border-gray-200" data-testid="account-switcher">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-2 px-5 py-2 text-sm hover:bg-gray-50 [&::-webkit-details-marker]:hidden">
        <span className="min-w-0">
          <span className="block text-xs text-gray-500">Account</span>
          <span className="block truncate font-medium text-gray-900">{active ? active.name : "Choose an account"}</span>
        </span>
        <span aria-hidden="true" className="text-gray-400 group-open:rotate-180">
          ▾
        </span>
        <span className="sr-only">Switch account</span>
      </summary>
      {body}
    </details>
  );
}
