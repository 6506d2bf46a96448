/** A month's budget pacing, as the server computes it and the screens show it (agency/pacing.server.ts). */
export interface Pacing {
  month: string;
  budgetMicros: number;
  spentMicros: number;
  /** Where spend should be by now if spread evenly over the month. */
  planToDateMicros: number;
  runRateMicros: number;
  daysLeft: number;
  projectedMicros: number;
  /** Projected minus budget: positive is over plan. */
  offPlanMicros: number;
  /** offPlan ÷ budget. */
  offPlanRatio: number;
  status: "on_plan" | "over" | "under";
  /** The daily spend that lands on the budget over the days left; 0 when it is already spent. */
  suggestedDailyMicros: number;
}
