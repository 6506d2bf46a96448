// @vitest-environment happy-dom
import "@testing-library/jest-dom/vitest";
import { act, cleanup, render, screen } from "@testing-library/react";
import { Toaster } from "react-hot-toast";
import { afterEach, describe, expect, it } from "vitest";
import { notify } from "./notify";

afterEach(cleanup);

describe("notify", () => {
  it("never stacks the same message, and a success clears the errors before it", async () => {
    render(<Toaster />);
    act(() => {
      notify("error", "Invalid email or password");
      notify("error", "Invalid email or password");
      notify("error", "Invalid email or password");
    });
    expect(await screen.findAllByText("Invalid email or password")).toHaveLength(1);
    act(() => notify("success", "Account created"));
    expect(await screen.findByText("Account created")).toBeInTheDocument();
    // Dismissed toasts leave with an animation: no longer shown as visible status.
    await act(async () => new Promise((r) => setTimeout(r, 1200)));
    expect(screen.queryByText("Invalid email or password")).toBeNull();
    expect(screen.getByText("Account created")).toBeInTheDocument();
  });
});
