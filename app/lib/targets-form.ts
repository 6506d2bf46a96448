import { z } from "zod";

// /settings' optimization targets: read by the form in the browser (Conform)
// and by the action (optimizer/pages.server.ts), one schema for both.

const optionalNumber = (what: string, max: number) =>
  z
    .string()
    .trim()
    .transform((v) => (v === "" ? null : Number(v.replace(",", "."))))
    .refine((v) => v === null || (Number.isFinite(v) && v > 0), `${what} must be a number greater than 0, or empty`)
    .refine((v) => v === null || v <= max, `${what} is too large`)
    .refine((v) => v === null || Math.abs(Math.round(v * 100) - v * 100) < 1e-6, `${what} can have at most 2 decimals`);

export const TargetsForm = z.object({
  targetCpa: optionalNumber("Target CPA", 1_000_000),
  targetRoas: optionalNumber("Target ROAS", 100_000),
});
