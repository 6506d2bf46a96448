import type { EvidenceCell, ProposalOutput, ToolEvidence } from "~/lib/chat";
import { countOf, formatDateRange, formatMoney } from "~/lib/format";
import { openAssistantProposal } from "./account-data.server";
import { ToolRefusal, type ToolContext, type ToolRunners } from "./tools.server";

// What the built-in analyst's answers are written with: the tools it ran (the
// chat shows them as evidence), its proposals, and the small formatting helpers.

export interface AnalystStep {
  toolName: keyof ToolRunners;
  input: Record<string, unknown>;
  output: unknown;
}

export type Row = Record<string, EvidenceCell>;
export const num = (v: EvidenceCell | undefined) => (typeof v === "number" ? v : 0);
/** "1 click", "1,204 clicks", "2.5 conversions". */
export const count = (v: EvidenceCell | undefined, noun: string) => countOf(num(v), noun, num(v).toLocaleString("en-US"));
/** "+0.7%", "−12.3%"; "—" without a base. */
export function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? "±0.0%" : "—";
  const c = ((now - before) / before) * 100;
  return `${c >= 0 ? "+" : "−"}${Math.abs(c).toFixed(1)}%`;
}

export type Proposed = ProposalOutput | { existing: string } | { refused: string };

export class Writer {
  steps: AnalystStep[] = [];
  constructor(
    private run: ToolRunners,
    readonly ctx: ToolContext,
  ) {}
  async call<K extends keyof ToolRunners>(toolName: K, input: Parameters<ToolRunners[K]>[0]): Promise<Awaited<ReturnType<ToolRunners[K]>>> {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const output = await (this.run[toolName] as (i: any) => Promise<any>)(input);
    this.steps.push({ toolName, input: input as Record<string, unknown>, output });
    return output;
  }
  /** Shows an existing open proposal with the same title instead of proposing it again. */
  async propose(title: string, actions: unknown[]): Promise<Proposed> {
    const existing = await openAssistantProposal(this.ctx.userId, this.ctx.account.customerId, title);
    if (existing) return { existing };
    try {
      return await this.call("propose_changes", { title, actions: actions as never });
    } catch (error) {
      if (error instanceof ToolRefusal) return { refused: error.message };
      throw error;
    }
  }
  money(units: EvidenceCell | undefined) {
    return formatMoney(Math.round(num(units) * 1_000_000), this.ctx.account.currencyCode);
  }
}

export function proposalLine(p: Proposed, what: string): string {
  if ("refused" in p) return `I could not draft ${what}: ${p.refused}`;
  const id = "existing" in p ? p.existing : p.changeSetId;
  const verb = "existing" in p ? "is already drafted" : "is drafted";
  return `A change set that ${what} ${verb} for your review: [Review the proposal](/changes/${id}). Nothing changes in Google Ads until you press Apply there.`;
}

export function table(header: string[], rows: string[][]): string {
  const esc = (s: string) => s.replace(/\|/g, "\\|");
  return [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.map(esc).join(" | ")} |`)].join("\n");
}

/** The window a read covered: "Oct 27 – Nov 25, 2026". */
export const windowOf = (e: ToolEvidence) => (e.dateRange ? formatDateRange(e.dateRange) : "");
