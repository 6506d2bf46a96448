// Shared fixtures for the emulator data-layer tests.
import { expect } from "vitest";
import { GoogleAdsFailureError } from "../contract";
import { createDemoStore } from "../demo/generate";
import { createAdsDataSource } from "../gaql/datasource";
import type { AdsStore } from "../store/store";

/** A Sunday; data then covers 2026-08-24 … 2026-11-21. */
export const TODAY = "2026-11-22";
export const RICH = "1112223334";
export const SMALL = "5556667778";
export const MANAGER = "1234567890";

let shared: AdsStore | undefined;

/** One demo store per test file (generation is deterministic, so sharing is safe for read-only tests). */
export function demoStore(): AdsStore {
  shared ??= createDemoStore({ today: TODAY });
  return shared;
}

export function demoSource() {
  return createAdsDataSource(demoStore());
}

/** Runs fn, expects a GoogleAdsFailureError and returns its first error entry. */
export function failure(fn: () => unknown) {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, "expected a GoogleAdsFailureError").toBeInstanceOf(GoogleAdsFailureError);
  const err = caught as GoogleAdsFailureError;
  expect(err.errors.length).toBeGreaterThan(0);
  return err.errors[0];
}

export type Row = Record<string, any>;
