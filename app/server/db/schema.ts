import type { Generated, Insertable, Selectable, Updateable } from "kysely";
import type { ChangeSetOrigin } from "~/lib/change-origins";

// Timestamps are ISO-8601 UTC strings: they sort and compare the same way in
// SQLite and PostgreSQL, and read clearly in either shell.

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  /** When the owner proved the address (confirmation link, or Google's verified email); null: unproved. */
  email_verified_at: string | null;
  /** The Google account (its stable `sub`) that signs in as this user; null: none (migration 0112). */
  google_sub: string | null;
  active_customer_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  /** sha256 of the session id the cookie carries (migration 0111); the id itself is never stored. */
  id: string;
  user_id: string;
  /** sha256 of the API access token; the token itself is never stored. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  user_agent: string | null;
}

export interface GoogleConnectionsTable {
  id: string;
  user_id: string;
  google_sub: string;
  google_email: string;
  /** AES-256-GCM, versioned; see crypto.server.ts. */
  refresh_token_enc: string;
  access_token_enc: string | null;
  access_token_expires_at: string | null;
  scopes: string;
  status: "active" | "reconnect_needed";
  status_reason: string | null;
  /** Why the account list could not be loaded last time (null when it could). */
  accounts_error: string | null;
  accounts_synced_at: string | null;
  /** When the accounts Google grants were last re-checked (or the check claimed); see ads/access-check.server.ts. */
  access_checked_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AdsAccountsTable {
  user_id: string;
  customer_id: string;
  connection_id: string;
  name: string;
  currency_code: string;
  time_zone: string;
  manager: number;
  /** The manager through which this account is reached, sent as login-customer-id. */
  login_customer_id: string | null;
  updated_at: string;
}

// ---- Google Ads data (0003_ads_data), keyed by customer_id, replaced whole by each sync.
// Micros and counts are int64 read as numbers; dates are YYYY-MM-DD in the account's time zone.

export interface AdsMetricColumns {
  impressions: number;
  clicks: number;
  cost_micros: number;
  conversions: number;
  conversions_value: number;
}

export interface AdsCampaignsTable {
  customer_id: string;
  id: string;
  name: string;
  status: string;
  serving_status: string | null;
  primary_status: string | null;
  /** JSON array of enum names. */
  primary_status_reasons: string | null;
  advertising_channel_type: string;
  bidding_strategy_type: string;
  target_cpa_micros: number | null;
  target_roas: number | null;
  budget_resource_name: string | null;
  budget_amount_micros: number | null;
  budget_period: string | null;
  budget_explicitly_shared: number | null;
  start_date: string | null;
  end_date: string | null;
}

export interface AdsCampaignDailyTable extends AdsMetricColumns {
  customer_id: string;
  campaign_id: string;
  date: string;
  search_impression_share: number | null;
  search_budget_lost_impression_share: number | null;
  search_rank_lost_impression_share: number | null;
}

export interface AdsAdGroupsTable {
  customer_id: string;
  id: string;
  campaign_id: string;
  name: string;
  status: string;
  type: string | null;
  cpc_bid_micros: number | null;
  target_cpa_micros: number | null;
  target_roas: number | null;
}

export interface AdsAdGroupDailyTable extends AdsMetricColumns {
  customer_id: string;
  ad_group_id: string;
  campaign_id: string;
  date: string;
}

export interface AdsKeywordsTable {
  customer_id: string;
  ad_group_id: string;
  criterion_id: string;
  campaign_id: string;
  text: string;
  match_type: string;
  status: string;
  negative: number;
  cpc_bid_micros: number | null;
  effective_cpc_bid_micros: number | null;
  quality_score: number | null;
  creative_quality_score: string | null;
  post_click_quality_score: string | null;
  search_predicted_ctr: string | null;
  system_serving_status: string | null;
  approval_status: string | null;
}

export interface AdsKeywordDailyTable extends AdsMetricColumns {
  customer_id: string;
  ad_group_id: string;
  criterion_id: string;
  campaign_id: string;
  date: string;
  search_impression_share: number | null;
  search_rank_lost_impression_share: number | null;
}

export interface AdsCampaignNegativeKeywordsTable {
  customer_id: string;
  campaign_id: string;
  criterion_id: string;
  text: string;
  match_type: string;
  status: string | null;
}

export interface AdsAdsTable {
  customer_id: string;
  ad_group_id: string;
  ad_id: string;
  campaign_id: string;
  type: string | null;
  status: string;
  ad_strength: string | null;
  approval_status: string | null;
  /** JSON [{text, pinnedField?, assetPerformanceLabel?}]. */
  headlines: string;
  descriptions: string;
  path1: string | null;
  path2: string | null;
  /** JSON array of URLs. */
  final_urls: string;
}

