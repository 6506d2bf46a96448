import { z } from "zod";
import {
  POST_PERIODS,
  type ImpactRecord as ImpactRecordView,
  type MetricEffect as MetricEffectView,
  type PeriodEffect as PeriodEffectView,
} from "~/lib/impact";
import { defineArea, errorResponse, ok, Timestamp, type Assert, type SameFields } from "./registry.server";

// /change-sets/{id}/impact: did it work? The applied change set's measured
// effect against untouched peers of the same account (ADR 027).

const Day = z.iso.date().describe("YYYY-MM-DD in the account's time zone");
const Interval = z.tuple([z.number(), z.number()]).nullable();

export const MetricEffect = z.object({
  metric: z.enum(["cost", "clicks", "conversions", "value", "cpa", "roas"]).describe("value is conversion value; cpa is cost per conversion"),
  before: z.number().describe("The changed entities' daily mean in the pre-period"),
  after: z.number().describe("Their daily mean in the post-period"),
  expected: z.number().describe("The daily mean they would have had after, moving as the control group did"),
  relative: z.number().nullable().describe("after ÷ expected − 1 (−0.28 is −28 %); null when nothing compares (no conversions before)"),
  interval: Interval.describe("The 90 % interval of relative (bootstrap over days)"),
  monthly: z
    .number()
    .nullable()
    .describe("(after − expected) over 30 days: account currency for cost and value, a count for clicks and conversions; null for cpa and roas"),
  monthlyInterval: Interval,
  naive: z
    .number()
    .nullable()
    .describe("Plain before/after (after ÷ before − 1), for comparison only: it credits the change with whatever moved the whole account"),
  significant: z.boolean().describe("The interval lies wholly on one side of zero"),
});

export const PeriodEffect = z.object({
  days: z.union(POST_PERIODS.map((n) => z.literal(n)) as [z.ZodLiteral<7>, z.ZodLiteral<14>, z.ZodLiteral<30>]),
  from: Day,
  to: Day,
  verdict: z.enum(["no_effect", "effect"]),
  metrics: z.array(MetricEffect),
});

export const ImpactRecord = z.object({
  subject: z.string().describe('"cs:<change set id>"'),
  customerId: z.string().regex(/^\d{10}$/),
  currencyCode: z.string(),
  verdict: z
    .enum(["too_early", "no_effect", "effect", "not_measurable"])
    .describe("too_early: fewer than 7 days of complete figures since; no_effect: every interval of cost, conversions (and conversion value) spans zero"),
  headline: z.string().describe("The verdict in one line, e.g. Over 14 days: cost −$312 a month (−28 %, 90 % interval −35 % to −19 %); conversions unchanged"),
  reason: z.string().nullable().describe("Why it is too early or not measurable"),
  changeDay: Day,
  lastChangeDay: Day.describe("Differs from changeDay when overlapping changes are measured together"),
  level: z.enum(["campaign", "ad_group", "keyword"]).nullable().describe("What was measured: the changed keywords, ad groups or campaigns"),
  treated: z.array(z.object({ id: z.string(), name: z.string() })),
  control: z.object({
    count: z.int().describe("Untouched comparable entities in the control group"),
    eligible: z.int(),
    rule: z.string().describe("How they were chosen"),
    names: z.array(z.string()).describe("The first ten"),
  }),
  together: z
    .array(z.object({ subject: z.string(), title: z.string(), day: Day, changeSetId: z.string().nullable() }))
    .describe("Other changes on the same entities close in time: measured together with this one"),
  pre: z.object({ from: Day, to: Day, days: z.int() }).nullable(),
  periods: z.array(PeriodEffect).describe("The post-periods of 7, 14 and 30 days whose figures are complete; the verdict is the longest's"),
  nextMeasureOn: Day.nullable().describe("When the next post-period's figures will be complete"),
  series: z.array(z.object({ date: Day, treated: z.number(), control: z.number() })).describe("Daily cost of the changed entities and of the control group"),
  method: z.object({ preDays: z.int(), lagDays: z.int(), resamples: z.int(), confidence: z.number(), seed: z.int() }),
  dataTo: Day.nullable().describe("The last synced day"),
  computedAt: Timestamp,
});

export type ImpactRecordFieldsMatch = Assert<SameFields<ImpactRecordView, z.output<typeof ImpactRecord>>>;
export type MetricEffectFieldsMatch = Assert<SameFields<MetricEffectView, z.output<typeof MetricEffect>>>;
export type PeriodEffectFieldsMatch = Assert<SameFields<PeriodEffectView, z.output<typeof PeriodEffect>>>;

export default defineArea({
  tag: "changes",
  schemas: { ImpactRecord, ImpactPeriod: PeriodEffect, ImpactMetric: MetricEffect },
  paths: {
    "/change-sets/{changeSetId}/impact": {
      get: {
        summary: "Did it work? The applied change set's measured effect against untouched comparable entities",
        description:
          "Difference-in-differences on daily figures: the changed entities against a control group of comparable entities of the same account, channel and level that no change touched, over 28 days before and 7, 14 and 30 days after (the change day and the last 3 days of data, whose conversions are still arriving, left out), with a 90 % bootstrap interval over days. Recomputed when the account's data changes.",
        path: z.object({ changeSetId: z.uuid().describe("The change set's id (a UUID)") }),
        responses: {
          200: ok("The impact record", z.object({ impact: ImpactRecord })),
          404: errorResponse("No such change set among the caller's (a malformed id included)"),
          409: errorResponse("The change set was not applied (proposed, discarded, failed): nothing to measure"),
        },
      },
    },
  },
});
