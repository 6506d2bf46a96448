// @vitest-environment happy-dom
import "@testing-library/jest-dom/vitest";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CONNECT_FIRST_REPLY } from "~/lib/chat";
import AiOptimizer from "./ai-optimizer";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderPage() {
  const Stub = createRoutesStub([
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    { path: "/ai-optimizer", Component: AiOptimizer as any, loader: () => ({ connected: false }) },
  ]);
  return render(<Stub initialEntries={["/ai-optimizer"]} />);
}

describe("AI Optimizer (unconnected)", () => {
  it("disables Send for blank input, shows thinking for ~1 s, then the fixed reply, with no server call", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    renderPage();
    expect(await screen.findByText("AI Assistant Ready")).toBeInTheDocument();
    const input = screen.getByLabelText("Message");
    const send = screen.getByRole("button", { name: "Send" });
    expect(send).toBeDisabled();
    fireEvent.change(input, { target: { value: "   " } });
    expect(send).toBeDisabled();
    fireEvent.change(input, { target: { value: "Hello" } });
    expect(send).toBeEnabled();
    fireEvent.submit(input.closest("form")!);
    expect(screen.getByText("AI is thinking...")).toBeInTheDocument();
    expect(input).toHaveValue("");
    expect(send).toBeDisabled();
    await act(async () => {
      vi.advanceTimersByTime(999);
    });
    expect(screen.queryByText(CONNECT_FIRST_REPLY)).not.toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByText(CONNECT_FIRST_REPLY)).toBeInTheDocument();
    expect(screen.queryByText("AI is thinking...")).not.toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
