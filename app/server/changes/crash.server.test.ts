// @vitest-environment node
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { getConnection } from "../auth/google-connection.server";
import { adsClientFor, getAccount } from "../ads/accounts.server";
import { connectDemoUser } from "../../../tests/support/emulator-harness";
import { syncAccount } from "../ads/sync.server";
import { readChildren } from "./kinds.server";
import { reconcileInFlight, validateChangeSet } from "./pipeline.server";
import { proposeBulk } from "./propose.server";
import { CUSTOMER, startWritableEmulator, type WritableEmulator } from "../../../tests/support/writable-emulator";

// 100 changes (10 change sets, half atomic) applied by a child process that is
// SIGKILLed at random moments; after each kill the parent runs
// reconcileInFlight, as a restarted server would. In the end every change must
// be applied or failed, and Google (the emulator, in this process) must show
// each applied change exactly once and no failed one at all.

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const SETS = 10;
const KILL_ROUNDS = 4;

let emu: WritableEmulator;
let ctx: TestContext;
let userId: string;
// Deterministic "random" so a failure can be replayed.
let seed = 20261122;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

beforeAll(async () => {
  emu = await startWritableEmulator({ mutateDelayMs: () => 10 + Math.floor(rand() * 50), dropAbandoned: () => rand() < 0.5 });
  ctx = await setupTestEnvironment(emu.env);
  userId = await connectDemoUser(emu.baseUrl);
  await syncAccount(userId, CUSTOMER);
}, 60_000);

afterAll(async () => {
  await ctx?.cleanup();
  await emu?.close();
});

/** killAfterSets: SIGKILL once that many sets are applied, plus 0–80 ms (into the next set); null runs to the end. */
function runChild(killAfterSets: number | null): Promise<"done" | "killed"> {
  return new Promise((resolve, reject) => {
    // node --import tsx, not the tsx CLI: the CLI runs the script in a grandchild that SIGKILL would not reach.
    const child = spawn(process.execPath, ["--import", "tsx", path.join(here, "crash-child.server.ts")], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "test",
        APP_URL: ctx.config.APP_URL,
        DATA_DIR: ctx.dataDir,
        ...(ctx.config.DATABASE_URL ? { DATABASE_URL: ctx.config.DATABASE_URL } : {}),
        LOG_LEVEL: "silent",
        CRASH_USER_ID: userId,
        ...emu.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (killAfterSets !== null && out.includes("ready") && (out.match(/^set$/gm)?.length ?? 0) >= killAfterSets) {
        killAfterSets = null;
        setTimeout(() => child.kill("SIGKILL"), Math.floor(rand() * 80));
      }
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve("killed");
      else if (code === 0 && out.includes("done")) resolve("done");
      else reject(new Error(`child exited ${code}: ${err.slice(0, 2000)}`));
    });
  });
}

