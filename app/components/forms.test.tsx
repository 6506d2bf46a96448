// @vitest-environment happy-dom
import "@testing-library/jest-dom/vitest";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ComponentType } from "react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import VerifyEmail from "~/routes/verify-email";
import { AddKeywordsForm, AddNegativesForm, BudgetForm } from "./campaign-change-forms";

// The browser runs the action's own schema before sending (Conform): these
// prove the message shows, tied to its field, with no request made.

afterEach(cleanup);

function renderForm(Component: ComponentType, loader: () => unknown = () => null) {
  const action = vi.fn(() => null);
  const Stub = createRoutesStub([{ path: "/here", Component, loader, action, HydrateFallback: () => null }]);
  render(<Stub initialEntries={["/here"]} />);
  return action;
}

/** The field's message is the text of the element its aria-describedby names. */
function expectMessage(control: HTMLElement, message: string) {
  expect(control).toHaveAttribute("aria-invalid", "true");
  const ids = (control.getAttribute("aria-describedby") ?? "").split(" ");
  expect(ids.map((id) => document.getElementById(id)?.textContent)).toContain(message);
}

const adGroups = [
  { id: "111", name: "Tents" },
  { id: "222", name: "Sleeping bags" },
];

describe("forms check their schema in the browser before sending", () => {
  it("budget: a bad amount is refused on blur, Submit sends nothing and focuses it, typing a good one clears it", async () => {
    const user = userEvent.setup();
    const action = renderForm(() => <BudgetForm campaignId="123" budgetMicros={50_000_000} currency="USD" />);
    const amount = await screen.findByLabelText("Daily budget (USD)");
    await user.clear(amount);
    await user.type(amount, "abc");
    await user.tab();
    expectMessage(amount, "Daily budget must be a number");
    await user.click(screen.getByRole("button", { name: "Review budget change" }));
    expect(amount).toHaveFocus();
    await user.clear(amount);
    await user.type(amount, "12.555");
    expectMessage(amount, "Daily budget can have at most 2 decimals");
    await user.clear(amount);
    await user.type(amount, "$1,250.50");
    await waitFor(() => expect(amount).not.toHaveAttribute("aria-invalid"));
    expect(screen.queryByText(/Daily budget/, { selector: "p" })).not.toBeInTheDocument();
    expect(action).not.toHaveBeenCalled();
  });

  it("add keywords: Submit with nothing chosen names each field, first the ad group, without a request", async () => {
    const user = userEvent.setup();
    const action = renderForm(() => <AddKeywordsForm adGroups={adGroups} currency="USD" />);
    await user.click(await screen.findByRole("button", { name: "Review new keywords" }));
    const adGroup = screen.getByLabelText("Ad group");
    expectMessage(adGroup, "Choose the ad group the keywords go into.");
    expectMessage(screen.getByLabelText(/^Keywords/), "Add at least one keyword");
    expect(adGroup).toHaveFocus();
    expect(action).not.toHaveBeenCalled();
  });

  it("add keywords: a bad line is named by its number, as the server words it", async () => {
    const user = userEvent.setup();
    const action = renderForm(() => <AddKeywordsForm adGroups={adGroups} currency="USD" />);
    const keywords = await screen.findByLabelText(/^Keywords/);
    await user.type(keywords, "tents{Enter}tent sale!");
    await user.tab();
    expectMessage(keywords, "Line 2 (“tent sale!”): Keywords cannot contain ! @ % ^ ( ) = { } ; ~ ` < > ? \\ | , *");
    await user.type(screen.getByLabelText(/^Max\. CPC/), "-1");
    await user.tab();
    expectMessage(screen.getByLabelText(/^Max\. CPC/), "Bid must be greater than 0");
    expect(action).not.toHaveBeenCalled();
  });

  it("add negatives: an empty list is refused on Submit, with focus on the list", async () => {
    const user = userEvent.setup();
    const action = renderForm(() => <AddNegativesForm campaignId="123" adGroups={adGroups} />);
    await user.click(await screen.findByRole("button", { name: "Review negative keywords" }));
    const keywords = screen.getByLabelText(/^Negative keywords/);
    expectMessage(keywords, "Add at least one keyword");
    expect(keywords).toHaveFocus();
    expect(action).not.toHaveBeenCalled();
  });

  it("verify email: a blank password is refused without a request", async () => {
    const user = userEvent.setup();
    const action = renderForm(VerifyEmail as ComponentType, () => ({ token: "t", email: "owner@example.com", invalid: null }));
    await user.click(await screen.findByRole("button", { name: "Confirm email address" }));
    const password = screen.getByLabelText("Password");
    expectMessage(password, "Password is required");
    expect(password).toHaveFocus();
    await user.type(password, "x");
    await waitFor(() => expect(password).not.toHaveAttribute("aria-invalid"));
    expect(action).not.toHaveBeenCalled();
  });
});

describe("settings: optimization targets", () => {
  it("a bad target is refused on blur by the action's schema, with no request", async () => {
    const { OptimizationTargets } = await import("./optimization-targets");
    const user = userEvent.setup();
    const data = { accountName: "Tents Ltd", currencyCode: "USD", targetCpa: 25, targetRoasPercent: null };
    const action = renderForm(() => <OptimizationTargets data={data} />);
    const cpa = await screen.findByLabelText("Target CPA (USD)");
    expect(cpa).toHaveAccessibleDescription("Cost per conversion, e.g. 25");
    await user.clear(cpa);
    await user.type(cpa, "0");
    await user.tab();
    expectMessage(cpa, "Target CPA must be a number greater than 0, or empty");
    const roas = screen.getByLabelText("Target ROAS (%)");
    await user.type(roas, "12.345");
    await user.click(screen.getByRole("button", { name: "Save targets" }));
    expectMessage(roas, "Target ROAS can have at most 2 decimals");
    expect(cpa).toHaveFocus();
    expect(action).not.toHaveBeenCalled();
    // Empty is allowed: the 90-day average stands in.
    await user.clear(cpa);
    await waitFor(() => expect(cpa).not.toHaveAttribute("aria-invalid"));
  });
});

