import { isRecommendationType, recommendationList } from "./recommendations";
import { hrefWith } from "./query";
import { isUuid } from "./uuid";

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

export function optimizerHref(
  current: URLSearchParams | string,
  changes: { chat?: string | null; recs?: string | null; group?: string | null; campaign?: string | null; type?: string | null },
  hash?: string,
): string {
  const from = new URLSearchParams(current);
  const chat = from.get("chat");
  const recs = recommendationList(from.get("recs"));
  const group = from.get("group");
  const kept = new URLSearchParams();
  if (chat && isUuid(chat)) kept.set("chat", chat);
  if (recs) kept.set("recs", recs);
  // A recommendation type (weak_ad, paused_converting…): the group of the list shown in full.
  if (group && isRecommendationType(group)) kept.set("group", group);
  // The list's filters (issue 29 point 5): a campaign id and a recommendation type.
  const campaign = from.get("campaign");
  if (campaign && /^\d{1,20}$/.test(campaign)) kept.set("campaign", campaign);
  const type = from.get("type");
  if (type && isRecommendationType(type)) kept.set("type", type);
  const href = hrefWith(OPTIMIZER_PATH, kept, changes);
  return hash ? `${href}#${hash}` : href;
}