it("never loses or doubles a change when the applying process is killed", async () => {
  const account = await getAccount(userId, CUSTOMER);
  const groups = await ctx.db.selectFrom("ads_ad_groups").select(["id", "campaign_id"]).where("customer_id", "=", CUSTOMER).orderBy("id").execute();
  const keywords = await ctx.db
    .selectFrom("ads_keywords")
    .select(["ad_group_id", "criterion_id"])
    .where("customer_id", "=", CUSTOMER)
    .where("negative", "=", 0)
    .orderBy("criterion_id")
    .execute();
  const propose = async (s: number) => {
    const g = groups[s % groups.length];
    const id = await proposeBulk(
      userId,
      {
        customerId: CUSTOMER,
        actions: [
          {
            type: "add_keywords",
            adGroupId: g.id,
            keywords: Array.from({ length: 6 }, (_, i) => ({ text: `crash probe ${s} ${i}`, matchType: "EXACT" as const })),
          },
          {
            type: "bid",
            kind: "keyword",
            items: [0, 1].map((j) => {
              const k = keywords[s * 2 + j];
              return { id: `${k.ad_group_id}~${k.criterion_id}`, cpc: 2 + s / 10 + j / 100 };
            }),
          },
          {
            type: "add_negatives",
            level: "campaign",
            parentId: g.campaign_id,
            keywords: [0, 1].map((i) => ({ text: `crash negative ${s} ${i}`, matchType: "PHRASE" as const })),
          },
        ],
      },
      { atomic: s % 2 === 0 },
    );
    expect((await validateChangeSet(userId, id)).set.status).toBe("validated");
  };
  // The last set waits for the run nobody kills, so something is surely applied whatever
  // the kills (on a busy machine they can all land before any change reaches Google).
  for (let s = 0; s < SETS - 1; s++) await propose(s);

  const outcomes: string[] = [];
  const reconciled = { applied: 0, failed: 0 };
  for (let round = 0; round < KILL_ROUNDS; round++) {
    outcomes.push(await runChild(Math.floor(rand() * 2)));
    // settleMs counts from the approval; a set's last request can start later, so let the emulator drain too.
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The dead child's lease runs out (LEASE_MS after its last renewal, on a real restart): the test lets that time pass.
    await ctx.db
      .updateTable("change_sets")
      .set({ lease_expires_at: new Date(0).toISOString() })
      .where("status", "=", "applying")
      .execute();
    // Longer than any mutate the emulator still holds for the dead child.
    const r = await reconcileInFlight({ settleMs: 200 });
    expect(r.errors).toEqual([]);
    reconciled.applied += r.applied;
    reconciled.failed += r.failed;
  }
  await propose(SETS - 1);
  outcomes.push(await runChild(null));
  expect(outcomes.at(-1)).toBe("done");
  expect(outcomes.filter((o) => o === "killed").length).toBeGreaterThan(0);

  const changes = await ctx.db
    .selectFrom("changes")
    .innerJoin("change_sets", "change_sets.id", "changes.change_set_id")
    .selectAll("changes")
    .select("change_sets.status as set_status")
    .execute();
  expect(changes).toHaveLength(SETS * 10);
  expect(changes.filter((c) => c.status !== "applied" && c.status !== "failed")).toEqual([]);
  expect(changes.filter((c) => ["applying", "validated"].includes(c.set_status))).toEqual([]);

  // Google's view: live resources and change_event.
  const connection = (await getConnection(userId))!;
  const client = adsClientFor(connection);
  const login = account!.login_customer_id ?? undefined;
  const liveKeywords = await readChildren(
    client,
    CUSTOMER,
    "adGroupCriteria",
    "ad_group",
    groups.map((g) => `customers/${CUSTOMER}/adGroups/${g.id}`),
    login,
  );
  const liveNegatives = await readChildren(
    client,
    CUSTOMER,
    "campaignCriteria",
    "campaign",
    [...new Set(groups.map((g) => `customers/${CUSTOMER}/campaigns/${g.campaign_id}`))],
    login,
  );
  const today = new Date();
  const from = new Date(today.getTime() - 86_400_000).toISOString().slice(0, 10);
  const to = new Date(today.getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
  const events = (await client.searchStream(
    CUSTOMER,
    `SELECT change_event.change_resource_name, change_event.resource_change_operation, change_event.new_resource, change_event.client_type
     FROM change_event WHERE change_event.change_date_time >= '${from}' AND change_event.change_date_time <= '${to}' LIMIT 10000`,
    { loginCustomerId: login },
  )) as Array<{ changeEvent: { changeResourceName: string; resourceChangeOperation: string; newResource?: { adGroupCriterion?: { cpcBidMicros?: string } } } }>;
  const eventsFor = (rn: string, op: string) => events.filter((e) => e.changeEvent.changeResourceName === rn && e.changeEvent.resourceChangeOperation === op);

  let applied = 0;
  for (const c of changes) {
    const after = JSON.parse(c.after_json!) as Record<string, unknown>;
    if (c.operation === "create") {
      const pool = c.resource_kind === "campaign_negative_keyword" ? liveNegatives : liveKeywords;
      const made = pool.filter((r) => r.fields.text === after.text);
      if (c.status === "applied") {
        applied += 1;
        expect(made.map((r) => r.resourceName)).toEqual([c.result_resource_name]);
        expect(eventsFor(c.result_resource_name!, "CREATE")).toHaveLength(1);
      } else {
        expect(made).toEqual([]);
      }
    } else {
      const updates = eventsFor(c.resource_name!, "UPDATE").filter(
        (e) => Number(e.changeEvent.newResource?.adGroupCriterion?.cpcBidMicros) === after.cpcBidMicros,
      );
      if (c.status === "applied") applied += 1;
      expect(updates).toHaveLength(c.status === "applied" ? 1 : 0);
    }
  }
  expect(applied).toBeGreaterThan(0);
  expect(reconciled.applied + reconciled.failed).toBeGreaterThan(0);
  console.warn(`crash test: ${outcomes.join(",")}; reconciled ${JSON.stringify(reconciled)}; ${applied}/${changes.length} applied`);
}, 60_000);
