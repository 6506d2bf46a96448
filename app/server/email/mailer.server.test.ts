import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpServer } from "../../../tests/setup/smtp-server";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { register } from "../auth/credentials.server";
import { startJobs, stopJobs } from "../jobs/jobs.server";
import { resetMailerForTests } from "./mailer.server";

// Issue 9 point 1: the confirmation link goes out through the SMTP server in SMTP_URL.
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestContext;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await setupTestEnvironment({ SMTP_URL: smtp.url, MAIL_FROM: "Ads AI Manager <ads@example.org>" });
  resetMailerForTests();
  // Mail goes out through the outbox's jobs.
  await startJobs({ pollMs: 100 });
});
afterAll(async () => {
  await stopJobs();
  resetMailerForTests();
  await t.cleanup();
  await smtp.close();
});

describe("mail through SMTP_URL", () => {
  it("registration mails a confirmation link; a second registration of the address mails its owner, not a new account", async () => {
    await register({ email: "new-owner@example.com", password: "password-1" }, "1.1.1.1");
    await expect.poll(() => smtp.mails.length).toBe(1);
    const first = smtp.mails[0];
    expect(first.from).toBe("ads@example.org");
    expect(first.to).toEqual(["new-owner@example.com"]);
    expect(first.data).toMatch(/Subject: Confirm your email address for Ads AI Manager/);
    expect(first.data.replace(/=\r\n/g, "")).toMatch(/http:\/\/localhost:3000\/verify-email\?token=[A-Za-z0-9_.=-]+/);

    // Confirm the first account, then someone registers the same address again.
    await t.db.updateTable("users").set({ email_verified_at: new Date().toISOString() }).where("email", "=", "new-owner@example.com").execute();
    await register({ email: "new-owner@example.com", password: "password-2" }, "1.1.1.1");
    await expect.poll(() => smtp.mails.length).toBe(2);
    expect(smtp.mails[1].data).toMatch(/Subject: Someone tried to create an Ads AI Manager account with your email/);
    expect(smtp.mails[1].data).not.toMatch(/verify-email/);
  });
});
