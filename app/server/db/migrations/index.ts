import type { Migration } from "kysely";
import * as m0001 from "./0001_init";
import * as m0002 from "./0002_google";
import * as m0003 from "./0003_ads_data";
import * as m0004 from "./0004_change_sets";
import * as m0010 from "./0010_one_open_revert";
import * as m0011 from "./0011_email_verified";
import * as m0030 from "./0030_recommendations";
import * as m0035 from "./0035_window_totals";
import * as m0050 from "./0050_chats";
import * as m0060 from "./0060_user_preferences";
import * as m0080 from "./0080_optimizer_in_flight";
import * as m0095 from "./0095_data_version";
import * as m0096 from "./0096_sync_detail_state";
import * as m0100 from "./0100_ai_metering";
import * as m0110 from "./0110_rate_limits";
import * as m0111 from "./0111_hashed_sessions_and_codes";
import * as m0112 from "./0112_google_sub";
import * as m0113 from "./0113_access_checked";
import * as m0120 from "./0120_incremental_sync";
import * as m0121 from "./0121_google_ads_operations";
import * as m0130 from "./0130_jobs";
import * as m0131 from "./0131_change_set_lease";
import * as m0132 from "./0132_mail_outbox";
import * as m0133 from "./0133_history_import_state";
import * as m0140 from "./0140_change_set_recommendations";
import * as m0160 from "./0160_change_set_origin";
import * as m0170 from "./0170_impact_records";
import * as m0180 from "./0180_access_tokens";
import * as m0190 from "./0190_budget_plans";
import * as m0191 from "./0191_alerts";
import * as m0192 from "./0192_alert_webhooks";
import * as m0200 from "./0200_pmax_asset_groups";

// Listed explicitly (not read from disk) so the bundled server build carries them.
export const migrations: Record<string, Migration> = {
  "0001_init": m0001,
  "0002_google": m0002,
  "0003_ads_data": m0003,
  "0004_change_sets": m0004,
  "0010_one_open_revert": m0010,
  "0011_email_verified": m0011,
  "0030_recommendations": m0030,
  "0035_window_totals": m0035,
  "0050_chats": m0050,
  "0060_user_preferences": m0060,
  "0080_optimizer_in_flight": m0080,
  "0095_data_version": m0095,
  "0096_sync_detail_state": m0096,
  "0100_ai_metering": m0100,
  "0110_rate_limits": m0110,
  "0111_hashed_sessions_and_codes": m0111,
  "0112_google_sub": m0112,
  "0113_access_checked": m0113,
  "0120_incremental_sync": m0120,
  "0121_google_ads_operations": m0121,
  "0130_jobs": m0130,
  "0131_change_set_lease": m0131,
  "0132_mail_outbox": m0132,
  "0133_history_import_state": m0133,
  "0140_change_set_recommendations": m0140,
  "0160_change_set_origin": m0160,
  "0170_impact_records": m0170,
  "0180_access_tokens": m0180,
  "0190_budget_plans": m0190,
  "0191_alerts": m0191,
  "0192_alert_webhooks": m0192,
  "0200_pmax_asset_groups": m0200,
};
