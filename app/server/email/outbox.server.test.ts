// @vitest-environment node
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startSmtpServer } from "../../../tests/setup/smtp-server";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { clearJobs, makeDue } from "../../../tests/support/jobs";
import { startJobs, stopJobs } from "../jobs/jobs.server";
import { captureLogs } from "../log.server";
import { resetMailerForTests, sendMailInBackground } from "./mailer.server";

// Issue 27 point 1: outgoing mail is an outbox. A mail is a row; a job sends it
// and retries through an SMTP outage; it is not lost when nothing is sending.
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestContext;
let refusing = false;
beforeAll(async () => {
  smtp = await startSmtpServer({ refuse: () => refusing });
  t = await setupTestEnvironment({ SMTP_URL: smtp.url, MAIL_FROM: "Ads AI Manager <ads@example.org>" });
  resetMailerForTests();
});
afterEach(async () => {
  await stopJobs();
  await clearJobs(t.db);
  refusing = false;
});
afterAll(async () => {
  resetMailerForTests();
  await t?.cleanup();
  await smtp?.close();
});

const waitFor = <T>(fn: () => Promise<T> | T) => vi.waitFor(fn, { timeout: 20_000, interval: 100 });
const row = (to: string) =>
  t.db.selectFrom("mail_outbox").select(["status", "body", "error", "sent_at"]).where("to_address", "=", to).executeTakeFirstOrThrow();

describe("the mail outbox", () => {
  it("keeps a mail queued while nothing sends it (a crash, a restart), and sends it once jobs run; the body is not kept", async () => {
    await sendMailInBackground({ to: "later@example.com", subject: "Kept", text: "Open https://example.org/x?token=secret" });
    expect(await row("later@example.com")).toEqual({ status: "pending", body: "Open https://example.org/x?token=secret", error: null, sent_at: null });
    expect(smtp.mails.filter((m) => m.to.includes("later@example.com"))).toEqual([]);
    await startJobs({ pollMs: 100 });
    await waitFor(() => expect(smtp.mails.filter((m) => m.to.includes("later@example.com"))).toHaveLength(1));
    await waitFor(async () => expect(await row("later@example.com")).toMatchObject({ status: "sent", body: "", error: null, sent_at: expect.any(String) }));
  });

  it("retries through an SMTP outage with the server's own reason, and sends the mail exactly once when it is back", async () => {
    refusing = true;
    const logs = captureLogs();
    try {
      await startJobs({ pollMs: 100 });
      await sendMailInBackground({ to: "outage@example.com", subject: "Retried", text: "Hello" });
      await waitFor(() => expect(logs.records.some((r) => r.level === "warn" && /^Job send-mail .* failed \(attempt 1 of 9\): .*451/.test(r.msg))).toBe(true));
      expect(await row("outage@example.com")).toMatchObject({ status: "pending", body: "Hello" });
      refusing = false;
      await makeDue(t.db, "send-mail");
      await waitFor(async () => expect((await row("outage@example.com")).status).toBe("sent"));
      expect(smtp.mails.filter((m) => m.to.includes("outage@example.com"))).toHaveLength(1);
    } finally {
      logs.restore();
    }
  });

  it("records why a mail failed for good, once its retries are used up", async () => {
    refusing = true;
    const logs = captureLogs();
    try {
      await startJobs({ pollMs: 100 });
      await sendMailInBackground({ to: "never@example.com", subject: "Lost cause", text: "Hello" });
      for (let attempt = 1; attempt <= 9; attempt++) {
        await waitFor(() => expect(logs.records.some((r) => r.msg.includes(`failed (attempt ${attempt} of 9`))).toBe(true));
        await makeDue(t.db, "send-mail");
      }
      await waitFor(async () =>
        expect(await row("never@example.com")).toMatchObject({ status: "failed", body: "", sent_at: null, error: expect.stringMatching(/451/) }),
      );
    } finally {
      logs.restore();
    }
  }, 60_000);
});
