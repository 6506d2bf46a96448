import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MANAGER_CUSTOMER_ID, DEMO_RICH_CUSTOMER_ID, DEMO_SMALL_CUSTOMER_ID } from "../ads";
import { ads, DEMO_EMAIL, signIn, startDemoEmulator, type Running } from "./helpers";

/**
 * Access that Google takes away (issue 25 point 4): an administrator removes
 * the user from an account, or a manager unlinks a client. Google then stops
 * listing the account and refuses every call on it with
 * USER_PERMISSION_DENIED; the grant itself stays valid.
 */
let emu: Running;
let token: string;
beforeAll(async () => {
  emu = await startDemoEmulator({ options: { streamCache: true } });
  token = (await signIn(emu.baseUrl)).tokens.access_token;
});
afterAll(() => emu.close());

const clients = async () => {
  const res = await ads(emu.baseUrl, `customers/${DEMO_MANAGER_CUSTOMER_ID}/googleAds:search`, token, {
    body: { query: "SELECT customer_client.client_customer FROM customer_client WHERE customer_client.level > 0" },
    headers: { "login-customer-id": DEMO_MANAGER_CUSTOMER_ID },
  });
  return (res.json.results ?? []).map((r: { customerClient: { clientCustomer: string } }) => r.customerClient.clientCustomer);
};
const campaigns = (customerId: string) =>
  ads(emu.baseUrl, `customers/${customerId}/googleAds:search`, token, {
    body: { query: "SELECT campaign.id FROM campaign LIMIT 1" },
    headers: { "login-customer-id": DEMO_MANAGER_CUSTOMER_ID },
  });

describe("access changes at Google", () => {
  it("a client unlinked from its manager is no longer listed or reachable through it (admin hook)", async () => {
    expect(await clients()).toContain(`customers/${DEMO_SMALL_CUSTOMER_ID}`);
    expect((await campaigns(DEMO_SMALL_CUSTOMER_ID)).status).toBe(200);
    const hook = await fetch(`${emu.baseUrl}/__emulator/unlink-client`, {
      method: "POST",
      body: JSON.stringify({ managerId: DEMO_MANAGER_CUSTOMER_ID, clientId: DEMO_SMALL_CUSTOMER_ID }),
    });
    expect(await hook.json()).toMatchObject({ unlinked: true });
    expect(await clients()).not.toContain(`customers/${DEMO_SMALL_CUSTOMER_ID}`);
    const denied = await campaigns(DEMO_SMALL_CUSTOMER_ID);
    expect(denied.status).toBe(403);
    expect(denied.json.error.details[0].errors[0].errorCode).toEqual({ authorizationError: "USER_PERMISSION_DENIED" });
    // The other client is untouched.
    expect((await campaigns(DEMO_RICH_CUSTOMER_ID)).status).toBe(200);
  });

  it("a user removed from an account no longer sees it in listAccessibleCustomers, nor anything below it (state)", async () => {
    expect(emu.emulator.state.revokeCustomerAccess(DEMO_EMAIL, DEMO_MANAGER_CUSTOMER_ID)).toBe(true);
    expect(emu.emulator.state.revokeCustomerAccess(DEMO_EMAIL, DEMO_MANAGER_CUSTOMER_ID)).toBe(false);
    const list = await ads(emu.baseUrl, "customers:listAccessibleCustomers", token);
    // The demo user reached everything through the manager: nothing is left (Google's NOT_ADS_USER).
    expect(list.status).toBe(401);
    expect((await campaigns(DEMO_RICH_CUSTOMER_ID)).status).not.toBe(200);
  });

  it("refuses a hook without its ids", async () => {
    const res = await fetch(`${emu.baseUrl}/__emulator/revoke-access`, { method: "POST", body: "{}" });
    expect(res.status).toBe(400);
  });
});
