import { randomBytes } from "node:crypto";
import { test as base, expect, type APIRequestContext, type APIResponse, type Page } from "@playwright/test";
import { apiContract } from "../support/api-contract";

export interface TestUser {
  email: string;
  password: string;
}

export function newUser(): TestUser {
  return { email: `user-${randomBytes(5).toString("hex")}@example.com`, password: `pw-${randomBytes(6).toString("hex")}` };
}

/** Signs in through the login form, as a person would. */
export async function signInViaForm(page: Page, user: TestUser) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * The session's token once the hydrated app has mirrored it into
 * localStorage: the URL changes before hydration, so reading it right after
 * sign-in can race the mirror on a busy machine.
 */
export async function mirroredToken(page: Page): Promise<string> {
  await expect.poll(() => page.evaluate(() => localStorage.getItem("auth-token")), { timeout: 20_000 }).not.toBeNull();
  return (await page.evaluate(() => localStorage.getItem("auth-token")))!;
}

const METHODS: Record<string, string> = { get: "GET", post: "POST", put: "PUT", patch: "PATCH", delete: "DELETE", head: "HEAD" };

/**
 * The request fixture, checking every /api/v1 answer against the OpenAPI
 * document the server serves: a documented status, and a body that matches.
 */
async function checkedRequests(request: APIRequestContext): Promise<APIRequestContext> {
  const contract = apiContract(await (await request.get("/api/v1/openapi.json")).json());
  return new Proxy(request, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      const method = typeof prop === "string" ? (METHODS[prop] ?? (prop === "fetch" ? "fetch" : null)) : null;
      if (!method) return value.bind(target);
      return async (url: string, options?: { method?: string; maxRedirects?: number }) => {
        const response: APIResponse = await value.call(target, url, options);
        const final = new URL(response.url());
        // Redirects (Google's browser flow) end outside the API: nothing to check there.
        if (final.pathname.startsWith("/api/v1/") && response.url() === new URL(url, final).href) {
          const text = await response.text();
          const body = text && (response.headers()["content-type"] ?? "").includes("json") ? JSON.parse(text) : text || null;
          contract.check({ method: method === "fetch" ? (options?.method ?? "GET") : method, url: response.url() }, response.status(), body);
        }
        return response;
      };
    },
  });
}

export const test = base.extend<{ user: TestUser; signedInPage: Page }>({
  request: async ({ request }, use) => {
    await use(await checkedRequests(request));
  },
  // A registered (not signed-in) user, created through the JSON API.
  user: async ({ request }, use) => {
    const user = newUser();
    const res = await request.post("/api/v1/auth/register", { data: user });
    expect(res.status()).toBe(201);
    await use(user);
  },
  signedInPage: async ({ page, user }, use) => {
    await signInViaForm(page, user);
    await use(page);
  },
});

export { expect };
