import { randomUUID } from "node:crypto";
import type { DB } from "~/server/db/db.server";
import { addDays } from "~/lib/dates";

// An agency in the database, written directly: a user, one Google connection,
// managers and their client accounts, daily campaign figures, targets,
// recommendations, Performance Scores and refresh states. The overview's
// tests and its bench read it; the figures are chosen per account so each
// sort and filter has a known answer.

export interface ClientSpec {
  customerId: string;
  name: string;
  /** The manager's customer id (one of `managers`), or null: reached directly. */
  manager: string | null;
  timeZone?: string;
  currency?: string;
  /** Per day, over `days` days ending at `lastDay`. */
  dailyCostMicros?: number;
  dailyConversions?: number;
  dailyValue?: number;
  target?: { cpaMicros?: number | null; roas?: number | null };
  score?: number | null;
  /** Open recommendations' monthly impacts (account currency units). */
  recommendations?: number[];
  /** Last successful refresh; null: never refreshed. */
  lastSuccessAt?: string | null;
  syncStatus?: "never" | "running" | "ok" | "failed";
}

export async function seedAgency(
  db: DB,
  opts: { email?: string; managers: Array<{ customerId: string; name: string }>; clients: ClientSpec[]; lastDay: string; days?: number },
): Promise<{ userId: string }> {
  const userId = randomUUID();
  const connectionId = randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto("users")
    .values({
      id: userId,
      email: opts.email ?? `agency-${userId.slice(0, 8)}@example.com`,
      password_hash: null,
      active_customer_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto("google_connections")
    .values({
      id: connectionId,
      user_id: userId,
      google_sub: `sub-${userId}`,
      google_email: "agency@example.com",
      refresh_token_enc: "x",
      access_token_enc: null,
      access_token_expires_at: null,
      scopes: "https://www.googleapis.com/auth/adwords",
      status: "active",
      status_reason: null,
      accounts_error: null,
      accounts_synced_at: now,
      access_checked_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const account = (customerId: string, name: string, manager: boolean, login: string | null, tz: string, currency: string) => ({
    user_id: userId,
    customer_id: customerId,
    connection_id: connectionId,
    name,
    currency_code: currency,
    time_zone: tz,
    manager: manager ? 1 : 0,
    login_customer_id: login,
    updated_at: now,
  });
  const accounts = [
    ...opts.managers.map((m) => account(m.customerId, m.name, true, null, "America/New_York", "USD")),
    ...opts.clients.map((c) => account(c.customerId, c.name, false, c.manager, c.timeZone ?? "America/New_York", c.currency ?? "USD")),
  ];
  await db.insertInto("ads_accounts").values(accounts).execute();
  const days = opts.days ?? 30;
  const daily = [];
  for (const c of opts.clients) {
    if (!c.dailyCostMicros && !c.dailyConversions) continue;
    for (let i = 0; i < days; i++) {
      daily.push({
        customer_id: c.customerId,
        campaign_id: "1",
        date: addDays(opts.lastDay, -i),
        impressions: 1000,
        clicks: 50,
        cost_micros: c.dailyCostMicros ?? 0,
        conversions: c.dailyConversions ?? 0,
        conversions_value: c.dailyValue ?? 0,
        search_impression_share: null,
        search_budget_lost_impression_share: null,
        search_rank_lost_impression_share: null,
      });
    }
  }
  for (let i = 0; i < daily.length; i += 500)
    await db
      .insertInto("ads_campaign_daily")
      .values(daily.slice(i, i + 500))
      .execute();
  for (const c of opts.clients) {
    if (c.target) {
      await db
        .insertInto("account_targets")
        .values({
          customer_id: c.customerId,
          target_cpa_micros: c.target.cpaMicros ?? null,
          target_roas: c.target.roas ?? null,
          updated_at: now,
          updated_by: userId,
        })
        .execute();
    }
    if (c.score !== undefined && c.score !== null) {
      await db
        .insertInto("optimizer_runs")
        .values({ customer_id: c.customerId, ran_at: now, synced_at: now, duration_ms: 1, score_json: JSON.stringify({ value: c.score, breakdown: [] }) })
        .execute();
    }
    for (const [i, impact] of (c.recommendations ?? []).entries()) {
      await db
        .insertInto("recommendations")
        .values({
          id: randomUUID().replace(/-/g, "").slice(0, 24),
          customer_id: c.customerId,
          key: `k${i}`,
          type: "wasted_keyword",
          title: `Recommendation ${i}`,
          status: "open",
          present: 1,
          confidence: 0.9,
          impact_amount: impact,
          impact_json: "{}",
          evidence_json: "{}",
          actions_json: "[]",
          resources_json: '{"resources":[],"links":[]}',
          dismissed_reason: null,
          snoozed_until: null,
          status_changed_at: null,
          first_seen_at: now,
          last_seen_at: now,
        })
        .execute();
    }
    const last = c.lastSuccessAt === undefined ? now : c.lastSuccessAt;
    await db
      .insertInto("ads_sync_state")
      .values({
        customer_id: c.customerId,
        status: c.syncStatus ?? (last ? "ok" : "never"),
        run_id: null,
        started_at: null,
        finished_at: last,
        heartbeat_at: null,
        last_success_at: last,
        last_error: null,
        progress_done: 0,
        progress_total: 0,
        current_step: null,
        data_from: null,
        data_to: null,
        row_counts: null,
        updated_at: now,
      })
      .execute();
  }
  return { userId };
}
