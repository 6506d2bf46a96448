// @vitest-environment node
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AdsResponseError, InvalidCustomerIdError } from "./errors.server";
import { customerIdFromResourceName, formatCustomerId, isCustomerId, normalizeCustomerId } from "./customer-id.server";
import { Double, Int64, Int64String, Micros, ResourceName, int64, micros, microsToUnits, parseRows, unitsToMicros } from "./rows.server";
import { gaqlDate, gaqlEnum, gaqlInt, gaqlList, gaqlString } from "./gaql.server";

describe("int64 and micros", () => {
  it("reads Google's int64 strings and refuses what would lose precision", () => {
    expect(int64("12450")).toBe(12450);
    expect(int64("-3")).toBe(-3);
    expect(int64(7)).toBe(7);
    expect(int64(undefined, 0)).toBe(0);
    expect(() => int64(undefined)).toThrow(AdsResponseError);
    expect(() => int64("9007199254740993")).toThrow(/int64/);
    expect(() => int64("1.5")).toThrow(AdsResponseError);
    expect(() => int64("")).toThrow(AdsResponseError);
  });

  it("reads micros from int64 strings and from doubles such as averageCpc", () => {
    expect(micros("85200000")).toBe(85_200_000);
    expect(micros(250588.2)).toBe(250588.2);
    expect(micros(null, 0)).toBe(0);
    expect(() => micros("12 EUR")).toThrow(AdsResponseError);
    expect(microsToUnits(85_200_000)).toBe(85.2);
    expect(unitsToMicros(19.99)).toBe("19990000");
  });
});

describe("zod row schemas", () => {
  const CampaignRow = z.object({
    campaign: z.object({ resourceName: ResourceName, id: Int64String, name: z.string(), status: z.enum(["ENABLED", "PAUSED", "REMOVED"]) }),
    metrics: z.object({ impressions: Int64, clicks: Int64, costMicros: Micros, averageCpc: Micros.optional(), ctr: Double, conversions: Double }),
  });
  const row = {
    campaign: { resourceName: "customers/1234567890/campaigns/22335577", id: "22335577", name: "Brand_Search", status: "ENABLED" },
    metrics: { impressions: "12450", clicks: "340", costMicros: "85200000", conversions: 14.0, ctr: 0.0273, averageCpc: 250588.2 },
  };

  it("converts quantities and keeps ids as strings", () => {
    const [parsed] = parseRows(CampaignRow, [row]);
    expect(parsed.campaign.id).toBe("22335577");
    expect(parsed.metrics).toEqual({ impressions: 12450, clicks: 340, costMicros: 85_200_000, averageCpc: 250588.2, ctr: 0.0273, conversions: 14 });
  });

  it("names the row and field that don't match", () => {
    const bad = { ...row, metrics: { ...row.metrics, clicks: 3.5 } };
    expect(() => parseRows(CampaignRow, [row, bad], "campaign performance")).toThrow(/row 1 of campaign performance .*metrics\.clicks/);
    expect(Int64.safeParse("99999999999999999999").success).toBe(false);
    expect(Double.parse("NaN")).toBeNaN();
  });
});

describe("customer ids", () => {
  it("normalises the two accepted spellings and refuses the rest", () => {
    expect(normalizeCustomerId("123-456-7890")).toBe("1234567890");
    expect(normalizeCustomerId(" 1234567890 ")).toBe("1234567890");
    expect(() => normalizeCustomerId("1234-567-890")).toThrow(InvalidCustomerIdError);
    expect(() => normalizeCustomerId(1234567890 as unknown as string)).toThrow(InvalidCustomerIdError);
    expect(isCustomerId("123-456-7890")).toBe(true);
    expect(isCustomerId("123")).toBe(false);
    expect(formatCustomerId("1234567890")).toBe("123-456-7890");
    expect(customerIdFromResourceName("customers/1112223334")).toBe("1112223334");
    expect(() => customerIdFromResourceName("customers/1/campaigns/2")).toThrow(AdsResponseError);
  });
});

describe("GAQL literals", () => {
  it("quotes strings without relying on escapes", () => {
    expect(gaqlString("Brand")).toBe("'Brand'");
    expect(gaqlString("Joe's shoes")).toBe(`"Joe's shoes"`);
    expect(() => gaqlString(`it's "x"`)).toThrow(RangeError);
    expect(() => gaqlString("a\\b")).toThrow(RangeError);
    expect(() => gaqlString("a\nb")).toThrow(RangeError);
  });

  it("formats dates, integers, enums and lists", () => {
    expect(gaqlDate("2025-01-31")).toBe("'2025-01-31'");
    expect(gaqlDate(new Date(Date.UTC(2025, 10, 15, 23)))).toBe("'2025-11-15'");
    expect(() => gaqlDate("2025-02-30")).toThrow(RangeError);
    expect(() => gaqlDate("LAST_90_DAYS")).toThrow(RangeError);
    expect(gaqlInt("22335577")).toBe("22335577");
    expect(() => gaqlInt("1 OR 1=1")).toThrow(RangeError);
    expect(gaqlEnum("ENABLED")).toBe("ENABLED");
    expect(() => gaqlEnum("enabled'")).toThrow(RangeError);
    expect(gaqlList(["ENABLED", "PAUSED"], gaqlEnum)).toBe("(ENABLED, PAUSED)");
    expect(gaqlList(["a", "b"])).toBe("('a', 'b')");
  });
});