export interface AdsAdDailyTable extends AdsMetricColumns {
  customer_id: string;
  ad_group_id: string;
  ad_id: string;
  campaign_id: string;
  date: string;
}

export interface AdsAdAssetsTable {
  customer_id: string;
  ad_group_id: string;
  ad_id: string;
  asset_id: string;
  field_type: string;
  campaign_id: string;
  text: string | null;
  performance_label: string | null;
  pinned_field: string | null;
  enabled: number | null;
}

/** Performance Max (issue 32): asset groups, their assets and listing groups, read only. */
export interface AdsAssetGroupsTable {
  customer_id: string;
  id: string;
  campaign_id: string;
  name: string;
  status: string;
  ad_strength: string | null;
  primary_status: string | null;
  final_url: string | null;
}

export interface AdsAssetGroupAssetsTable {
  customer_id: string;
  asset_group_id: string;
  asset_id: string;
  field_type: string;
  campaign_id: string;
  asset_type: string | null;
  text: string | null;
  name: string | null;
  status: string | null;
  primary_status: string | null;
  primary_status_reasons: string | null;
}

export interface AdsAssetGroupListingGroupsTable {
  customer_id: string;
  asset_group_id: string;
  id: string;
  campaign_id: string;
  type: string;
  brand: string | null;
  product_type: string | null;
  parent_id: string | null;
}

export interface AdsSearchTermDailyTable extends AdsMetricColumns {
  customer_id: string;
  campaign_id: string;
  ad_group_id: string;
  search_term: string;
  status: string;
  /** segments.search_term_match_type. */
  match_type: string | null;
  keyword_criterion_id: string | null;
  keyword_text: string | null;
  keyword_match_type: string | null;
  date: string;
}

export interface AdsSyncStateTable {
  customer_id: string;
  status: "never" | "running" | "ok" | "failed";
  run_id: string | null;
  started_at: string | null;
  finished_at: string | null;
  heartbeat_at: string | null;
  last_success_at: string | null;
  last_error: string | null;
  progress_done: number;
  progress_total: number;
  current_step: string | null;
  data_from: string | null;
  data_to: string | null;
  /** JSON {table: rows}. */
  row_counts: string | null;
  updated_at: string;
  /** "data_from/data_to" the ads_window_totals rows were computed for (0035). */
  window_totals_for: string | null;
  /** Raised by every write to the account's synced tables (0095): the report cache's key. */
  data_version: Generated<number>;
  /** The staged first sync's detail import (0096): null, "running", "ok" or "failed". */
  detail_status: "running" | "ok" | "failed" | null;
  /** What a running detail import is doing, e.g. "Loading keyword performance". */
  detail_step: string | null;
  detail_done: Generated<number>;
  /** Why the detail import failed, naming the step. */
  detail_error: string | null;
  /** Where the next refresh reads change_status from: when the last successful sync started (0120). */
  changes_since: string | null;
  /** When every entity table was last read whole (0120). */
  structure_read_at: string | null;
  /** What the last successful sync was (0120). */
  refresh_kind: "full" | "incremental" | null;
  /** Google Ads API operations the last sync spent (0120). */
  refresh_operations: number | null;
}

/** One request sent to Google Ads and the operations it counts for (0121). */
export interface GoogleAdsOperationsTable {
  id: string;
  at: string;
  operations: number;
  method: string;
  customer_id: string | null;
  purpose: "background" | "interactive";
}

/** Google calls held back until `until` (0121): "daily" and "retry" hold back every call, "temporary" scheduled ones. */
export interface GoogleAdsPauseTable {
  kind: "daily" | "retry" | "temporary";
  until: string;
  reason: string;
  set_at: string;
}

/** One entity's metric totals over the engine's four windows (0035_window_totals). */
export interface AdsWindowTotalsTable {
  customer_id: string;
  entity: "campaign" | "ad_group" | "keyword" | "search_term" | "ad";
  campaign_id: string | null;
  ad_group_id: string | null;
  item_id: string | null;
  status: string | null;
  keyword_criterion_id: string | null;
  keyword_text: string | null;
  first_date: string | null;
  last_date: string | null;
  w30_impressions: number | null;
  w30_clicks: number | null;
  w30_cost_micros: number | null;
  w30_conversions: number | null;
  w30_conversions_value: number | null;
  w60_impressions: number | null;
  w60_clicks: number | null;
  w60_cost_micros: number | null;
  w60_conversions: number | null;
  w60_conversions_value: number | null;
  all_impressions: number | null;
  all_clicks: number | null;
  all_cost_micros: number | null;
  all_conversions: number | null;
  all_conversions_value: number | null;
  l30_impressions: number | null;
  l30_clicks: number | null;
  l30_cost_micros: number | null;
  l30_conversions: number | null;
  l30_conversions_value: number | null;
}

