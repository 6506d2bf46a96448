import { randomBytes } from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";

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

export const test = base.extend<{ user: TestUser; signedInPage: Page }>({
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
