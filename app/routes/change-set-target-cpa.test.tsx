// @vitest-environment happy-dom
import "@testing-library/jest-dom/vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { diffFields } from "~/lib/change-fields";
import type { ChangeSetView, ChangeView } from "~/server/changes/review.server";
import ChangeSetPage from "./change-set";

// The review page shows an ad group's target CPA change (the `target_cpa`
// action) as before → after in the account's money, and a cleared override as
// the campaign's target taking over again.
afterEach(cleanup);

const RN = "customers/1112223334/adGroups/140000000277";
const change = (id: string, before: Record<string, unknown>, after: Record<string, unknown>): ChangeView => ({
  id,
  resourceKind: "ad_group",
  operation: "update",
  resourceName: RN,
  label: "Target CPA of ad group “Camp Stoves”",
  status: "pending",
  errorCode: null,
  errorMessage: null,
  fieldPath: null,
  largeMove: false,
  permanent: false,
  fields: diffFields(before, after, "USD"),
  before,
  after,
});

function renderPage(changes: ChangeView[]) {
  const view: ChangeSetView = {
    id: "5f0c4a1e-0000-4000-8000-000000000002",
    customerId: "1112223334",
    title: "Recommendation: Lower the target CPA of ad group Camp Stoves",
    status: "proposed",
    source: "rule",
    sourceDetail: null,
    proposedBy: "Rule",
    origin: "recommendation",
    chat: null,
    approvedBy: null,
    atomic: true,
    needsConfirmation: false,
    confirmPercent: 50,
    removals: 0,
    createdAt: "2026-11-25T08:00:00.000Z",
    validatedAt: null,
    approvedAt: null,
    appliedAt: null,
    error: null,
    revertOf: null,
    revertedBy: null,
    canApply: false,
    canValidate: true,
    canDiscard: true,
    canRevert: false,
    counts: { total: changes.length, valid: 0, invalid: 0, applied: 0, failed: 0 },
    changes,
  };
  const loader = () => ({
    changeSet: view,
    account: { customerId: "1112223334", name: "Northwind Outdoor Gear", currencyCode: "USD", timeZone: "America/New_York" },
  });
  const Stub = createRoutesStub([{ path: "/changes/:changeSetId", Component: ChangeSetPage as any, loader, HydrateFallback: () => null }]);
  return render(<Stub initialEntries={["/changes/5f0c4a1e-0000-4000-8000-000000000002"]} />);
}

describe("review page: an ad group's target CPA", () => {
  it("shows the old and new target with the move in percent, and a cleared override as the campaign's target", async () => {
    renderPage([
      change("a", { targetCpaMicros: 95_000_000 }, { targetCpaMicros: 80_750_000 }),
      change("b", { targetCpaMicros: 80_750_000 }, { targetCpaMicros: null }),
    ]);
    const table = await screen.findByRole("table", { name: "Changes in this change set" });
    const [set, cleared] = within(table).getAllByRole("row").slice(1);
    expect(within(set).getByRole("rowheader")).toHaveTextContent("Target CPA of ad group “Camp Stoves”");
    expect(set).toHaveTextContent("Target CPA: $95.00 → $80.75");
    expect(set).toHaveTextContent("$80.75-15%");
    expect(cleared).toHaveTextContent("Target CPA: $80.75 → Campaign's target");
  });
});
