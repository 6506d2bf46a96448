// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSmtpServer } from "../../../tests/setup/smtp-server";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { seedAgency } from "../../../tests/support/agency-fixture";
import { signedInArgs } from "../../../tests/support/route-args";
import { commitSessionCookie, createSession } from "../auth/session.server";
import { resetMailerForTests } from "../email/mailer.server";
import { startJobs, stopJobs } from "../jobs/jobs.server";
import { action as alertsPageAction } from "../../routes/alerts";
import { checkAlerts } from "./alerts.server";
import { alertEmailMode } from "./alert-mail.server";
import { setMute } from "./alert-inbox.server";

// Alerts by email at once, through the outbox and a real SMTP conversation (as the mailer's test does).

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestContext;
let userId: string;
let cookie: string;
const CUSTOMER = "6000000001";

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await setupTestEnvironment({ SMTP_URL: smtp.url, MAIL_FROM: "Ads AI Manager <ads@example.org>" });
  resetMailerForTests();
  ({ userId } = await seedAgency(t.db, {
    email: "owner@example.com",
    managers: [{ customerId: "9600000001", name: "Mail MCC" }],
    clients: [{ customerId: CUSTOMER, name: "Mailed Co", manager: "9600000001" }],
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

/** An outside change on `day`: one new alert when the checks run the morning after. */
async function outsideChange(id: string, day: string) {
  await t.db
    .insertInto("history_imports")
    .values({
      id,
      customer_id: CUSTOMER,
      change_date_time: `${day} 10:00:00`,
      changed_at: `${day}T15:00:00Z`,
      resource_type: "CAMPAIGN",
      resource_name: `customers/${CUSTOMER}/campaigns/1`,
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
  await checkAlerts(CUSTOMER, next, t.db);
}

const setEmail = async (mode: string) =>
  alertsPageAction(
    await signedInArgs(
      new Request("http://localhost:3000/alerts", {
        method: "POST",
        body: new URLSearchParams({ intent: "email", mode }),
        headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      }),
    ),
  );

describe("alerts by email", () => {
  it("off by default: nothing is mailed", async () => {
    expect(await alertEmailMode(userId)).toBe("off");
    await outsideChange("m1", "2026-11-20");
    expect(await t.db.selectFrom("mail_outbox").selectAll().execute()).toEqual([]);
  });

  it("a bad choice is refused and changes nothing", async () => {
    const bad = (await setEmail("hourly")) as { init: ResponseInit };
    expect(bad.init.status).toBe(400);
    expect(await alertEmailMode(userId)).toBe("off");
  });

  it("at once: each new alert is mailed over SMTP, once", async () => {
    await setEmail("immediate");
    expect(await alertEmailMode(userId)).toBe("immediate");
    await outsideChange("m2", "2026-11-22");
    // The same day's changes seen again by the next check: the same alert, no second mail.
    await checkAlerts(CUSTOMER, new Date("2026-11-23T13:00:00Z"), t.db);
    await startJobs({ pollMs: 100 });
    await vi.waitFor(() => expect(smtp.mails.filter((m) => m.to.includes("owner@example.com"))).toHaveLength(1), { timeout: 20_000, interval: 100 });
    const mail = smtp.mails.find((m) => m.to.includes("owner@example.com"))!;
    expect(mail.data).toContain("Subject: Changed outside the product: Mailed Co");
    // The body is quoted-printable: soft line breaks ("=" at a line's end) joined.
    const body = mail.data.replace(/=\r?\n/g, "");
    expect(body).toContain("1 change made outside Ads AI Manager on 2026-11-22");
    expect(body).toContain("See it: http://localhost:3000/alerts");
    await stopJobs();
  });

  it("a muted rule is not mailed", async () => {
    await setMute(userId, { customerId: CUSTOMER, rule: "outside_change", muted: true });
    const before = (await t.db.selectFrom("mail_outbox").selectAll().execute()).length;
    await outsideChange("m3", "2026-11-25");
    expect((await t.db.selectFrom("mail_outbox").selectAll().execute()).length).toBe(before);
    expect(await t.db.selectFrom("alerts").select("title").where("subject", "=", "2026-11-25").executeTakeFirst()).toEqual({
      title: "1 change made outside Ads AI Manager on 2026-11-25",
    });
  });
});