describe("ad generator: the brief", () => {
  it("a bad fact line and a bad final URL are refused in the action's words before generating", async () => {
    const { BriefForm } = await import("./ad-generator/brief-form");
    const user = userEvent.setup();
    const values = {
      product: "Hiking boots",
      targetAudience: "hikers",
      tone: "professional",
      businessType: "",
      adGroupId: "",
      keywords: "",
      facts: "",
      finalUrl: "",
      offers: [],
    };
    const action = renderForm(() => <BriefForm values={values} errors={{}} connected adGroups={[]} />);
    const facts = await screen.findByLabelText("Facts the ad may state (one per line)");
    await user.type(facts, `Free shipping{Enter}${"x".repeat(151)}`);
    await user.tab();
    expectMessage(facts, "Line 2: Keep each fact under 150 characters");
    const url = screen.getByLabelText("Final URL");
    await user.type(url, "ftp://example.com");
    await user.click(screen.getByRole("button", { name: "Generate Ad Copy" }));
    expectMessage(url, "Final URL must be an http(s) address, like https://example.com/boots");
    expect(facts).toHaveFocus();
    expect(action).not.toHaveBeenCalled();
  });

  it("the hints are the fields' descriptions, after the error when there is one", async () => {
    const { BriefForm } = await import("./ad-generator/brief-form");
    const values = {
      product: "Boots",
      targetAudience: "hikers",
      tone: "professional",
      businessType: "",
      adGroupId: "",
      keywords: "",
      facts: "",
      finalUrl: "",
      offers: [],
    };
    renderForm(() => <BriefForm values={values} errors={{ keywords: "At most 20 keywords" }} connected adGroups={[]} />);
    const keywords = await screen.findByLabelText("Keywords (one per line)");
    expect(keywords.tagName).toBe("TEXTAREA");
    expectMessage(keywords, "At most 20 keywords");
    expect(keywords).toHaveAccessibleDescription(/^At most 20 keywords The ad group's top keywords by impressions/);
    expect(screen.getByLabelText("Campaign and ad group")).toHaveAccessibleDescription(
      "Its best-performing lines guide the style; its low performers are avoided.",
    );
    expect(screen.getByLabelText("Final URL")).not.toHaveAttribute("aria-invalid");
  });

  it("the action's messages show by their fields too", async () => {
    const { BriefForm } = await import("./ad-generator/brief-form");
    const values = {
      product: "",
      targetAudience: "",
      tone: "professional",
      businessType: "",
      adGroupId: "",
      keywords: "",
      facts: "",
      finalUrl: "",
      offers: [],
    };
    renderForm(() => <BriefForm values={values} errors={{ product: "Product/Service is required" }} connected={false} adGroups={[]} />);
    expectMessage(await screen.findByLabelText(/^Product\/Service/), "Product/Service is required");
  });
});

describe("ad generator: the seed screen (no account)", () => {
  it("the server's messages (JavaScript off) are tied to their fields like the brief's, same texts", async () => {
    const { SeedGenerator } = await import("./ad-generator/seed-generator");
    const form = { product: "", targetAudience: "", tone: "professional" as const };
    renderForm(() => (
      <SeedGenerator initialForm={form} initialAds={[]} errors={{ product: "Product/Service is required", targetAudience: "Target Audience is required" }} />
    ));
    expectMessage(await screen.findByLabelText(/^Product\/Service/), "Product/Service is required");
    expectMessage(screen.getByLabelText(/^Target Audience/), "Target Audience is required");
    expect(screen.getByLabelText("Tone")).not.toHaveAttribute("aria-invalid");
    expect(screen.getByLabelText(/^Product\/Service/)).toHaveAttribute("placeholder", "e.g. Waterproof hiking boots");
    expect(screen.getByRole("heading", { name: "Ready to Generate" })).toBeInTheDocument();
  });
});

describe("bulk bars", () => {
  it("Set max. CPC checks the amount before sending; the status buttons are not held up by it", async () => {
    const { BulkBar, SelectBox } = await import("./change-forms");
    const { BidField, StatusButtons } = await import("./campaign-change-forms");
    const user = userEvent.setup();
    const action = renderForm(() => (
      <>
        <BulkBar id="adgroup-bulk" label="Change selected ad groups" hidden={{ kind: "ad_group" }} intents={["pause", "enable", "remove", "bid"]}>
          <StatusButtons />
          <BidField currency="USD" />
        </BulkBar>
        <SelectBox form="adgroup-bulk" value="111" label="Select Tents" />
      </>
    ));
    await user.click(await screen.findByRole("checkbox", { name: "Select Tents" }));
    const cpc = screen.getByLabelText("Max. CPC (USD)");
    await waitFor(() => expect(cpc).toBeEnabled());
    await user.type(cpc, "0");
    await user.click(screen.getByRole("button", { name: "Set max. CPC" }));
    expectMessage(cpc, "Bid must be greater than 0");
    expect(cpc).toHaveFocus();
    expect(action).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Pause selected" }));
    await waitFor(() => expect(action).toHaveBeenCalledTimes(1));
  });
});
