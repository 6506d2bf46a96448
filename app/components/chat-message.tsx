import type { UIMessage } from "ai";
import Markdown, { type Components } from "react-markdown";
import { Link } from "react-router";
import remarkGfm from "remark-gfm";
import { formatDecimal, formatInteger } from "~/lib/format";
import { Bubble } from "./chat-layout";
import { isAppLink, type ChatMessageMeta, type EvidenceCell, type EvidenceColumn, type ProposalOutput, type ToolEvidence } from "~/lib/chat";

export type AssistantMessage = UIMessage<ChatMessageMeta>;

// ---- Markdown: a well-kept library, with no raw HTML, no images, and links only to the app's own pages.

const markdownComponents: Components = {
  a: ({ href, children }) =>
    isAppLink(href) ? (
      <Link to={href} className="font-medium text-blue-700 underline">
        {children}
      </Link>
    ) : (
      // Shown as text, never followed: the model's output is not trusted to send anyone elsewhere.
      <span className="text-gray-900">{children}</span>
    ),
  table: ({ children }) => (
    <div className="relative my-2 overflow-x-auto">
      <table className="min-w-full border-collapse text-xs">{children}</table>
    </div>
  ),
  th: ({ children }) => <th className="border-b border-gray-300 px-2 py-1 text-left font-semibold">{children}</th>,
  td: ({ children }) => <td className="border-b border-gray-200 px-2 py-1 align-top">{children}</td>,
  ul: ({ children }) => <ul className="my-2 list-disc pl-5">{children}</ul>,
  ol: ({ children }) => <ol className="my-2 list-decimal pl-5">{children}</ol>,
  p: ({ children }) => <p className="my-2 first:mt-0 last:mb-0">{children}</p>,
  code: ({ children }) => <code className="rounded bg-gray-200 px-1 font-mono text-[0.85em]">{children}</code>,
};

export function SafeMarkdown({ text }: { text: string }) {
  return (
    // GFM for the tables the assistant writes; raw HTML is skipped, never parsed.
    <Markdown remarkPlugins={[remarkGfm]} skipHtml disallowedElements={["img", "iframe", "script", "style"]} unwrapDisallowed components={markdownComponents}>
      {text}
    </Markdown>
  );
}

// ---- Evidence: what a tool read, expandable to the figures.

function cell(value: EvidenceCell | undefined, column: EvidenceColumn, currency?: string): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "string") return value;
  switch (column.kind) {
    case "money":
      return `${formatDecimal(value, 2)}${currency ? ` ${currency}` : ""}`;
    case "integer":
      return formatInteger(value);
    case "percent":
      return `${formatDecimal(value, 1)}%`;
    default:
      return formatDecimal(value, 2);
  }
}

function isEvidence(output: unknown): output is ToolEvidence {
  return typeof output === "object" && output !== null && typeof (output as ToolEvidence).summary === "string" && Array.isArray((output as ToolEvidence).rows);
}

function isProposal(output: unknown): output is ProposalOutput {
  return typeof output === "object" && output !== null && typeof (output as ProposalOutput).changeSetId === "string";
}

export function EvidenceCard({ evidence }: { evidence: ToolEvidence }) {
  return (
    <details className="my-2 rounded-lg border border-gray-200 bg-white text-xs" data-testid="evidence">
      <summary className="cursor-pointer select-none px-3 py-2 font-medium text-gray-700">
        {evidence.summary}
        {evidence.truncated ? " · first rows shown" : ""}
      </summary>
      <div className="relative overflow-x-auto border-t border-gray-100 px-3 py-2">
        {evidence.rows.length === 0 ? (
          <p className="text-gray-500">No rows.</p>
        ) : (
          <table className="min-w-full">
            <thead>
              <tr>
                {evidence.columns.map((c) => (
                  <th key={c.key} scope="col" className={`px-2 py-1 font-semibold text-gray-600 ${c.kind === "text" ? "text-left" : "text-right"}`}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {evidence.rows.map((row, i) => (
                <tr key={i} className="border-t border-gray-100">
                  {evidence.columns.map((c) => (
                    <td key={c.key} className={`px-2 py-1 ${c.kind === "text" ? "text-left" : "text-right tabular-nums"}`}>
                      {cell(row[c.key], c, evidence.currency)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </details>
  );
}

export function ProposalCard({ proposal }: { proposal: ProposalOutput }) {
  return (
    <div className="my-2 rounded-lg border border-blue-200 bg-blue-50 p-3 text-sm" data-testid="proposal">
      <p className="font-semibold text-blue-900">Proposed change set: {proposal.title}</p>
      <ul className="mt-1 list-disc pl-5 text-blue-900">
        {proposal.changes.slice(0, 6).map((c, i) => (
          <li key={i}>{c}</li>
        ))}
        {proposal.changes.length > 6 ? <li>and {proposal.changes.length - 6} more</li> : null}
      </ul>
      {proposal.validationProblem ? <p className="mt-1 text-amber-800">{proposal.validationProblem}</p> : null}
      <p className="mt-2 text-blue-900">Nothing changes in Google Ads until you review it and press Apply.</p>
      <Link to={proposal.url} className="mt-2 inline-block font-semibold text-blue-700 underline">
        Review change set
      </Link>
    </div>
  );
}

interface ToolPartLike {
  type: string;
  toolName?: string;
  state?: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
}

const LOOKING_UP: Record<string, string> = {
  get_account_overview: "Reading the account totals…",
  list_campaigns: "Reading campaigns…",
  get_campaign: "Reading the campaign…",
  get_keywords: "Reading keywords…",
  get_search_terms: "Reading search terms…",
  get_recommendations: "Reading recommendations…",
  get_change_history: "Reading the change history…",
  get_change_impact: "Reading the measured effect of changes…",
  propose_changes: "Drafting a change set…",
};

function ToolPart({ part }: { part: ToolPartLike }) {
  const name = part.type === "dynamic-tool" ? String(part.toolName) : part.type.replace(/^tool-/, "");
  if (part.state === "output-available") {
    if (isProposal(part.output)) return <ProposalCard proposal={part.output} />;
    if (isEvidence(part.output)) return <EvidenceCard evidence={part.output} />;
    return null;
  }
  if (part.state === "output-error") {
    return (
      <p className="my-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900" data-testid="tool-error">
        {part.errorText ?? `${name} failed`}
      </p>
    );
  }
  return (
    <p className="my-2 text-xs italic text-gray-500" aria-live="polite">
      {LOOKING_UP[name] ?? "Working…"}
    </p>
  );
}

export function MessageView({ message, retry }: { message: AssistantMessage; retry?: React.ReactNode }) {
  const meta = message.metadata;
  if (message.role === "user") {
    const text = message.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
    return <Bubble role="user">{text}</Bubble>;
  }
  const tokens = meta?.usage?.totalTokens;
  return (
    <Bubble role="assistant" markdown>
      {message.parts.map((part, i) => {
        if (part.type === "text") return <SafeMarkdown key={i} text={part.text} />;
        if (part.type.startsWith("tool-") || part.type === "dynamic-tool") return <ToolPart key={i} part={part as ToolPartLike} />;
        return null;
      })}
      {meta?.note ? <p className="mt-2 text-xs text-gray-600">{meta.note}</p> : null}
      {meta?.stopped ? <p className="mt-2 text-xs text-gray-600">Stopped.</p> : null}
      {meta?.error ? (
        <div role="alert" className="mt-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {meta.error}
          {retry}
        </div>
      ) : null}
      {tokens ? <p className="mt-1 text-right text-[11px] text-gray-400">{formatInteger(tokens)} tokens</p> : null}
    </Bubble>
  );
}
