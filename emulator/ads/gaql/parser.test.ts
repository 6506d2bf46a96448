import { describe, it, expect } from "vitest";
import { parseQuery, type Operator } from "./parser";
import { failure } from "../test/helpers";

describe("GAQL parser: clauses", () => {
  it("parses SELECT/FROM/WHERE/ORDER BY/LIMIT/PARAMETERS", () => {
    const q = parseQuery(
      "SELECT campaign.id, campaign.name, metrics.clicks FROM campaign WHERE campaign.status = 'ENABLED' AND metrics.clicks > 10 " +
        "ORDER BY metrics.clicks DESC, campaign.name ASC LIMIT 25 PARAMETERS include_drafts = true, omit_unselected_resource_names = false",
    );
    expect(q.select.map((f) => f.name)).toEqual(["campaign.id", "campaign.name", "metrics.clicks"]);
    expect(q.from.name).toBe("campaign");
    expect(q.where).toHaveLength(2);
    expect(q.orderBy).toEqual([
      { field: expect.objectContaining({ name: "metrics.clicks" }), descending: true },
      { field: expect.objectContaining({ name: "campaign.name" }), descending: false },
    ]);
    expect(q.limit).toBe(25);
    expect(q.parameters).toEqual({ include_drafts: "true", omit_unselected_resource_names: "false" });
  });

  it("treats keywords case-insensitively and accepts both quote styles", () => {
    const q = parseQuery(`select campaign.name from campaign where campaign.name = "Brand" and campaign.status != 'REMOVED' order by campaign.name limit 1`);
    expect(q.where.map((c) => c.values[0])).toEqual([
      expect.objectContaining({ kind: "string", value: "Brand" }),
      expect.objectContaining({ kind: "string", value: "REMOVED" }),
    ]);
  });

  const ops: Array<[string, Operator, number]> = [
    ["campaign.id = 1", "=", 1],
    ["campaign.id != 1", "!=", 1],
    ["campaign.id > 1", ">", 1],
    ["campaign.id >= 1", ">=", 1],
    ["campaign.id < 1", "<", 1],
    ["campaign.id <= 1", "<=", 1],
    ["campaign.status IN ('ENABLED', 'PAUSED')", "IN", 2],
    ["campaign.status NOT IN (ENABLED, PAUSED)", "NOT IN", 2],
    ["campaign.name LIKE '%Brand%'", "LIKE", 1],
    ["campaign.name NOT LIKE '%Brand%'", "NOT LIKE", 1],
    ["campaign.labels CONTAINS ANY ('customers/1/labels/2')", "CONTAINS ANY", 1],
    ["campaign.labels CONTAINS ALL ('customers/1/labels/2', 'customers/1/labels/3')", "CONTAINS ALL", 2],
    ["campaign.labels CONTAINS NONE ('customers/1/labels/2')", "CONTAINS NONE", 1],
    ["campaign.end_date_time IS NULL", "IS NULL", 0],
    ["campaign.end_date_time IS NOT NULL", "IS NOT NULL", 0],
    ["segments.date DURING LAST_7_DAYS", "DURING", 1],
    ["segments.date BETWEEN '2026-01-01' AND '2026-01-31'", "BETWEEN", 2],
    ["campaign.name REGEXP_MATCH '.*Brand.*'", "REGEXP_MATCH", 1],
    ["campaign.name NOT REGEXP_MATCH '(?i).*brand.*'", "NOT REGEXP_MATCH", 1],
  ];
  for (const [cond, op, n] of ops) {
    it(`parses operator ${op}`, () => {
      const q = parseQuery(`SELECT campaign.id FROM campaign WHERE ${cond}`);
      expect(q.where[0].op).toBe(op);
      expect(q.where[0].values).toHaveLength(n);
    });
  }

  it("parses numbers (negative, decimal), enums and lists", () => {
    const q = parseQuery("SELECT campaign.id FROM campaign WHERE metrics.ctr > 0.05 AND campaign.id != -3 AND campaign.status IN (ENABLED)");
    expect(q.where[0].values[0]).toMatchObject({ kind: "number", value: 0.05 });
    expect(q.where[1].values[0]).toMatchObject({ kind: "number", value: -3 });
    expect(q.where[2]).toMatchObject({ isList: true, values: [{ kind: "literal", value: "ENABLED" }] });
  });

  it("supports escaped quotes inside strings", () => {
    const q = parseQuery("SELECT ad_group.name FROM ad_group WHERE ad_group.name = 'Men\\'s Hiking Boots'");
    expect(q.where[0].values[0]).toMatchObject({ value: "Men's Hiking Boots" });
  });
});