// ---- Change sets (0004_change_sets)

export type ChangeSetSource = "user" | "rule" | "assistant";
/** Where a change set was proposed (0160_change_set_origin). */
export type { ChangeSetOrigin } from "~/lib/change-origins";
export type ChangeSetStatus = "proposed" | "validated" | "invalid" | "applying" | "applied" | "partially_applied" | "failed" | "discarded";
/** Proposals still waiting for a person's review: they may be validated, applied or discarded. */
export const OPEN_CHANGE_SET_STATUSES: readonly ChangeSetStatus[] = ["proposed", "validated", "invalid"];
export type ChangeResourceKind = "campaign" | "campaign_budget" | "ad_group" | "keyword" | "negative_keyword" | "campaign_negative_keyword" | "ad";
export type ChangeOperation = "create" | "update" | "remove";
export type ChangeStatus = "pending" | "valid" | "invalid" | "applying" | "applied" | "failed" | "unknown";

export interface ChangeSetsTable {
  id: string;
  user_id: string;
  customer_id: string;
  source: ChangeSetSource;
  /** Rule id, assistant conversation, ...: free text for history. */
  source_detail: string | null;
  title: string;
  status: ChangeSetStatus;
  /** 1: all changes apply or none (one failure fails the request); 0: partialFailure. */
  atomic: number;
  /** 1 when a budget or bid moves more than CHANGE_CONFIRM_PERCENT. */
  needs_confirmation: number;
  /** The change set this one undoes. */
  revert_of: string | null;
  created_at: string;
  validated_at: string | null;
  approved_at: string | null;
  applied_at: string | null;
  error: string | null;
  /**
   * The recommendation (recommendations.id) this change set was made from, or
   * null. With `source` it is the change set's origin: "rule" + this id for a
   * recommendation's Apply, "assistant" for the assistant's proposals.
   */
  recommendation_id: string | null;
  /** Where it was proposed (0160); the database fills in "campaign" when an insert leaves it out. */
  origin: Generated<ChangeSetOrigin>;
  /** The chat (chats.id) whose assistant proposed it, else null. */
  chat_id: string | null;
  /** Who is applying or settling it now (changes/lease.server.ts); null when nobody is. */
  lease_holder: string | null;
  /** Until when the holder's lease lasts unless renewed; after that another worker may settle the set. */
  lease_expires_at: string | null;
}

export interface ChangesTable {
  id: string;
  change_set_id: string;
  seq: number;
  resource_kind: ChangeResourceKind;
  operation: ChangeOperation;
  /** Null for a create until Google names it (see result_resource_name). */
  resource_name: string | null;
  label: string;
  /** JSON of the changed fields before (null for a create). */
  before_json: string | null;
  /** JSON of the changed fields after (null for a remove). */
  after_json: string | null;
  /** JSON of the exact Google mutate operation sent. */
  operation_json: string;
  status: ChangeStatus;
  error_code: string | null;
  error_message: string | null;
  field_path: string | null;
  result_resource_name: string | null;
  request_id: string | null;
  applied_at: string | null;
}

/** Per-user screen preferences (migration 0060); `value` is JSON text. */
export interface UserPreferencesTable {
  user_id: string;
  name: string;
  value: string;
  updated_at: string;
}

export interface HistoryImportsTable {
  id: string;
  customer_id: string;
  change_date_time: string;
  changed_at: string;
  resource_type: string;
  resource_name: string;
  client_type: string;
  user_email: string | null;
  operation: string;
  changed_fields: string | null;
  old_json: string | null;
  new_json: string | null;
  imported_at: string;
}

// ---- Assistant chats (0050_chats)

export interface ChatsTable {
  id: string;
  user_id: string;
  customer_id: string;
  title: string;
  created_at: string;
  updated_at: string;
}

export interface ChatMessagesTable {
  id: string;
  chat_id: string;
  user_id: string;
  seq: number;
  role: "user" | "assistant";
  /** JSON of the AI SDK UIMessage parts. */
  parts_json: string;
  /** JSON {model, finishReason, error?, builtIn?}. */
  metadata_json: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  total_tokens: number | null;
  created_at: string;
}

