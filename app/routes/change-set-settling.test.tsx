// @vitest-environment happy-dom
import "@testing-library/jest-dom/vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import type { ChangeSetView } from "~/server/changes/review.server";
import ChangeSetPage from "./change-set";

// Issue 9 point 4: a set whose outcome is being settled says so on its review page.
afterEach(cleanup);

const view = (status: ChangeSetView["status"]): ChangeSetView => ({
  id: "5f0c4a1e-0000-4000-8000-000000000001",
  customerId: "1112223334",
  title: "Budget +10%",
  status,
  source: "user",
  sourceDetail: null,
  proposedBy: "owner@example.com",
  origin: "campaign",
  chat: null,
  approvedBy: "owner@example.com",
  atomic: true,
  needsConfirmation: false,
  confirmPercent: 50,
  removals: 0,
  createdAt: "2026-11-25T08:00:00.000Z",
  validatedAt: "2026-11-25T08:00:01.000Z",
  approvedAt: "2026-11-25T08:00:02.000Z",
  appliedAt: null,
  error: null,
  revertOf: null,
  revertedBy: null,
  canApply: false,
  canValidate: false,
  canDiscard: false,
  canRevert: false,
  counts: { total: 1, valid: 0, invalid: 0, applied: 0, failed: 0 },
  changes: [],
});

function renderPage(status: ChangeSetView["status"]) {
  const loader = () => ({
    changeSet: view(status),
    account: { customerId: "1112223334", name: "Northwind Outdoor Gear", currencyCode: "USD", timeZone: "America/New_York" },
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const Stub = createRoutesStub([{ path: "/changes/:changeSetId", Component: ChangeSetPage as any, loader, HydrateFallback: () => null }]);
  return render(<Stub initialEntries={["/changes/5f0c4a1e-0000-4000-8000-000000000001"]} />);
}

describe("review page while settling", () => {
  it("shows 'Settling with Google…' for a set whose outcome is not known yet, and offers no button", async () => {
    renderPage("applying");
    expect(await screen.findByText(/^Settling with Google…/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Apply|Discard|Revert/ })).toBeNull();
  });

  it("does not say so once the outcome is known", async () => {
    renderPage("failed");
    expect(await screen.findByText(/Nothing was applied/)).toBeInTheDocument();
    expect(screen.queryByText(/Settling with Google/)).toBeNull();
  });
});
