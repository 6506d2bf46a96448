import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { createSession, getBearerSession } from "../auth/session.server";
import { registerUser } from "../auth/users.server";
import { setConfigForTests } from "../env.server";
import { captureLogs, log, resetLogForTests, type LogRecord } from "../log.server";
import { requestLog } from "./request-log.server";

let t: TestContext;
let server: ReturnType<express.Express["listen"]>;
let base: string;
let logged: ReturnType<typeof captureLogs>;

beforeAll(async () => {
  t = await setupTestEnvironment({ LOG_LEVEL: "info" });
  resetLogForTests();
  const app = express();
  app.use(requestLog());
  app.get("/work", async (req, res) => {
    // Server code logging in the middle of a request, after an await (the id must survive it).
    await new Promise((resolve) => setImmediate(resolve));
    const session = await getBearerSession(new Request("http://x/", { headers: { Authorization: req.get("Authorization") ?? "" } }));
    log.warn("something worth a look");
    res.status(session ? 200 : 401).json({ ok: Boolean(session) });
  });
  app.get("/boom", (_req, res) => {
    res.status(500).send("no");
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => logged?.restore());

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.cleanup();
  resetLogForTests();
});

const requestLine = (records: LogRecord[]) => records.find((r) => r.msg === "request");

it("writes one line per request with an id that the response and the request's other lines carry, and never the query, token or cookie", async () => {
  const user = await registerUser("log@example.com", "a-long-password");
  const { accessToken } = await createSession(user.id, new Request("http://localhost/"));
  logged = captureLogs();
  const response = await fetch(`${base}/work?token=secret-in-the-query&code=code-in-the-query`, {
    headers: { Authorization: `Bearer ${accessToken}`, Cookie: "__session=cookie-value" },
  });
  expect(response.status).toBe(200);
  const id = response.headers.get("X-Request-Id");
  expect(id).toMatch(/^[0-9a-f-]{36}$/);

  await vi.waitFor(() => expect(requestLine(logged.records)).toBeDefined());
  const line = requestLine(logged.records)!;
  expect(line).toMatchObject({ level: "info", reqId: id, method: "GET", path: "/work", status: 200, userId: user.id });
  expect(typeof line.ms).toBe("number");
  expect(typeof line.time).toBe("string");
  // The warning logged while serving it carries the same id.
  expect(logged.records.find((r) => r.msg === "something worth a look")).toMatchObject({ level: "warn", reqId: id });
  const everything = JSON.stringify(logged.records);
  for (const secret of ["secret-in-the-query", "code-in-the-query", accessToken, "cookie-value"]) expect(everything).not.toContain(secret);
});

it("gives each request its own id, omits the user when there is none, and logs a 5xx at error", async () => {
  logged = captureLogs();
  const [a, b] = await Promise.all([fetch(`${base}/work`), fetch(`${base}/boom`)]);
  expect(a.status).toBe(401);
  expect(b.status).toBe(500);
  await vi.waitFor(() => expect(logged.records.filter((r) => r.msg === "request")).toHaveLength(2));
  const lines = logged.records.filter((r) => r.msg === "request");
  const work = lines.find((r) => r.path === "/work")!;
  const boom = lines.find((r) => r.path === "/boom")!;
  expect(work.reqId).toBe(a.headers.get("X-Request-Id"));
  expect(boom.reqId).toBe(b.headers.get("X-Request-Id"));
  expect(work.reqId).not.toBe(boom.reqId);
  expect(work).not.toHaveProperty("userId");
  expect(boom.level).toBe("error");
});

it("respects LOG_LEVEL: at warn, a successful request writes no line, a warning and a 5xx still do", async () => {
  setConfigForTests({ ...t.config, LOG_LEVEL: "warn" });
  resetLogForTests();
  try {
    logged = captureLogs();
    expect((await fetch(`${base}/work`)).status).toBe(401);
    // Sequential: /work's line, if any, was written before /boom's.
    expect((await fetch(`${base}/boom`)).status).toBe(500);
    await vi.waitFor(() => expect(requestLine(logged.records)).toBeDefined());
    expect(logged.records.map((r) => [r.level, r.msg === "request" ? r.path : r.msg])).toEqual([
      ["warn", "something worth a look"],
      ["error", "/boom"],
    ]);
  } finally {
    setConfigForTests(t.config);
    resetLogForTests();
  }
});
