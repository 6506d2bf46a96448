// @vitest-environment node
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { seedAgency } from "../../../tests/support/agency-fixture";
import { signedInArgs } from "../../../tests/support/route-args";
import { action as settingsAction, loader as settingsLoader } from "../../routes/settings";
import { commitSessionCookie, createSession } from "../auth/session.server";
import { startJobs, stopJobs } from "../jobs/jobs.server";
import { checkAlerts } from "./alerts.server";
import { setMute } from "./alert-inbox.server";
import { listWebhooks, removeWebhook, setWebhook, setWebhookRetryBaseMsForTests, signPayload, webhookLog } from "./alert-webhook.server";

// Alerts by webhook, to a real HTTP receiver on this machine: signed, retried after a 500, every attempt logged.

let t: TestContext;
let userId: string;
let cookie: string;
let receiver: Server;
let receiverUrl: string;
const received: Array<{ headers: IncomingHttpHeaders; body: string; answered: number }> = [];
/** The receiver's answers, in order; 200 once they run out. */
const answers: number[] = [];
const CUSTOMER = "6100000001";

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const answered = answers.shift() ?? 200;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  t = await setupTestEnvironment();
  setWebhookRetryBaseMsForTests(200);
  ({ userId } = await seedAgency(t.db, {
    email: "hooks@example.com",
    managers: [{ customerId: "9610000001", name: "Hook MCC" }],
    clients: [
      { customerId: CUSTOMER, name: "Hooked Co", manager: "9610000001" },
      { customerId: "6100000002", name: "Other Co", manager: "9610000001" },
    ],
    lastDay: "2026-11-27",
    days: 0,
  }));
  const session = await createSession(userId, new Request("http://localhost:3000/login"));
  cookie = (await commitSessionCookie(session)).split(";")[0];
}, 60_000);

const postSettings = async (fields: Record<string, string>) =>
  settingsAction(
    await signedInArgs(
      new Request("http://localhost:3000/settings", {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      }),
    ),
  );

const settingsPage = async () =>
  (await settingsLoader(await signedInArgs(new Request("http://localhost:3000/settings", { headers: { Cookie: cookie } })))) as Awaited<
    ReturnType<typeof settingsLoader>
  >;

afterAll(async () => {
  await stopJobs();
  setWebhookRetryBaseMsForTests(null);
  await t?.cleanup();
  await new Promise((resolve) => receiver?.close(resolve));
});

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

