import { z } from "zod";

/**
 * The campaigns table's columns a person can hide with the column chooser
 * (the checkbox and the name always show). The choice is kept per user on the
 * server under CAMPAIGN_COLUMNS_PREFERENCE.
 */
export const OPTIONAL_CAMPAIGN_COLUMNS = [
  { key: "status", label: "Status" },
  { key: "channelType", label: "Type" },
  { key: "budget", label: "Budget" },
  { key: "biddingStrategyType", label: "Bidding" },
  { key: "impressions", label: "Impressions" },
  { key: "clicks", label: "Clicks" },
  { key: "ctr", label: "CTR" },
  { key: "averageCpc", label: "Avg. CPC" },
  { key: "cost", label: "Cost" },
  { key: "conversions", label: "Conversions" },
  { key: "costPerConversion", label: "Cost/conv." },
  { key: "conversionValuePerCost", label: "Conv. value/cost" },
] as const;

export type OptionalCampaignColumn = (typeof OPTIONAL_CAMPAIGN_COLUMNS)[number]["key"];

export const CAMPAIGN_COLUMNS_PREFERENCE = "campaigns.columns";

const KEYS = OPTIONAL_CAMPAIGN_COLUMNS.map((c) => c.key) as [OptionalCampaignColumn, ...OptionalCampaignColumn[]];

/** What is stored: the hidden columns (so a column added later shows by default). */
export const CampaignColumnsPreference = z.object({ hidden: z.array(z.enum(KEYS)).max(KEYS.length) });

/** The chooser's submitted boxes (the columns to show) → the columns to hide; unknown names are ignored. */
export function hiddenFromShown(shown: string[]): OptionalCampaignColumn[] {
  return KEYS.filter((key) => !shown.includes(key));
}
