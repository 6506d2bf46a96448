// @vitest-environment node
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { parseConfig, setConfigForTests } from "../env.server";
import { DecryptionError } from "./crypto.server";
import { completeGoogleSignIn, getConnection, getGoogleAccessToken, reencryptTokens } from "./google-connection.server";

// Issue 27 point 6: `npm run rotate-key` re-encrypts every stored Google token under the new
// ENCRYPTION_KEY version, after which the old key is no longer needed.
const oldKey = randomBytes(32).toString("base64");
const newKey = randomBytes(32).toString("base64");
let t: TestContext;
let userId: string;

beforeAll(async () => {
  t = await setupTestEnvironment({ ENCRYPTION_KEY: oldKey, ENCRYPTION_KEY_VERSION: "1" });
  ({ userId } = await completeGoogleSignIn(
    {
      tokens: {
        accessToken: "access-token-1",
        refreshToken: "refresh-token-1",
        expiresAt: new Date(Date.now() + 3_600_000),
        scopes: ["https://www.googleapis.com/auth/adwords"],
      },
      profile: { sub: "google-sub-rotate", email: "rotate@example.com", emailVerified: true },
    },
    null,
  ));
});
afterAll(async () => {
  await t?.cleanup();
});

const withKeys = (env: Record<string, string>) =>
  setConfigForTests(
    parseConfig({
      NODE_ENV: "test",
      DATA_DIR: t.dataDir,
      APP_URL: "http://localhost:3000",
      ...(t.config.DATABASE_URL ? { DATABASE_URL: t.config.DATABASE_URL } : {}),
      ...env,
    }),
  );

it("re-encrypts every token under the new key version; afterwards the old key can go", async () => {
  const before = (await getConnection(userId))!;
  expect(before.refresh_token_enc).toMatch(/^enc:v1:/);
  expect(before.access_token_enc).toMatch(/^enc:v1:/);

  // Without the old key the tokens cannot be read: the rotation is what makes the old key removable.
  withKeys({ ENCRYPTION_KEY: newKey, ENCRYPTION_KEY_VERSION: "2" });
  await expect(getGoogleAccessToken(before)).rejects.toBeInstanceOf(DecryptionError);

  withKeys({ ENCRYPTION_KEY: newKey, ENCRYPTION_KEY_VERSION: "2", ENCRYPTION_OLD_KEYS: `1:${oldKey}` });
  expect(await reencryptTokens()).toEqual({ connections: 1, rewritten: 1 });
  const after = (await getConnection(userId))!;
  expect(after.refresh_token_enc).toMatch(/^enc:v2:/);
  expect(after.access_token_enc).toMatch(/^enc:v2:/);
  // Idempotent.
  expect(await reencryptTokens()).toEqual({ connections: 1, rewritten: 0 });

  withKeys({ ENCRYPTION_KEY: newKey, ENCRYPTION_KEY_VERSION: "2" });
  expect(await getGoogleAccessToken(after)).toBe("access-token-1");
});
