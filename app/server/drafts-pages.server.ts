import { data } from "react-router";
import { z } from "zod";
import type { User } from "./db/schema";
import { DRAFTS_PAGE_SIZE, DraftsQuery, discardDrafts, listDrafts } from "./changes/drafts.server";
import { formFailure } from "./http/page-errors.server";
import { activeAccountOf } from "./account-access.server";
import { redirectWithToast } from "./toast.server";

// /drafts: the active account's change sets proposed but not applied, with filters in the
// address (a GET form) and a bulk Discard (a POST form with a box per row): both work
// without JavaScript.

const PageQuery = DraftsQuery.omit({ customerId: true });

export async function draftsPage(user: User, url: URL) {
  const account = await activeAccountOf(user);
  if (!account) return { connected: false as const };
  const raw = Object.fromEntries([...url.searchParams].filter(([k, v]) => v !== "" && k in PageQuery.shape));
  const parsed = PageQuery.safeParse(raw);
  // A bad filter in the address falls back to no filter, with a notice, like history.
  const filters = parsed.success ? parsed.data : PageQuery.parse({});
  const { drafts, total } = await listDrafts(user.id, { ...filters, customerId: account.customerId });
  return {
    connected: true as const,
    account: { customerId: account.customerId, name: account.name, timeZone: account.timeZone },
    filters,
    filtered: Object.keys(raw).some((k) => k !== "page"),
    notice: parsed.success ? null : `Ignored an invalid filter in the address (${parsed.error.issues[0].message}); showing all drafts.`,
    drafts,
    total,
    pageSize: DRAFTS_PAGE_SIZE,
  };
}

const DiscardForm = z.object({ intent: z.literal("discard"), id: z.array(z.string()) });

/** "Discard selected": the ticked drafts are discarded, and the list comes back with the same filters. */
export async function draftsAction(user: User, form: FormData, url: URL) {
  const parsed = DiscardForm.safeParse({ intent: form.get("intent"), id: form.getAll("id") });
  if (!parsed.success) return data({ formError: "Unknown action" }, { status: 400 });
  if (parsed.data.id.length === 0) return data({ formError: "Tick the drafts to discard first." }, { status: 400 });
  const account = await activeAccountOf(user);
  if (!account) return data({ formError: "Connect a Google Ads account first" }, { status: 409 });
  try {
    const { discarded, notDiscarded } = await discardDrafts(user.id, parsed.data.id);
    const back = `/drafts${url.search}`;
    const done = discarded.length === 1 ? "Discarded 1 draft" : `Discarded ${discarded.length} drafts`;
    if (notDiscarded.length === 0) return redirectWithToast(back, { type: "success", message: `${done}; nothing was sent to Google` });
    return redirectWithToast(back, {
      type: "error",
      message: `${done}; ${notDiscarded.length} could not be: ${notDiscarded[0].reason.toLowerCase()}${notDiscarded.length > 1 ? ", …" : ""}`,
    });
  } catch (error) {
    const failure = formFailure(error);
    if (!failure) throw error;
    return data({ formError: failure.formError }, { status: failure.status });
  }
}