describe("GAQL parser: errors carry Google's codes, trigger and location", () => {
  const cases: Array<[string, string, string | undefined]> = [
    ["", "EXPECTED_SELECT", undefined],
    ["campaign.id FROM campaign", "EXPECTED_SELECT", "campaign.id"],
    ["SELECT campaign.id", "EXPECTED_FROM", undefined],
    ["SELECT campaign.id campaign.name FROM campaign", "EXPECTED_FROM", "campaign.name"],
    ["SELECT campaign.id FROM", "UNEXPECTED_END_OF_QUERY", undefined],
    ["SELECT campaign.id FROM campaign WHERE (campaign.id = 1)", "BAD_FIELD_NAME", "("],
    ["SELECT campaign.id FROM campaign WHERE campaign.id = 1 OR campaign.id = 2", "UNEXPECTED_INPUT", "OR"],
    ["SELECT campaign.id FROM campaign WHERE campaign.id == 1", "BAD_VALUE", "="],
    ["SELECT campaign.id FROM campaign WHERE campaign.id EQUALS 1", "BAD_OPERATOR", "EQUALS"],
    ["SELECT campaign.id FROM campaign WHERE campaign.status IN 'ENABLED'", "EXPECTED_LIST", "ENABLED"],
    ["SELECT campaign.id FROM campaign WHERE campaign.status = ('ENABLED')", "EXPECTED_SINGLE_VALUE", "campaign.status"],
    ["SELECT campaign.id FROM campaign WHERE campaign.status IN ()", "PROHIBITED_EMPTY_LIST_IN_CONDITION", "campaign.status"],
    ["SELECT campaign.id FROM campaign WHERE campaign.id IN (1, 'a')", "PROHIBITED_VALUE_COMBINATION_IN_LIST", "campaign.id"],
    ["SELECT campaign.id FROM campaign WHERE segments.date BETWEEN '2026-01-01' '2026-01-02'", "EXPECTED_AND", "2026-01-02"],
    ["SELECT campaign.id FROM campaign WHERE segments.date BETWEEN '2026-01-01' AND", "EXPECTED_VALUE_WITH_BETWEEN_OPERATOR", undefined],
    ["SELECT campaign.id FROM campaign WHERE segments.date BETWEEN '2026-01-01' AND 5", "PROHIBITED_VALUE_COMBINATION_WITH_BETWEEN_OPERATOR", "segments.date"],
    ["SELECT campaign.id FROM campaign WHERE campaign.name = 'abc", "STRING_NOT_TERMINATED", "'abc"],
    ["SELECT campaign.id FROM campaign WHERE campaign.name = 'a\nb'", "PROHIBITED_NEWLINE_IN_STRING", "'a"],
    ["SELECT campaign.id FROM campaign WHERE campaign.name = 'a\\qb'", "BAD_ESCAPE_SEQUENCE", "\\q"],
    ["SELECT campaign.id FROM campaign LIMIT ten", "BAD_LIMIT_VALUE", "ten"],
    ["SELECT campaign.id FROM campaign LIMIT 1.5", "BAD_LIMIT_VALUE", "1.5"],
    ["SELECT campaign.id FROM campaign LIMIT 0", "LIMIT_VALUE_TOO_LOW", "0"],
    ["SELECT campaign.id FROM campaign ORDER campaign.id", "EXPECTED_BY", "campaign.id"],
    ["SELECT campaign.id FROM campaign PARAMETERS foo = true", "BAD_PARAMETER_NAME", "foo"],
    ["SELECT campaign.id FROM campaign PARAMETERS include_drafts = maybe", "BAD_PARAMETER_VALUE", "maybe"],
    ["SELECT campaign.id FROM campaign WHERE campaign.id = 12abc", "BAD_NUMBER", "12abc"],
    ["SELECT campaign.id FROM campaign WHERE campaign.name = é", "BAD_SYMBOL", "é"],
    ["SELECT campaign.id FROM campaign WHERE campaign.id = 1 LIMIT 5 extra", "UNEXPECTED_INPUT", "extra"],
    ["SELECT campaign.id FROM campaign WHERE campaign.id = ", "UNEXPECTED_END_OF_QUERY", undefined],
    ["SELECT campaign.id FROM 9campaign", "BAD_NUMBER", "9campaign"],
  ];
  for (const [gaql, code, trigger] of cases) {
    it(`${code}: ${JSON.stringify(gaql).slice(0, 70)}`, () => {
      const e = failure(() => parseQuery(gaql));
      expect(e.errorCode).toEqual({ queryError: code });
      expect(e.message.length).toBeGreaterThan(5);
      expect(e.location).toEqual({ fieldPathElements: [{ fieldName: "query" }] });
      if (trigger !== undefined) expect(e.trigger).toEqual({ stringValue: trigger });
    });
  }
});
