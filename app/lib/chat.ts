import { z } from "zod";

export const ChatMessageSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string().max(4000),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const MAX_CHAT_MESSAGE_LENGTH = 4000;
/** The seed's simulated thinking time. */
export const CHAT_REPLY_DELAY_MS = 1000;

/** What the assistant says while no Google Ads account is connected (seed §2). */
export const CONNECT_FIRST_REPLY =
  "I'd be happy to help optimize your campaigns! To get started, please connect your Google Ads account first so I can analyze your campaign data and give you recommendations.";

export function isBlank(message: string) {
  return message.trim().length === 0;
}

// ---- The assistant's evidence, shared by the server (tools, built-in analyst) and the chat's cards.

export type EvidenceColumnKind = "text" | "money" | "integer" | "number" | "percent";
export interface EvidenceColumn {
  key: string;
  label: string;
  kind: EvidenceColumnKind;
}
export type EvidenceCell = string | number | null;

/** What a read tool looked up: shown as "Read 14 campaigns, Oct 1 – Oct 30, 2026" with the figures expandable. */
export interface ToolEvidence {
  summary: string;
  currency?: string;
  dateRange?: { from: string; to: string };
  columns: EvidenceColumn[];
  rows: Array<Record<string, EvidenceCell>>;
  totals?: Record<string, EvidenceCell>;
  truncated?: boolean;
}

/** The output of propose_changes, rendered as a card linking to the review page. */
export interface ProposalOutput {
  changeSetId: string;
  title: string;
  status: string;
  url: string;
  changes: string[];
  validationProblem: string | null;
  note: string;
}

/** Tokens per assistant message, sent with the message and kept in the database. */
export interface ChatMessageMeta {
  model?: string;
  builtIn?: boolean;
  error?: string;
  /** Why the answer ended early (step limit). */
  note?: string;
  /** The person pressed Stop. */
  stopped?: boolean;
  usage?: { inputTokens?: number; outputTokens?: number; totalTokens?: number };
  createdAt?: string;
}

/** Only the app's own pages: the assistant's links can never send the user elsewhere. */
export function isAppLink(href: string | undefined): href is string {
  return typeof href === "string" && /^\/(?!\/)[^\s\\]*$/.test(href);
}

/** The end of the conversation's element id: a JavaScript-off answer's address points at it. */
export const CHAT_END_ID = "chat-end";
