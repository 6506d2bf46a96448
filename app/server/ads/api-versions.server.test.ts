import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { warnAboutApiVersion } from "../boot.server";
import { parseConfig } from "../env.server";
import { captureLogs } from "../log.server";
import { ADS_API_SUNSETS, DEFAULT_ADS_API_VERSION, SUNSET_SOURCE_URL, versionSunsetWarning } from "./api-versions.server";

const at = (iso: string) => new Date(`${iso}T12:00:00Z`);
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "versions-test-"));

describe("Google Ads API versions (issue 26 point 5)", () => {
  it("defaults to v26, which the table knows", () => {
    expect(DEFAULT_ADS_API_VERSION).toBe("v26");
    expect(parseConfig({ DATA_DIR: tmp() }).google.adsApiVersion).toBe("v26");
    expect(parseConfig({ DATA_DIR: tmp(), GOOGLE_ADS_API_VERSION: "v24" }).google.adsApiVersion).toBe("v24");
    expect(() => parseConfig({ DATA_DIR: tmp(), GOOGLE_ADS_API_VERSION: "24" })).toThrow(/GOOGLE_ADS_API_VERSION: must look like v26/);
    expect(ADS_API_SUNSETS[DEFAULT_ADS_API_VERSION]).toBeDefined();
  });

  it("warns within 90 days of the published sunset, and not before", () => {
    // v22: 2026-10-07 (a fixed date).
    expect(versionSunsetWarning("v22", at("2026-07-08"))).toBeNull();
    const near = versionSunsetWarning("v22", at("2026-07-10"));
    expect(near).toMatch(
      /^Google Ads API v22 is sunset on 2026-10-07, in 89 days; after that every request to Google fails\. Set GOOGLE_ADS_API_VERSION to v26/,
    );
    expect(near).toContain(SUNSET_SOURCE_URL);
    expect(versionSunsetWarning("v22", at("2026-10-06"))).toMatch(/in 1 day;/);
    expect(versionSunsetWarning("v22", at("2026-11-28"))).toMatch(
      /^Google Ads API v22 was sunset on 2026-10-07: every request to Google fails with UNSUPPORTED_VERSION/,
    );
    // v23: February 2027, month only: taken as its first day.
    expect(versionSunsetWarning("v23", at("2026-11-01"))).toBeNull();
    expect(versionSunsetWarning("v23", at("2026-11-28"))).toMatch(/^Google Ads API v23 is sunset in 2027-02 \(tentative; assumed 2027-02-01\), in 65 days/);
    // The default has a year left.
    expect(versionSunsetWarning("v26", at("2026-11-28"))).toBeNull();
    expect(versionSunsetWarning("v26", at("2027-08-10"))).toMatch(/v26 is sunset in 2027-11/);
  });

  it("knows that versions older than the table are gone and says nothing about newer ones", () => {
    expect(versionSunsetWarning("v17", at("2026-11-28"))).toMatch(/^Google Ads API v17 was sunset long ago \(before 2026-02-11\)/);
    expect(versionSunsetWarning("v27", at("2026-11-28"))).toBeNull();
  });

  it("logs the warning at start, once, and nothing for the default", () => {
    const logs = captureLogs();
    try {
      warnAboutApiVersion(parseConfig({ DATA_DIR: tmp(), GOOGLE_ADS_API_VERSION: "v23" }), at("2026-11-28"));
      warnAboutApiVersion(parseConfig({ DATA_DIR: tmp() }), at("2026-11-28"));
    } finally {
      logs.restore();
    }
    expect(logs.records).toHaveLength(1);
    expect(logs.records[0]).toMatchObject({ level: "warn" });
    expect(logs.records[0].msg).toMatch(/v23 is sunset in 2027-02/);
  });
});
