import { useEffect, useRef } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { clearAuthState } from "~/lib/auth-storage";
import { formatCustomerId } from "~/lib/format";
import { AccountSwitcher, type SwitcherAccount } from "./account-switcher";

const NAV = [
  { to: "/dashboard", label: "Dashboard", icon: "M3 12l9-9 9 9M5 10v10h5v-6h4v6h5V10" },
  { to: "/campaigns", label: "Campaigns", icon: "M4 6h16M4 12h16M4 18h10" },
  { to: "/ai-optimizer", label: "AI Optimizer", icon: "M12 3v3m0 12v3m9-9h-3M6 12H3m13.5-6.5-2 2m-7 7-2 2m11 0-2-2m-7-7-2-2" },
  { to: "/ad-generator", label: "Ad Generator", icon: "M4 20h4l10-10-4-4L4 16v4zM14 6l4 4" },
  { to: "/history", label: "History", icon: "M12 8v4l3 3M21 12a9 9 0 1 1-3-6.7L21 8M21 3v5h-5" },
];
// With two or more client accounts: every one of them on one screen (issue 31).
const ACCOUNTS = { to: "/accounts", label: "Accounts", icon: "M3 7h18M3 12h18M3 17h18M7 3v18" };
// With a client account: the bell, counting the alerts not yet read.
const ALERTS = {
  to: "/alerts",
  label: "Alerts",
  icon: "M15 17h5l-1.4-1.4A2 2 0 0 1 18 14.2V11a6 6 0 0 0-4-5.7V5a2 2 0 1 0-4 0v.3A6 6 0 0 0 6 11v3.2a2 2 0 0 1-.6 1.4L4 17h5m6 0v1a3 3 0 1 1-6 0v-1m6 0H9",
};
// With an account connected: where proposed changes wait (the seed's five screens stay as they are without one).
const DRAFTS = {
  to: "/drafts",
  label: "Drafts",
  icon: "M9 5H7a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-2M9 5a2 2 0 0 0 2 2h2a2 2 0 0 0 2-2M9 5a2 2 0 0 1 2-2h2a2 2 0 0 1 2 2m-6 9 2 2 4-4",
};

interface SidebarProps {
  email: string;
  activeAccount: { customerId: string; name: string } | null;
  /** Drafts waiting in the active account; null without one (then no Drafts item). */
  draftCount: number | null;
  /** The client accounts to switch between (two or more), else null: no switcher. */
  switcher?: SwitcherAccount[] | null;
  /** Unread alerts (the bell); null without a client account: no bell. */
  unreadAlerts?: number | null;
}

/**
 * The navigation, in two shapes: a fixed sidebar from `md` up, and below it a
 * top bar whose menu is a `<details>` disclosure, so it opens and closes
 * without JavaScript. Only one of the two is displayed at a time (the other is
 * `display: none`, so it is out of the accessibility tree as well).
 */
export function Sidebar(props: SidebarProps) {
  return (
    <>
      <MobileMenu {...props} />
      <aside className="hidden w-52 shrink-0 flex-col border-r border-gray-200 bg-white md:flex">
        <div className="border-b border-gray-200 px-5 py-5">
          <p className="whitespace-nowrap text-base font-bold text-gray-900">Ads AI Manager</p>
          <p className="mt-0.5 truncate text-xs text-gray-500" title={props.email}>
            {props.email}
          </p>
        </div>
        {props.switcher ? <AccountSwitcher accounts={props.switcher} active={props.activeAccount} /> : null}
        <NavContents {...props} />
      </aside>
    </>
  );
}

function MobileMenu(props: SidebarProps) {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  // With JavaScript, a client-side navigation keeps the document: close the menu
  // once a link in it has been followed (without JavaScript the page reloads closed).
  useEffect(() => {
    if (ref.current) ref.current.open = false;
    // By key, not by address: the account switcher posts and comes back to the same address.
  }, [location.key]);
  return (
    <details ref={ref} className="group sticky top-0 z-30 border-b border-gray-200 bg-white md:hidden" data-testid="mobile-menu">
      <summary className="flex cursor-pointer list-none items-center justify-between px-4 py-3 [&::-webkit-details-marker]:hidden">
        <span className="text-base font-bold text-gray-900">Ads AI Manager</span>
        <span className="flex items-center gap-2 rounded-md border border-gray-300 px-3 py-1.5 text-sm font-medium text-gray-700">
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2}>
            <path strokeLinecap="round" d="M4 7h16M4 12h16M4 17h16" className="group-open:hidden" />
            <path strokeLinecap="round" d="M6 6l12 12M18 6 6 18" className="hidden group-open:block" />
          </svg>
          Menu
        </span>
      </summary>
      <div className="border-t border-gray-100 pb-2">
        <p className="truncate px-6 pt-3 text-xs text-gray-500">{props.email}</p>
        {/* Open in the menu: a second disclosure inside this one would be one more tap, and one more summary. */}
        {props.switcher ? <AccountSwitcher accounts={props.switcher} active={props.activeAccount} inline /> : null}
        <NavContents {...props} />
      </div>
    </details>
  );
}

function NavContents({ activeAccount, draftCount, switcher, unreadAlerts }: SidebarProps) {
  // With several client accounts, the overview of them all comes first.
  const items = [...(switcher ? [ACCOUNTS] : []), ...NAV, ...(draftCount === null ? [] : [DRAFTS]), ...(unreadAlerts == null ? [] : [ALERTS])];
  return (
    <>
      <nav aria-label="Main" className="flex-1 space-y-1 px-3 py-4">
        {items.map((item) => (
          <NavLink
            key={item.to}
            to={item.to}
            className={({ isActive }) =>
              `flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium ${isActive ? "bg-blue-50 text-blue-700" : "text-gray-700 hover:bg-gray-100"}`
            }
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth={1.8}>
              <path strokeLinecap="round" strokeLinejoin="round" d={item.icon} />
            </svg>
            {item.label}
            {item === ALERTS && unreadAlerts ? (
              <span className="ml-auto rounded-full bg-red-600 px-2 py-0.5 text-xs font-semibold text-white" data-testid="alert-count">
                {unreadAlerts}
                <span className="sr-only"> unread</span>
              </span>
            ) : null}
            {item === DRAFTS && draftCount ? (
              <span className="ml-auto rounded-full bg-blue-600 px-2 py-0.5 text-xs font-semibold text-white" data-testid="draft-count">
                {draftCount}
                <span className="sr-only"> waiting</span>
              </span>
            ) : null}
          </NavLink>
        ))}
      </nav>
      <div className="border-t border-gray-200 p-3">
        <Link to="/settings" className="mb-1 block rounded-lg px-3 py-2 text-sm text-gray-700 hover:bg-gray-100" aria-label="Account settings">
          <span className="block font-medium">Settings</span>
          <span className="block truncate text-xs text-gray-500">
            {activeAccount ? `${activeAccount.name} · ${formatCustomerId(activeAccount.customerId)}` : "Google Ads not connected"}
          </span>
        </Link>
        <Form method="post" action="/logout" onSubmit={() => clearAuthState()}>
          <button
            type="submit"
            className="flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-gray-700 hover:bg-red-50 hover:text-red-700"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth={1.8}>
              <path strokeLinecap="round" strokeLinejoin="round" d="M15 12H4m0 0 4-4m-4 4 4 4M14 4h5a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1h-5" />
            </svg>
            Logout
          </button>
        </Form>
      </div>
    </>
  );
}
