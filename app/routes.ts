import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

// Every URL of the product, in one place.
export default [
  route("login", "routes/login.tsx"),
  route("logout", "routes/logout.tsx"),
  // The link in the address-confirmation email (asks for the account's password).
  route("verify-email", "routes/verify-email.tsx"),
  // "Forgot password": asks for the address, then the mailed link's page sets the new password.
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  layout("routes/app-layout.tsx", [
    index("routes/home.tsx"),
    // Every client account on one screen (issue 31); the landing page with more than one.
    route("accounts", "routes/accounts.tsx"),
    // What the checks after each refresh found (issue 31 point 3); the bell in the navigation counts the unread.
    route("alerts", "routes/alerts.tsx"),
    route("dashboard", "routes/dashboard.tsx"),
    route("dashboard/score", "routes/performance-score.tsx"),
    route("campaigns", "routes/campaigns.tsx"),
    route("campaigns/:campaignId", "routes/campaign-detail.tsx"),
    route("campaigns/:campaignId/ads/new", "routes/new-ad.tsx"),
    route("changes/:changeSetId", "routes/change-set.tsx"),
    route("ai-optimizer", "routes/ai-optimizer.tsx"),
    route("ad-generator", "routes/ad-generator.tsx"),
    route("history", "routes/history.tsx"),
    // Change sets proposed but not applied (chat, ad generator, recommendations, campaign screens), with bulk discard.
    route("drafts", "routes/drafts.tsx"),
    route("settings", "routes/settings.tsx"),
  ]),
  // The chat's streaming endpoint (cookie session): POST a question, read the answer as it is written.
  route("ai-optimizer/chat", "routes/ai-optimizer-chat.ts"),
  // "Download CSV" of the report tables (cookie session; same query as the page).
  route("export/campaigns", "routes/export/campaigns.ts"),
  route("export/campaigns/:campaignId", "routes/export/campaign-tab.ts"),
  route("export/history", "routes/export/history.ts"),
  route("export/accounts", "routes/export/accounts.ts"),
  // The pages' own freshness endpoint (cookie session): GET polls, POST is "Sync now".
  route("sync", "routes/sync.ts"),
  // The same for the recommendations engine: GET polls while an analysis is in flight.
  route("analysis", "routes/analysis.ts"),
  // The MCP server for a person's own AI agent (personal access tokens; look and propose, never apply).
  route("mcp", "routes/mcp.ts"),
  ...prefix("api/v1", [
    route("auth/register", "routes/api/auth-register.ts"),
    route("auth/login", "routes/api/auth-login.ts"),
    route("auth/logout", "routes/api/auth-logout.ts"),
    route("auth/me", "routes/api/auth-me.ts"),
    route("auth/google", "routes/api/auth-google.ts"),
    route("auth/google/callback", "routes/api/auth-google-callback.ts"),
    route("accounts", "routes/api/accounts.ts"),
    route("accounts/overview", "routes/api/accounts-overview.ts"),
    route("accounts/:customerId/budget-plan", "routes/api/account-budget-plan.ts"),
    route("accounts/:customerId/budget-plan/proposal", "routes/api/account-budget-proposal.ts"),
    route("alerts", "routes/api/alerts.ts"),
    route("alerts/read", "routes/api/alerts-read.ts"),
    route("alerts/mutes", "routes/api/alert-mutes.ts"),
    route("alerts/:alertId/resolve", "routes/api/alert-resolve.ts"),
    route("accounts/:customerId/campaigns", "routes/api/account-campaigns.ts"),
    route("accounts/:customerId/summary", "routes/api/account-summary.ts"),
    route("accounts/:customerId/sync", "routes/api/account-sync.ts"),
    route("openapi.json", "routes/api/openapi.ts"),
    route("history", "routes/api/history.ts"),
    route("accounts/:customerId/change-sets", "routes/api/account-change-sets.ts"),
    route("change-sets/:changeSetId", "routes/api/change-set.ts"),
    route("change-sets/:changeSetId/validate", "routes/api/change-set-validate.ts"),
    route("change-sets/:changeSetId/apply", "routes/api/change-set-apply.ts"),
    route("change-sets/:changeSetId/discard", "routes/api/change-set-discard.ts"),
    route("change-sets/:changeSetId/revert", "routes/api/change-set-revert.ts"),
    route("drafts", "routes/api/drafts.ts"),
    route("drafts/discard", "routes/api/drafts-discard.ts"),
    route("change-sets/:changeSetId/impact", "routes/api/change-set-impact.ts"),
    route("ad-copy", "routes/api/ad-copy.ts"),
    route("chat", "routes/api/chat.ts"),
    route("chats", "routes/api/chats.ts"),
    route("chats/:chatId", "routes/api/chat-detail.ts"),
    route("accounts/:customerId/recommendations", "routes/api/account-recommendations.ts"),
    route("recommendations/:recommendationId/apply", "routes/api/recommendation-apply.ts"),
    route("recommendations/:recommendationId/dismiss", "routes/api/recommendation-dismiss.ts"),
    route("recommendations/:recommendationId/snooze", "routes/api/recommendation-snooze.ts"),
    route("recommendations/:recommendationId/restore", "routes/api/recommendation-restore.ts"),
    route("*", "routes/api/not-found.ts"),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
