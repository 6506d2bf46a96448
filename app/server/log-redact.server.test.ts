import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { sendMail } from "./email/smtp.server";
import { captureLogs, log } from "./log.server";
import { cutEmail, scrubText } from "./log-redact.server";

// What reaches the log (the lines as pino writes them, read back): never a
// credential, a link's secret, a prompt, or a whole email address.

function logged(write: () => void | Promise<void>) {
  const logs = captureLogs();
  return Promise.resolve(write())
    .then(() => logs.records)
    .finally(() => logs.restore());
}

describe("the server's log", () => {
  it("censors authorization headers, cookies, tokens, passwords and keys in fields, and cuts email addresses", async () => {
    const [line] = await logged(() =>
      log.warn(
        {
          headers: { authorization: "Bearer tok-123", cookie: "__session=abc", "set-cookie": "__session=def", accept: "text/html" },
          req: { headers: { authorization: "Basic dXNlcjpwYXNz" } },
          user: { email: "alice.smith@example.com", password: "hunter2", token: "t-1", sessionId: "s-1" },
          email: "bob@example.org",
          accessToken: "ya29.secret",
          range: { from: "2026-01-01", to: "2026-01-31" },
        },
        "sign-in trouble",
      ),
    );
    const text = JSON.stringify(line);
    for (const secret of ["tok-123", "__session=abc", "__session=def", "dXNlcjpwYXNz", "hunter2", "t-1", "s-1", "ya29.secret", "alice.smith", "bob@"]) {
      expect(text).not.toContain(secret);
    }
    expect(line).toMatchObject({
      headers: { authorization: "[redacted]", cookie: "[redacted]", accept: "text/html" },
      user: { email: "a…@example.com", password: "[redacted]" },
      email: "b…@example.org",
      range: { from: "2026-01-01", to: "2026-01-31" },
    });
  });

  it("scrubs messages and errors: confirmation and sign-in links keep their path but lose the token, emails are cut", async () => {
    const records = await logged(() => {
      log.info("Could not send the confirmation to carol@example.com: http://localhost:3000/verify-email?token=eyJhbGciOi.secret.part&x=1");
      log.warn("Upstream said: Authorization: Bearer sk-live-abc; see https://user:pw@models.example/v1?api_key=k-9");
      log.error({ err: new Error("login failed for dave@example.net with /dashboard?token=tok-777") }, "callback failed");
    });
    const text = JSON.stringify(records);
    for (const secret of ["eyJhbGciOi", "secret.part", "sk-live-abc", "user:pw", "k-9", "tok-777", "carol@", "dave@"]) expect(text).not.toContain(secret);
    expect(records[0].msg).toBe("Could not send the confirmation to c…@example.com: http://localhost:3000/verify-email?token=[redacted]&x=1");
    expect(records[2].err?.message).toBe("login failed for d…@example.net with /dashboard?token=[redacted]");
    expect(records[2].err?.stack).not.toContain("tok-777");
  });

  it("never writes what a model was sent or answered, from an AI SDK error", async () => {
    const error = new APICallError({
      message: "Bad Request",
      url: "https://api.example/v1/chat/completions",
      requestBodyValues: { messages: [{ role: "user", content: "erin@example.com asks about campaign Secret Launch" }] },
      statusCode: 400,
      responseBody: '{"echo":"Secret Launch"}',
      responseHeaders: { "set-cookie": "vendor=1" },
    });
    const { RetryError } = await import("ai");
    const retried = new RetryError({ message: "Failed after 2 attempts", reason: "maxRetriesExceeded", errors: [error, error] });
    const [line, retriedLine] = await logged(() => {
      log.warn({ err: error }, "Assistant turn failed");
      log.warn({ err: retried }, "Assistant turn failed");
    });
    expect(JSON.stringify(retriedLine)).not.toMatch(/Secret Launch|erin@|vendor=1/);
    expect(JSON.stringify(line)).not.toMatch(/Secret Launch|erin@|vendor=1/);
    expect(line.err).toMatchObject({ message: "Bad Request", requestBodyValues: "[redacted]", responseBody: "[redacted]" });
  });

  it("keeps the one mail written to the log when SMTP_URL is unset whole: the log is then the mailbox", async () => {
    const [line] = await logged(() => sendMail({ to: "frank@example.com", subject: "Confirm", text: "Open http://localhost:3000/verify-email?token=abc.def" }));
    expect(line.msg).toContain("frank@example.com");
    expect(line.msg).toContain("verify-email?token=abc.def");
  });

  it("cuts and scrubs text on its own", () => {
    expect(cutEmail("x: a.b+c@mail.example.co.uk")).toBe("x: a…@mail.example.co.uk");
    expect(scrubText("Cookie: a=1; b=2\nnext")).toBe("Cookie: [redacted]\nnext");
    expect(scrubText("/api/v1/auth/google/callback?state=s1&code=c2")).toBe("/api/v1/auth/google/callback?state=[redacted]&code=[redacted]");
    expect(scrubText("bad name: aam_pat_Ev6SLA6fN1VcSG1rhx-_9q")).toBe("bad name: aam_pat_[redacted]");
  });
});
