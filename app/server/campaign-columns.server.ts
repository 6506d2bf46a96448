import { redirect } from "react-router";
import { CAMPAIGN_COLUMNS_PREFERENCE, CampaignColumnsPreference, hiddenFromShown, type OptionalCampaignColumn } from "~/lib/campaign-columns";
import type { User } from "./db/schema";
import { getPreference, setPreference } from "./preferences.server";

export async function hiddenCampaignColumns(user: User): Promise<OptionalCampaignColumn[]> {
  return (await getPreference(user.id, CAMPAIGN_COLUMNS_PREFERENCE, CampaignColumnsPreference))?.hidden ?? [];
}

/** Only this site's own pages: "/campaigns?…", never "//evil" or "https://…". */
function localPath(value: FormDataEntryValue | null): string {
  return typeof value === "string" && /^\/(?!\/|\\)/.test(value) && value.startsWith("/campaigns") ? value : "/campaigns";
}

/** The column chooser's POST: keep the choice for this user, then back to the same view (303, so reload does not re-post). */
export async function saveCampaignColumns(user: User, form: FormData) {
  const shown = form.getAll("column").filter((v): v is string => typeof v === "string");
  await setPreference(user.id, CAMPAIGN_COLUMNS_PREFERENCE, { hidden: hiddenFromShown(shown) });
  return redirect(localPath(form.get("returnTo")), 303);
}
