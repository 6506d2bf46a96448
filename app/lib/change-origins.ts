// Where a change set was proposed (0160_change_set_origin), and how the screens name it.
// Browser-safe: the Drafts list and the review page show it, the server stores and filters it.

export const CHANGE_SET_ORIGINS = ["chat", "ad_generator", "recommendation", "campaign", "api", "revert", "mcp"] as const;
export type ChangeSetOrigin = (typeof CHANGE_SET_ORIGINS)[number];

export const ORIGIN_LABEL: Record<ChangeSetOrigin, string> = {
  chat: "In a chat with the assistant",
  ad_generator: "On the ad generator",
  recommendation: "From a recommendation",
  campaign: "On the campaign screens",
  api: "Through the API",
  revert: "Undoing an earlier change set",
  mcp: "By your own agent, over MCP",
};
