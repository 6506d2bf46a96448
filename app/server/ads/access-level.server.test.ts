// @vitest-environment node
import { afterEach, describe, expect, it } from "vitest";
import { setupTestEnvironment, type TestContext } from "../../../tests/setup/test-db";
import { connectDemoUser, startEmulator, type RunningEmulator } from "../../../tests/support/emulator-harness";

// Issue 26 point 5: a Google Cloud project with Test access, against real (non-test) accounts. Google refuses
// every account call; the person connecting is told what to apply for and where, in whichever shape the
// configured API version answers (v25+: CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION; older: DEVELOPER_TOKEN_NOT_APPROVED).

let emu: RunningEmulator | undefined;
let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.cleanup();
  await emu?.close();
  ctx = emu = undefined;
});

async function connectError(version: string | undefined): Promise<string> {
  emu = await startEmulator({ emulatorOptions: { accessLevel: "test" } });
  ctx = await setupTestEnvironment({ ...emu.env, ...(version ? { GOOGLE_ADS_API_VERSION: version } : {}) });
  const error = await connectDemoUser(emu.baseUrl).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(error).toBeInstanceOf(Error);
  return error!.message;
}

describe("a Cloud project with Test access", () => {
  it("default version (v26): CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION, with what to apply for and where", async () => {
    const message = await connectError(undefined);
    expect(message).toContain("The Google Cloud project is only approved for use with test accounts.");
    expect(message).toContain("The Google Cloud project that owns this app's OAuth client (GOOGLE_CLIENT_ID) has Test access");
    expect(message).toContain("Apply for Explorer access");
    expect(message).toContain("https://console.cloud.google.com/google/ads-apis/overview");
    expect(message).toContain("authorizationError.CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION");
    // Nothing was stored about an account the project may not read.
    expect(await ctx!.db.selectFrom("ads_accounts").select("customer_id").execute()).toEqual([]);
  });

  it("v24: DEVELOPER_TOKEN_NOT_APPROVED, explained as the Cloud project's access since the token sunset", async () => {
    const message = await connectError("v24");
    expect(message).toContain("The developer token is only approved for use with test accounts.");
    expect(message).toContain("GOOGLE_ADS_DEVELOPER_TOKEN is not needed");
    expect(message).toContain("https://console.cloud.google.com/google/ads-apis/overview");
    expect(message).toContain("authorizationError.DEVELOPER_TOKEN_NOT_APPROVED");
  });
});
