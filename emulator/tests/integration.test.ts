import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdsDataSource } from "../ads/contract";
import { createAdsDataSource, createDemoStore, DEMO_MANAGER_CUSTOMER_ID, DEMO_RICH_CUSTOMER_ID, DEMO_USER_EMAIL } from "../ads";
import { createEmulator, type Emulator } from "../server";
import { ads, signIn } from "./helpers";

/** The HTTP layer over the real demo store and GAQL engine. */

let emulator: Emulator;
let server: http.Server;
let base: string;
let token: string;

beforeAll(async () => {
  const dataSource: AdsDataSource = createAdsDataSource(createDemoStore());
  emulator = createEmulator({
    dataSource,
    demoUser: { email: DEMO_USER_EMAIL, name: "Demo Advertiser", sub: "100000000000000000001" },
  });
  server = http.createServer((req, res) => emulator.handler(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  token = (await signIn(base)).tokens.access_token;
});

afterAll(async () => {
  await emulator.close();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

async function accessible(): Promise<string[]> {
  const res = await ads(base, "customers:listAccessibleCustomers", token);
  expect(res.status).toBe(200);
  return (res.json.resourceNames as string[]).map((n) => n.replace("customers/", ""));
}

describe("emulator over the demo store", () => {
  it("lists the demo user's accounts", async () => {
    const ids = await accessible();
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id).toMatch(/^\d{10}$/);
  });

  it("searches each accessible account", async () => {
    for (const id of await accessible()) {
      const res = await ads(base, `customers/${id}/googleAds:search`, token, {
        body: { query: "SELECT customer.id, customer.descriptive_name, customer.manager FROM customer" },
      });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json.results[0].customer.id).toBe(id);
      expect(res.json.fieldMask).toContain("customer.id");
    }
  });

  it("walks a manager's clients and needs login-customer-id for them", async () => {
    const ids = await accessible();
    let checked = 0;
    for (const managerId of ids) {
      const tree = await ads(base, `customers/${managerId}/googleAds:search`, token, {
        body: {
          query:
            "SELECT customer_client.client_customer, customer_client.level, customer_client.manager, customer_client.id FROM customer_client WHERE customer_client.level <= 1",
        },
      });
      expect(tree.status, JSON.stringify(tree.json)).toBe(200);
      const clients = ((tree.json.results ?? []) as Array<{ customerClient: { id: string; level: string } }>)
        .map((r) => r.customerClient)
        .filter((c) => c.level === "1" && !ids.includes(c.id));
      for (const client of clients.slice(0, 2)) {
        const q = { query: "SELECT customer.id FROM customer" };
        const denied = await ads(base, `customers/${client.id}/googleAds:search`, token, { body: q });
        expect(denied.status).toBe(403);
        expect(denied.json.error.details[0].errors[0].errorCode).toEqual({ authorizationError: "USER_PERMISSION_DENIED" });
        const allowed = await ads(base, `customers/${client.id}/googleAds:search`, token, { body: q, headers: { "login-customer-id": managerId } });
        expect(allowed.status, JSON.stringify(allowed.json)).toBe(200);
        checked++;
      }
    }
    // The demo has at least one manager with a client reachable only through it.
    expect(checked).toBeGreaterThan(0);
  });

  it("streams a client's campaign metrics through its manager, in request-id-stamped batches", async () => {
    const res = await ads(base, `customers/${DEMO_RICH_CUSTOMER_ID}/googleAds:searchStream`, token, {
      body: { query: "SELECT campaign.id, campaign.name, metrics.clicks, metrics.cost_micros FROM campaign WHERE segments.date DURING LAST_30_DAYS" },
      headers: { "login-customer-id": DEMO_MANAGER_CUSTOMER_ID },
    });
    expect(res.status, JSON.stringify(res.json).slice(0, 500)).toBe(200);
    expect(Array.isArray(res.json)).toBe(true);
    expect(res.json[0].results.length).toBeGreaterThan(0);
    for (const batch of res.json) {
      expect(batch.requestId).toBe(res.headers.get("request-id"));
      expect(batch.results?.length ?? 0).toBeLessThanOrEqual(10_000);
    }
    expect(res.json.at(-1).queryResourceConsumption).toMatch(/^\d+$/);
  });

  it("array-wraps the engine's refusal of metrics on a manager account", async () => {
    const res = await ads(base, `customers/${DEMO_MANAGER_CUSTOMER_ID}/googleAds:searchStream`, token, {
      body: { query: "SELECT campaign.id, metrics.clicks FROM campaign" },
    });
    expect(res.status).toBe(400);
    expect(res.json[0].error.details[0].errors[0].errorCode).toEqual({ queryError: "REQUESTED_METRICS_FOR_MANAGER" });
    expect(res.json[0].error.details[0].requestId).toBe(res.headers.get("request-id"));
  });

  it("pages a client's search with nextPageToken at most 10,000 rows at a time", async () => {
    const q = "SELECT ad_group_criterion.criterion_id FROM keyword_view WHERE segments.date DURING LAST_30_DAYS";
    const res = await ads(base, `customers/${DEMO_RICH_CUSTOMER_ID}/googleAds:search`, token, {
      body: { query: q, searchSettings: { returnTotalResultsCount: true } },
      headers: { "login-customer-id": DEMO_MANAGER_CUSTOMER_ID },
    });
    expect(res.status, JSON.stringify(res.json).slice(0, 500)).toBe(200);
    expect(res.json.results?.length ?? 0).toBeLessThanOrEqual(10_000);
    expect(res.json.totalResultsCount).toMatch(/^\d+$/);
    if (res.json.nextPageToken) {
      const next = await ads(base, `customers/${DEMO_RICH_CUSTOMER_ID}/googleAds:search`, token, {
        body: { query: q, pageToken: res.json.nextPageToken },
        headers: { "login-customer-id": DEMO_MANAGER_CUSTOMER_ID },
      });
      expect(next.status).toBe(200);
    }
  });

  it("returns the GAQL engine's errors in Google's envelope", async () => {
    const res = await ads(base, `customers/${DEMO_MANAGER_CUSTOMER_ID}/googleAds:search`, token, {
      body: { query: "SELECT campaign.no_such_field FROM campaign" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.status).toBe("INVALID_ARGUMENT");
    expect(Object.keys(res.json.error.details[0].errors[0].errorCode)).toHaveLength(1);
    expect(res.json.error.details[0].requestId).toBe(res.headers.get("request-id"));
  });
});
