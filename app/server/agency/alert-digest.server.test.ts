// @vitest-environment node
import parser from "cron-parser";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSmtpServer } from "../../../tests/setup/smtp-server";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { seedAgency } from "../../../tests/support/agency-fixture";
import { signedInArgs } from "../../../tests/support/route-args";
import { action as alertsPageAction } from "../../routes/alerts";
import { commitSessionCookie, createSession } from "../auth/session.server";
import { resetMailerForTests } from "../email/mailer.server";
import { QUEUES, startJobs, stopJobs } from "../jobs/jobs.server";
import { setMute } from "./alert-inbox.server";
import { sendDailyDigests } from "./alert-digest.server";
import { alertEmailMode } from "./alert-mail.server";
import { checkAlerts } from "./alerts.server";

// The daily digest of alerts: one mail a day through the outbox and a real SMTP conversation (as the mailer's test does).

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestContext;
let userId: string;
let cookie: string;
const FIRST = "6200000001";
const MUTED = "6200000002";

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await setupTestEnvironment({ SMTP_URL: smtp.url, MAIL_FROM: "Ads AI Manager <ads@example.org>" });
  resetMailerForTests();
  ({ userId } = await seedAgency(t.db, {
    email: "digest@example.com",
    managers: [{ customerId: "9620000001", name: "Digest MCC" }],
    clients: [
      { customerId: FIRST, name: "Alpha Co", manager: "9620000001" },
      { customerId: MUTED, name: "Muted Co", manager: "9620000001" },
    ],
    lastDay: "2026-11-27",
    days: 0,
  }));
  const session = await createSession(userId, new Request("http://localhost:3000/login"));
  cookie = (await commitSessionCookie(session)).split(";")[0];
}, 60_000);

afterAll(async () => {
  await stopJobs();
  await t?.cleanup();
  await smtp?.close();
  resetMailerForTests();
});

/** An outside change on `day` in `customerId`: one new alert, stored by the check at noon the day after. */
async function outsideChange(id: string, customerId: string, day: string) {
  await t.db
    .insertInto("history_imports")
    .values({
      id,
      customer_id: customerId,
      change_date_time: `${day} 10:00:00`,
      changed_at: `${day}T15:00:00Z`,
      resource_type: "CAMPAIGN",
      resource_name: `customers/${customerId}/campaigns/1`,
      client_type: "GOOGLE_ADS_WEB_CLIENT",
      user_email: "someone@example.com",
      operation: "UPDATE",
      changed_fields: null,
      old_json: null,
      new_json: null,
      imported_at: `${day}T20:00:00Z`,
    })
    .execute();
  const next = new Date(`${day}T12:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  await checkAlerts(customerId, next, t.db);
}

const mails = () => smtp.mails.filter((m) => m.to.includes("digest@example.com"));

describe("the daily alert digest", () => {
  it("runs once a day from the cron", () => {
    const cron = QUEUES["alert-digest"].cron!;
    const times = parser.parseExpression(cron, { tz: "UTC", currentDate: new Date("2026-11-20T08:00:00Z") });
    expect([times.next().toISOString(), times.next().toISOString()]).toEqual(["2026-11-21T07:00:00.000Z", "2026-11-22T07:00:00.000Z"]);
  });

  it("is chosen on /alerts (plain form); a digest person gets no mail at once", async () => {
    const res = (await alertsPageAction(
      await signedInArgs(
        new Request("http://localhost:3000/alerts", {
          method: "POST",
          body: new URLSearchParams({ intent: "email", mode: "digest" }),
          headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        }),
      ),
    )) as Response;
    expect(res.status).toBe(302);
    expect(await alertEmailMode(userId)).toBe("digest");
    await setMute(userId, { customerId: MUTED, rule: null, muted: true });
    await outsideChange("d0", FIRST, "2026-11-18"); // stored 2026-11-19 12:00: before the first digest's day
    await outsideChange("d1", FIRST, "2026-11-20"); // stored 2026-11-21 12:00
    await outsideChange("d2", FIRST, "2026-11-21"); // stored 2026-11-22 12:00: after this digest, in the next
    await outsideChange("d3", MUTED, "2026-11-20"); // a muted account
    expect(await t.db.selectFrom("mail_outbox").selectAll().execute()).toEqual([]);
  });

  it("mails the day's alerts once, over SMTP, leaving out muted accounts; a repeated run sends nothing more", async () => {
    expect(await sendDailyDigests(new Date("2026-11-22T07:00:00Z"), t.db)).toBe(1);
    expect(await sendDailyDigests(new Date("2026-11-22T07:00:30Z"), t.db)).toBe(0);
    await startJobs({ pollMs: 100 });
    await vi.waitFor(() => expect(mails()).toHaveLength(1), { timeout: 20_000, interval: 100 });
    const body = mails()[0].data.replace(/=\r?\n/g, "");
    expect(mails()[0].data).toContain("Subject: 1 new alert today");
    expect(body).toContain("Alpha Co (620-000-0001)");
    expect(body).toContain("1 change made outside Ads AI Manager on 2026-11-20");
    expect(body).not.toContain("on 2026-11-18");
    expect(body).not.toContain("on 2026-11-21");
    expect(body).not.toContain("Muted Co");
    expect(body).toContain("See them: http://localhost:3000/alerts");
    await stopJobs();
  });

  it("the next day's digest has the next alert only", async () => {
    expect(await sendDailyDigests(new Date("2026-11-23T07:00:00Z"), t.db)).toBe(1);
    const [next] = await t.db.selectFrom("mail_outbox").select(["subject", "body", "status"]).where("status", "=", "pending").execute();
    expect(next.subject).toBe("1 new alert today");
    expect(next.body).toContain("1 change made outside Ads AI Manager on 2026-11-21");
    expect(next.body).not.toContain("on 2026-11-20");
  });
});