// ---- Recommendations engine (0030_recommendations)

export type RecommendationStatus = "open" | "dismissed" | "snoozed" | "applied";

export interface RecommendationsTable {
  id: string;
  customer_id: string;
  /** Stable across runs: rule type + resource. */
  key: string;
  type: string;
  title: string;
  status: RecommendationStatus;
  /** 1 when the last run found it. */
  present: number;
  confidence: number;
  impact_amount: number;
  impact_json: string;
  evidence_json: string;
  actions_json: string;
  resources_json: string;
  dismissed_reason: string | null;
  snoozed_until: string | null;
  status_changed_at: string | null;
  first_seen_at: string;
  last_seen_at: string;
}

/** Every recommendation a change set carries out ("Apply selected": several in one set). */
export interface ChangeSetRecommendationsTable {
  change_set_id: string;
  recommendation_id: string;
}

export interface OptimizerRunsTable {
  customer_id: string;
  ran_at: string;
  synced_at: string | null;
  duration_ms: number;
  score_json: string;
}

/** An engine run in flight (migration 0080): written before it starts, deleted when it ends. */
export interface OptimizerInFlightTable {
  run_id: string;
  customer_id: string;
  trigger: "sync" | "on-demand";
  started_at: string;
  heartbeat_at: string;
}

export interface AccountTargetsTable {
  customer_id: string;
  target_cpa_micros: number | null;
  target_roas: number | null;
  updated_at: string;
  updated_by: string | null;
}

/** PostgreSQL only (0130): a running job's lease; pg-boss holds the queue itself. */
export interface JobLeasesTable {
  job_id: string;
  queue: string;
  singleton_key: string | null;
  holder: string;
  attempt: number;
  started_at: Generated<Date>;
  beat_at: Generated<Date>;
}

/** SQLite only (0130): the in-process job queue. */
export interface JobsTable {
  id: string;
  queue: string;
  /** JSON. */
  data: string;
  state: "created" | "retry" | "active" | "completed" | "failed";
  singleton_key: string | null;
  retry_count: number;
  retry_limit: number;
  retry_delay_seconds: number;
  retry_backoff: number;
  start_after: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  output: string | null;
}

// ---- the metered door to the language model (0100_ai_metering)

export type AiFeature = "chat" | "ad_copy";

/** One model call (a retry is a call of its own). */
export interface AiUsageTable {
  id: string;
  user_id: string;
  feature: AiFeature;
  /** provider:model, as AI_MODEL names it. */
  model: string;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  outcome: "ok" | "error" | "aborted";
  created_at: string;
}

/** Uses of a feature the model served, per user and UTC day (YYYY-MM-DD). */
export interface AiDailyUsesTable {
  user_id: string;
  feature: AiFeature;
  day: string;
  used: number;
}

/** A user's model request in flight, one row per concurrency slot. */
export interface AiLeasesTable {
  user_id: string;
  slot: number;
  lease_id: string;
  expires_at: string;
}

/** A one-time code (migration 0111; auth/one-time-codes.server.ts): single use, expiring, stored hashed. */
export interface AuthCodesTable {
  code_hash: string;
  purpose: "sign-in" | "password-reset";
  user_id: string;
  created_at: string;
  expires_at: string;
}

/** rate-limiter-flexible's table for its PostgreSQL and SQLite stores (migration 0110; limits/limiter.server.ts). */
export interface RateLimitsTable {
  /** `<limit name>:<key>`. */
  key: string;
  points: number;
  /** Epoch milliseconds; null: never expires. */
  expire: number | null;
}

/** Outgoing mail (0132), sent by "send-mail" jobs (email/outbox.server.ts). */
export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  /** Cleared once sent or failed for good (it may hold a confirmation link). */
  body: string;
  status: "pending" | "sent" | "failed";
  /** Why it could not be sent (the last attempt's reason). */
  error: string | null;
  created_at: string;
  sent_at: string | null;
}

/** Per account (0133): the outside-changes import's schedule and last failure (changes/history-import.server.ts). */
export interface HistoryImportStateTable {
  customer_id: string;
  requested_at: string;
  imported_at: string | null;
  error: string | null;
}

