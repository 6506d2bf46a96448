// The anomaly checks' rules (issue 31 point 3, ADR 029) and their names on screen, shared by the server and the pages.
export const ALERT_RULES = [
  "spend_spike",
  "spend_drop",
  "conversions_drop",
  "cpa_spike",
  "no_impressions",
  "pacing_off",
  "outside_change",
  "auto_applied",
] as const;

export type AlertRuleName = (typeof ALERT_RULES)[number];

export const RULE_LABEL: Record<AlertRuleName, string> = {
  spend_spike: "Spend spike",
  spend_drop: "Spend drop",
  conversions_drop: "Conversions drop",
  cpa_spike: "Cost per conversion spike",
  no_impressions: "Campaign not serving",
  pacing_off: "Pacing off plan",
  outside_change: "Changed outside the product",
  auto_applied: "Auto-applied by Google",
};
