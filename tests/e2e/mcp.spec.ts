import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Page } from "@playwright/test";
import { signInViaForm, test } from "./fixtures";
import { connectDemoAccount, expect, RICH_CUSTOMER_ID } from "./ads-fixtures";

// Issue 34: personal access tokens in /settings (JavaScript on and off, at a
// 390 px phone and a 1440 px laptop), and a person's own agent on the MCP
// server (the SDK's client, over HTTP, against the built server): it looks,
// proposes, and the person applies the proposal on its review page. The
// change is reverted at the end, so the shared demo account ends as it began.

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1440, height: 900 };

const tokensSection = (page: Page) => page.getByRole("region", { name: "Access tokens" });

async function expectNoPageScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${page.url()} is wider than the screen`).toBeLessThanOrEqual(innerWidth);
}

/** Fills and sends the "New access token" form; returns the token shown once. */
async function createToken(page: Page, name: string, scopes: Array<"Read" | "Propose">) {
  const section = tokensSection(page);
  // Under load, hydration can land after the typing and reset the fields: fill until the form has taken them.
  await expect(async () => {
    await section.getByLabel("Name").fill(name);
    for (const scope of ["Read", "Propose"] as const) await section.getByRole("checkbox", { name: new RegExp(`^${scope}`) }).setChecked(scopes.includes(scope));
    await section.getByLabel("Expires after").selectOption("7");
    await expect(section.getByLabel("Name")).toHaveValue(name, { timeout: 1000 });
  }).toPass();
  await section.getByRole("button", { name: "Create token" }).click();
  const shown = section.getByRole("textbox", { name: `New access token ${name}` });
  await expect(shown).toHaveValue(/^aam_pat_[A-Za-z0-9_-]{43}$/);
  return shown.inputValue();
}

async function mcpClient(baseURL: string, token: string) {
  const client = new Client({ name: "e2e-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", baseURL), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { result, text: (result.content[0] as { text: string }).text };
};

for (const javaScriptEnabled of [true, false]) {
  test.describe(`access tokens in /settings, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("refused without a name, created and shown once, used, listed with its last use, revoked; fits a phone and a laptop", async ({
      page,
      user,
      request,
    }) => {
      await signInViaForm(page, user);
      await page.setViewportSize(PHONE);
      await page.goto("/settings");
      const section = tokensSection(page);
      await expect(section.getByText("No access tokens yet.")).toBeVisible();

      // Bad input: the message sits next to the field, nothing is created.
      await section.getByLabel("Name").fill("   ");
      await section.getByRole("button", { name: "Create token" }).click();
      await expect(section.getByLabel("Name")).toHaveAccessibleDescription(/Give the token a name, e\.g\. the agent that will use it/);
      await expect(section.getByText("No access tokens yet.")).toBeVisible();

      const token = await createToken(page, "My script", ["Read"]);
      await expectNoPageScroll(page);
      const list = section.getByRole("list", { name: "Your access tokens" });
      await expect(list.getByRole("listitem")).toHaveCount(1);
      await expect(list.getByRole("listitem")).toContainText("My script");
      await expect(list.getByRole("listitem")).toContainText("Never used");

      // The token works on the JSON API; the page never shows it again.
      const accounts = await request.get("/api/v1/accounts", { headers: { Authorization: `Bearer ${token}` } });
      expect(accounts.status()).toBe(200);
      await page.setViewportSize(LAPTOP);
      await page.goto("/settings");
      await expect(section.getByRole("textbox", { name: /^New access token/ })).toHaveCount(0);
      expect(await page.content()).not.toContain(token);
      await expect(list.getByRole("listitem")).toContainText("Last used");
      await expectNoPageScroll(page);

      await list.getByRole("button", { name: "Revoke My script" }).click();
      await expect(section.getByText("No access tokens yet.")).toBeVisible();
      expect((await request.get("/api/v1/accounts", { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(401);
    });
  });
}

test("an agent looks and proposes over MCP; the person applies the proposal on its review page", async ({ page, request, baseURL }) => {
  test.setTimeout(180_000);
  await connectDemoAccount(page, request, "/settings");
  await page.goto("/settings");
  const token = await createToken(page, "Claude Desktop", ["Read", "Propose"]);
  const agent = await mcpClient(baseURL!, token);
  try {
    const { tools } = await agent.listTools();
    // The whole listing is held to the contract in app/server/mcp/mcp.server.test.ts; here: the built server offers it.
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["list_accounts", "list_campaigns", "get_change_history", "propose_changes"]));
    expect(names.filter((n) => /apply|approve|revert|discard/.test(n))).toEqual([]);
    const accounts = JSON.parse((await call(agent, "list_accounts", {})).text) as { accounts: Array<{ customerId: string }> };
    expect(accounts.accounts.map((a) => a.customerId)).toContain(RICH_CUSTOMER_ID);
    const campaigns = JSON.parse((await call(agent, "list_campaigns", { customerId: RICH_CUSTOMER_ID, status: "ENABLED", limit: 1 })).text) as {
      rows: Array<{ id: string; name: string }>;
    };
    const target = campaigns.rows[0];

    // An invented apply tool is an error; Google is not asked anything.
    const invented = await call(agent, "apply_change_set", { customerId: RICH_CUSTOMER_ID, changeSetId: "x" });
    expect(invented.result.isError).toBe(true);

    const { text } = await call(agent, "propose_changes", {
      customerId: RICH_CUSTOMER_ID,
      title: `Pause ${target.name}`,
      actions: [{ type: "status", kind: "campaign", ids: [target.id], status: "PAUSED" }],
    });
    const proposal = JSON.parse(text) as { changeSetId: string; status: string; url: string };
    expect(proposal).toMatchObject({ status: "validated", url: new URL(`/changes/${proposal.changeSetId}`, baseURL).href });

    // The person opens the review address the agent got, and applies.
    await page.goto(proposal.url);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Pause ${target.name}`);
    await expect(page.getByText("By your own agent, over MCP, access token “Claude Desktop”")).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Google validated the change." })).toBeVisible();
    await page.getByRole("button", { name: "Apply", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: /Applied at Google: 1 change/ })).toBeVisible();

    // The agent sees what the person did; then the person undoes it (the demo account ends as it began).
    const history = JSON.parse((await call(agent, "get_change_history", { customerId: RICH_CUSTOMER_ID })).text) as { rows: Array<{ change: string }> };
    expect(history.rows.map((r) => r.change).join("\n")).toContain(target.name);
    await page.getByRole("button", { name: "Revert" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Revert: /);
    await page.getByRole("button", { name: "Apply", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: /Applied at Google: 1 change/ })).toBeVisible();
  } finally {
    await agent.close();
  }
});