/** A personal access token for the API and MCP (migration 0180; auth/access-tokens.server.ts): shown once, stored hashed. */
export interface AccessTokensTable {
  id: string;
  user_id: string;
  name: string;
  /** Space-separated scopes: "read", "propose" or "read propose". */
  scopes: string;
  /** sha256 of the token; the token itself is never stored. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
}

/** The measured effect of one applied change (0170_impact_records; impact/, ADR 027). */
export interface ImpactRecordsTable {
  /** "cs:<change set id>" or "ext:<history_imports id>". */
  subject: string;
  customer_id: string;
  kind: "change_set" | "outside";
  change_set_id: string | null;
  /** What it was computed for: data version, changes known, method version. A different key is a stale record. */
  stamp: string;
  verdict: "too_early" | "no_effect" | "effect" | "not_measurable";
  /** JSON of the ImpactRecord (~/lib/impact.ts). */
  record_json: string;
  computed_at: string;
}

/** A monthly budget set in the app (0190): the account's (campaign_id "") or one campaign's. */
export interface BudgetPlansTable {
  customer_id: string;
  campaign_id: string;
  monthly_budget_micros: number;
  updated_at: string;
  updated_by: string | null;
}

export type AlertRule = import("~/lib/alert-rules").AlertRuleName;

/** An anomaly found by the checks after a refresh (0191). */
export interface AlertsTable {
  id: string;
  customer_id: string;
  rule: AlertRule;
  subject: string;
  campaign_id: string | null;
  status: "open" | "resolved";
  ongoing: number;
  resolved_by: "check" | "user" | null;
  title: string;
  figures_json: string;
  started_on: string;
  evidence_path: string;
  recommendation_id: string | null;
  created_at: string;
  last_seen_at: string;
  resolved_at: string | null;
}

export interface AlertReadsTable {
  user_id: string;
  alert_id: string;
  read_at: string;
}

export interface AlertMutesTable {
  user_id: string;
  customer_id: string;
  rule: string;
  created_at: string;
}

export interface AlertWebhooksTable {
  id: string;
  user_id: string;
  customer_id: string;
  url: string;
  secret: string;
  created_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  alert_id: string;
  payload: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  http_status: number | null;
  error: string | null;
  at: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  google_connections: GoogleConnectionsTable;
  ads_accounts: AdsAccountsTable;
  ads_campaigns: AdsCampaignsTable;
  ads_campaign_daily: AdsCampaignDailyTable;
  ads_ad_groups: AdsAdGroupsTable;
  ads_ad_group_daily: AdsAdGroupDailyTable;
  ads_keywords: AdsKeywordsTable;
  ads_keyword_daily: AdsKeywordDailyTable;
  ads_campaign_negative_keywords: AdsCampaignNegativeKeywordsTable;
  ads_ads: AdsAdsTable;
  ads_ad_daily: AdsAdDailyTable;
  ads_ad_assets: AdsAdAssetsTable;
  ads_asset_groups: AdsAssetGroupsTable;
  ads_asset_group_assets: AdsAssetGroupAssetsTable;
  ads_asset_group_listing_groups: AdsAssetGroupListingGroupsTable;
  ads_search_term_daily: AdsSearchTermDailyTable;
  ads_sync_state: AdsSyncStateTable;
  google_ads_operations: GoogleAdsOperationsTable;
  google_ads_pause: GoogleAdsPauseTable;
  ads_window_totals: AdsWindowTotalsTable;
  change_sets: ChangeSetsTable;
  changes: ChangesTable;
  history_imports: HistoryImportsTable;
  chats: ChatsTable;
  chat_messages: ChatMessagesTable;
  recommendations: RecommendationsTable;
  change_set_recommendations: ChangeSetRecommendationsTable;
  optimizer_runs: OptimizerRunsTable;
  optimizer_in_flight: OptimizerInFlightTable;
  account_targets: AccountTargetsTable;
  budget_plans: BudgetPlansTable;
  alerts: AlertsTable;
  alert_reads: AlertReadsTable;
  alert_mutes: AlertMutesTable;
  alert_webhooks: AlertWebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  user_preferences: UserPreferencesTable;
  job_leases: JobLeasesTable;
  jobs: JobsTable;
  ai_usage: AiUsageTable;
  ai_daily_uses: AiDailyUsesTable;
  ai_leases: AiLeasesTable;
  rate_limits: RateLimitsTable;
  auth_codes: AuthCodesTable;
  mail_outbox: MailOutboxTable;
  history_import_state: HistoryImportStateTable;
  access_tokens: AccessTokensTable;
  impact_records: ImpactRecordsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Session = Selectable<SessionsTable>;
export type GoogleConnection = Selectable<GoogleConnectionsTable>;
export type AdsAccount = Selectable<AdsAccountsTable>;
export type ChangeSet = Selectable<ChangeSetsTable>;
export type Change = Selectable<ChangesTable>;
export type HistoryImport = Selectable<HistoryImportsTable>;
