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