describe("alerts by webhook", () => {
  it("the /settings form refuses a bad URL with a clear error and changes nothing", async () => {
    const bad = (await postSettings({ intent: "set-webhook", customerId: CUSTOMER, url: "ftp://example.com" })) as {
      init: ResponseInit;
      data: { error: string };
    };
    expect(bad.init.status).toBe(400);
    expect(bad.data.error).toMatch(/https/);
    const noAccount = (await postSettings({ intent: "set-webhook", customerId: "", url: "https://hooks.example.com/x" })) as { init: ResponseInit };
    expect(noAccount.init.status).toBe(400);
    const nothing = (await postSettings({ intent: "remove-webhook", customerId: CUSTOMER })) as { init: ResponseInit; data: { error: string } };
    expect(nothing.data.error).toBe("That account has no webhook");
    expect((await settingsPage()).webhooks.webhooks).toEqual([]);
  });

  it("the /settings form sets a webhook, gives it a new secret, and shows both accounts to choose from", async () => {
    const ok = (await postSettings({ intent: "set-webhook", customerId: "6100000002", url: "https://hooks.example.com/other" })) as Response;
    expect(ok.status).toBe(302);
    const page = await settingsPage();
    expect(page.webhooks.accounts.map((a) => a.customerId).sort()).toEqual([CUSTOMER, "6100000002"]);
    const [hook] = page.webhooks.webhooks;
    expect(hook).toMatchObject({ customerId: "6100000002", url: "https://hooks.example.com/other" });
    await postSettings({ intent: "rotate-webhook-secret", customerId: "6100000002" });
    const [rotated] = (await settingsPage()).webhooks.webhooks;
    expect(rotated.secret).not.toBe(hook.secret);
    expect(((await postSettings({ intent: "remove-webhook", customerId: "6100000002" })) as Response).status).toBe(302);
    expect((await settingsPage()).webhooks.webhooks).toEqual([]);
  });

  it("refuses a bad URL or someone else's account and changes nothing", async () => {
    await expect(setWebhook(userId, CUSTOMER, "not a url")).rejects.toThrow(/full URL/);
    await expect(setWebhook(userId, CUSTOMER, "http://hooks.example.com/x")).rejects.toThrow(/https/);
    await expect(setWebhook(userId, "6999999999", "https://hooks.example.com/x")).rejects.toThrow(/not one of your client accounts/);
    await expect(setWebhook(userId, "9610000001", "https://hooks.example.com/x")).rejects.toThrow(/not one of your client accounts/);
    expect(await listWebhooks(userId)).toEqual([]);
  });

  it("no webhook: a new alert queues no delivery", async () => {
    await outsideChange("w1", "2026-11-18");
    expect(await t.db.selectFrom("webhook_deliveries").selectAll().execute()).toEqual([]);
  });

  it("POSTs each new alert once, signed, retrying after a 500, and logs every attempt", async () => {
    await setWebhook(userId, CUSTOMER, receiverUrl);
    const [hook] = await listWebhooks(userId);
    expect(hook).toMatchObject({ customerId: CUSTOMER, url: receiverUrl });
    expect(hook.secret).toMatch(/^whsec_/);
    answers.push(500);
    await outsideChange("w2", "2026-11-20");
    // Seen again by the next check: the same alert, no second delivery.
    await checkAlerts(CUSTOMER, new Date("2026-11-21T13:00:00Z"), t.db);
    await startJobs({ pollMs: 50 });
    await vi.waitFor(() => expect(received.map((r) => r.answered)).toEqual([500, 200]), { timeout: 20_000, interval: 50 });
    for (const r of received) {
      expect(r.headers["content-type"]).toBe("application/json");
      const timestamp = String(r.headers["x-ads-timestamp"]);
      expect(r.headers["x-ads-signature"]).toBe(signPayload(hook.secret, timestamp, r.body));
      expect(r.headers["x-ads-signature"]).not.toBe(signPayload("whsec_wrong", timestamp, r.body));
    }
    const body = JSON.parse(received[1].body) as { text: string; alert: { customerId: string; rule: string; startedOn: string } };
    expect(body.text).toContain("Changed outside the product: Hooked Co (610-000-0001)");
    expect(body.text).toContain("1 change made outside Ads AI Manager on 2026-11-20");
    expect(body.alert).toMatchObject({ customerId: CUSTOMER, rule: "outside_change", startedOn: "2026-11-20" });
    await vi.waitFor(async () =>
      expect((await webhookLog(userId)).map((l) => [l.attempt, l.httpStatus, l.deliveryStatus])).toEqual([
        [2, 200, "delivered"],
        [1, 500, "delivered"],
      ]),
    );
    expect((await webhookLog(userId))[1].error).toBe("HTTP 500");
    await stopJobs();
    expect(received).toHaveLength(2);
    expect((await settingsPage()).webhooks.log.map((l) => l.httpStatus)).toEqual([200, 500]);
  });

  it("a muted rule is not sent; a removed webhook gets nothing more", async () => {
    await setMute(userId, { customerId: CUSTOMER, rule: "outside_change", muted: true });
    await outsideChange("w3", "2026-11-24");
    expect(await t.db.selectFrom("webhook_deliveries").selectAll().execute()).toHaveLength(1);
    await setMute(userId, { customerId: CUSTOMER, rule: "outside_change", muted: false });
    expect(await removeWebhook(userId, CUSTOMER)).toBe(true);
    await outsideChange("w4", "2026-11-26");
    expect(await t.db.selectFrom("webhook_deliveries").selectAll().execute()).toEqual([]);
    expect(await webhookLog(userId)).toEqual([]);
  });
});
