import { RECOMMENDATION_LISTS } from "./recommendations";
import { hrefWith } from "./query";

/**
 * The AI Optimizer's address. It holds the state of both halves of the screen,
 * the open chat (`chat`) and the recommendations list (`recs`, and `group`, the
 * group shown in full), and every link,
 * form and redirect between them keeps the other half's: dismissing a
 * recommendation beside a conversation must not close the conversation.
 * Anything else in the query is dropped, and values that could not be ours
 * (not an id, not a list) are not carried along.
 */
export const OPTIMIZER_PATH = "/ai-optimizer";

// A recommendation type (weak_ad, paused_converting…): the group of the list shown in full.
const GROUP = /^[a-z_]{1,40}$/;
const CHAT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function optimizerHref(
  current: URLSearchParams | string,
  changes: { chat?: string | null; recs?: string | null; group?: string | null },
  hash?: string,
): string {
  const from = new URLSearchParams(current);
  const chat = from.get("chat");
  const recs = from.get("recs");
  const group = from.get("group");
  const kept = new URLSearchParams();
  if (chat && CHAT_ID.test(chat)) kept.set("chat", chat);
  if (recs && (RECOMMENDATION_LISTS as readonly string[]).includes(recs)) kept.set("recs", recs);
  if (group && GROUP.test(group)) kept.set("group", group);
  const href = hrefWith(OPTIMIZER_PATH, kept, changes);
  return hash ? `${href}#${hash}` : href;
}
