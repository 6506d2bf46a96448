// @vitest-environment happy-dom
import "@testing-library/jest-dom/vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ComponentType } from "react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BriefValues } from "~/lib/ad-generator-form";
import { BriefForm } from "./brief-form";
import { RsaResult, type RsaResultData } from "./rsa-result";
import { SeedGenerator } from "./seed-generator";

// The ad generator's form as a person meets it (issue 29 point 6): no ad type, required fields
// marked, a disabled Generate that says why, the kind of business and how it was read, old
// offers only when ticked, and each refusal next to the button that caused it.

afterEach(cleanup);

function renderAt(Component: ComponentType) {
  const action = vi.fn(() => null);
  const Stub = createRoutesStub([{ path: "/ad-generator", Component, action, HydrateFallback: () => null }]);
  render(<Stub initialEntries={["/ad-generator"]} />);
  return action;
}

const values: BriefValues = {
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

describe("the brief", () => {
  it("has no ad type, marks the required fields, and says why Generate is disabled until they are filled", async () => {
    const user = userEvent.setup();
    renderAt(() => <BriefForm values={values} errors={{}} connected={false} adGroups={[]} />);
    const generate = await screen.findByRole("button", { name: "Generate Ad Copy" });
    expect(screen.queryByLabelText(/Ad Type/)).not.toBeInTheDocument();
    expect(screen.getByText(/are required\./)).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Product/Service" })).toBeRequired();
    expect(screen.getByRole("textbox", { name: "Target Audience" })).toBeRequired();

    expect(generate).toBeDisabled();
    expect(generate).toHaveAccessibleDescription("Fill in Product/Service and Target Audience to generate.");
    await user.type(screen.getByRole("textbox", { name: "Product/Service" }), "Kids sleeping bags");
    expect(generate).toHaveAccessibleDescription("Fill in Target Audience to generate.");
    await user.type(screen.getByRole("textbox", { name: "Target Audience" }), "families who camp");
    expect(generate).toBeEnabled();
    expect(generate).not.toHaveAccessibleDescription(/Fill in/);
  });

  it("names the kind of business the account shows and how it knows; the person may choose another", async () => {
    renderAt(() => (
      <BriefForm
        values={{ ...values, product: "Kids Sleeping Bags", targetAudience: "families" }}
        errors={{}}
        connected
        adGroups={[]}
        business={{ type: "retail", detected: true, basis: ["2 campaigns bid for conversion value (sales with a price)."] }}
      />
    ));
    const select = await screen.findByRole("combobox", { name: "Kind of business" });
    expect(select).toHaveValue("");
    expect(within(select).getByRole("option", { name: "As the account shows: Retail (selling products)" })).toBeInTheDocument();
    expect(within(select).getByRole("option", { name: "Lead generation (enquiries, quotes, sign-ups)" })).toBeInTheDocument();
    expect(select).toHaveAccessibleDescription("How we know: 2 campaigns bid for conversion value (sales with a price).");
  });

  it("lists the ad group's old offers unticked: they are used only when the person ticks them", async () => {
    renderAt(() => (
      <BriefForm
        values={{ ...values, product: "Tents", targetAudience: "campers", offers: ["Free Shipping Over $50"] }}
        errors={{ offer: "“Half price” isn't in this ad group's ads; write it under facts if it is true." }}
        connected
        adGroups={[]}
        pastOffers={["Up to 30% Off Tents", "Free Shipping Over $50"]}
      />
    ));
    const group = await screen.findByRole("group", { name: "Offers and prices in this ad group's ads" });
    expect(within(group).getByRole("checkbox", { name: "Up to 30% Off Tents" })).not.toBeChecked();
    expect(within(group).getByRole("checkbox", { name: "Free Shipping Over $50" })).toBeChecked();
    expect(group).toHaveAccessibleDescription(/Used only if you tick them.*Half price/);
  });

  it("shows a refused Generate under the button", async () => {
    renderAt(() => (
      <BriefForm
        values={{ ...values, product: "x", targetAudience: "y" }}
        errors={{}}
        connected={false}
        adGroups={[]}
        generateError="Couldn't write an ad whose lines all pass the checks from this brief."
      />
    ));
    const generate = await screen.findByRole("button", { name: "Generate Ad Copy" });
    expect(generate).toHaveAccessibleDescription("Couldn't write an ad whose lines all pass the checks from this brief.");
    expect(generate.parentElement).toContainElement(screen.getByRole("alert"));
  });
});

describe("the seed screen", () => {
  it("has no ad type and says why Generate is disabled", async () => {
    renderAt(() => <SeedGenerator initialForm={{ product: "", targetAudience: "", tone: "professional" }} initialAds={[]} errors={{}} />);
    const generate = await screen.findByRole("button", { name: "Generate Ad Copy" });
    expect(screen.queryByLabelText(/Ad Type/)).not.toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "Tone" })).toHaveValue("professional");
    expect(generate).toBeDisabled();
    expect(generate).toHaveAccessibleDescription("Fill in Product/Service and Target Audience to generate.");
  });
});

describe("the generated ad", () => {
  const result: RsaResultData = {
    id: "r1",
    headlines: ["Kids Sleeping Bag", "Youth Sleeping Bag", "Shop Kids Sleeping Bags"].map((text) => ({ text })),
    descriptions: ["Kids sleeping bags for families who camp, ready to order online.", "Looking for a kids sleeping bag? Browse the range."].map((text) => ({
      text,
    })),
    path1: "kids",
    path2: "",
    source: "templates",
    notices: [],
    claimSources: [],
    business: { type: "retail", chosen: false, basis: ["It runs 1 Shopping campaign."] },
  };
  const show = (formError: string, errorAt: "use" | "check" | `regenerate:${string}`) =>
    renderAt(() => (
      <RsaResult
        result={result}
        values={{ ...values, product: "Kids Sleeping Bags", targetAudience: "families" }}
        errors={{}}
        formError={formError}
        errorAt={errorAt}
        adGroups={[]}
        connected
      />
    ));

  it("says which kind of business it was written for, and why", async () => {
    show("", "check");
    expect(await screen.findByText("Written for a shop: It runs 1 Shopping campaign.")).toBeInTheDocument();
  });

  it("puts a refused Regenerate next to that line's button", async () => {
    show("No other line passes the checks; edit this one instead.", "regenerate:headline.1");
    const line = (await screen.findAllByTestId("headline-line"))[1];
    expect(within(line).getByRole("alert")).toHaveTextContent("No other line passes the checks; edit this one instead.");
    expect(screen.getAllByRole("alert")).toHaveLength(1);
  });

  it("puts a refused Use in campaign next to its button", async () => {
    show("Fix the marked lines first.", "use");
    const use = await screen.findByRole("region", { name: "Use in campaign" });
    expect(within(use).getByRole("alert")).toHaveTextContent("Fix the marked lines first.");
    expect(screen.getAllByRole("alert")).toHaveLength(1);
  });
});
