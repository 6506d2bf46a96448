import { z } from "zod";

/** Variables the standalone emulator (main.ts) and the mounted demo (mount.ts) share. */

/** EMULATOR_TODAY: pins the accounts' today (data ends the day before), a real date as YYYY-MM-DD. */
export const emulatorToday = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD")
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), "is not a real date")
  .optional();

/** EMULATOR_DAILY_OPERATIONS: Google's daily operations cap (Explorer access 2880); unset: counted, never refused. */
export const emulatorDailyOperations = z.coerce.number().int().positive().optional();

/**
 * EMULATOR_ACCESS_LEVEL: the Google Cloud project's Google Ads API access level. `test` refuses every call
 * on an account that is not a test account, as Google does (v25+: CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION;
 * older versions: DEVELOPER_TOKEN_NOT_APPROVED). Default: standard.
 */
export const ACCESS_LEVELS = ["test", "explorer", "basic", "standard"] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];
export const emulatorAccessLevel = z.enum(ACCESS_LEVELS).default("standard");
