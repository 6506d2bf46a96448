import express from "express";
import { createSession } from "../auth/session.server";
import { approvalFromApiRequest } from "../changes/approval.server";
import { applyChangeSet } from "../changes/pipeline.server";
import { closeDb } from "../db/db.server";
import { connectionCloseWhileDraining, drainServer } from "./drain.server";

/**
 * Test support only (drain.server.test.ts runs it with tsx and sends it
 * SIGTERM during an apply): an HTTP server with server.ts's shutdown path
 * (the same middleware and drainServer) and one route that applies a change
 * set. Config comes from the environment.
 */
const userId = process.env.DRAIN_USER_ID;
if (!userId) throw new Error("DRAIN_USER_ID is required");

const app = express();
app.use(connectionCloseWhileDraining);
app.post("/apply/:id", async (req, res) => {
  // A person's approval, minted the only way there is: a signed-in POST to the API's apply endpoint.
  const { accessToken } = await createSession(userId, new Request("http://localhost/"));
  const approvalRequest = new Request(`http://localhost/api/v1/change-sets/${req.params.id}/apply`, {
    method: "POST",
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  const approval = await approvalFromApiRequest(approvalRequest, req.params.id);
  const detail = await applyChangeSet(userId, req.params.id, { approval, confirmLargeMoves: true });
  res.json({ status: detail.set.status });
});
app.get("/ping", (_req, res) => {
  res.json({ ok: true });
});

const listener = app.listen(0, "127.0.0.1", () => {
  const address = listener.address();
  process.stdout.write(`listening ${typeof address === "object" && address ? address.port : 0}\n`);
});
process.on("SIGTERM", () => {
  process.stdout.write("draining\n");
  void drainServer(listener, Number(process.env.DRAIN_TIMEOUT_MS ?? 8000)).then(async ({ clean }) => {
    await closeDb();
    process.stdout.write(clean ? "drained\n" : "timed out\n");
    process.exit(clean ? 0 : 1);
  });
});
