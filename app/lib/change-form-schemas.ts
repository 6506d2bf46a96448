import { z } from "zod";
import { AddKeywordsInput, AddNegativesInput, BidChangeInput, BudgetChangeInput, MatchType } from "./change-actions";

// The campaign screens' change forms as zod schemas over their own field names
// (a money text box, one keyword per line), built from the action contract's
// own schemas (change-actions.ts), so the browser, the form action and the
// JSON API say the same thing in the same words. The action parses with these
// first (changes/forms.server.ts then maps the form to the service, which
// checks again and adds what only the server knows: ownership, ad groups).

/**
 * "12.50", "$12.50", "1,250.00", and the decimal comma of "12,50" → 12.5.
 * Empty → undefined; anything else → NaN (the schema then says "must be a number").
 */
export function parseAmount(raw: string): number | undefined {
  let s = raw.trim().replace(/[\s$€£¥]/g, "");
  if (s === "") return undefined;
  if (/^\d+,\d{1,2}$/.test(s)) s = s.replace(",", ".");
  else s = s.replace(/,(?=\d{3}(\D|$))/g, "");
  return /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : Number.NaN;
}

/**
 * One keyword per line. Google Ads Editor's notation picks the match type per
 * line: [exact], "phrase", anything else the form's match type.
 */
export function parseKeywordLines(raw: string, matchType: string): Array<{ text: string; matchType: string }> {
  return raw
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .map((l) => {
      const exact = /^\[(.*)\]$/.exec(l);
      if (exact) return { text: exact[1].trim(), matchType: "EXACT" };
      const phrase = /^"(.*)"$/.exec(l);
      if (phrase) return { text: phrase[1].trim(), matchType: "PHRASE" };
      return { text: l, matchType };
    });
}

/** A money text box read by parseAmount, then held to the contract's money rule (`money`). */
const amountBox = (money: z.ZodType<unknown, number | undefined>) =>
  z
    .string()
    .optional()
    .transform((raw) => parseAmount(raw ?? ""))
    .pipe(money);

/**
 * The keyword textarea, one keyword per line, held to the contract's keyword
 * list (`list`); a line's message says which line ("Line 2 (“tent!”): …"), as
 * changes/forms.server.ts words the service's.
 */
const keywordLines = (list: z.ZodType) =>
  z
    .string()
    .optional()
    .superRefine((raw, ctx) => {
      // The match type is its own field with its own message; a valid one stands in here.
      const lines = parseKeywordLines(raw ?? "", "EXACT");
      const checked = list.safeParse(lines.map((l) => ({ text: l.text, matchType: l.matchType })));
      if (checked.success) return;
      for (const issue of checked.error.issues) {
        const [line, key] = issue.path;
        if (typeof line === "number" && key !== "text") continue;
        ctx.addIssue({ code: "custom", message: typeof line === "number" ? `Line ${line + 1} (“${lines[line].text}”): ${issue.message}` : issue.message });
      }
    });

export const AD_GROUP_REQUIRED = "Choose the ad group the keywords go into.";

export const BudgetForm = z.object({
  intent: z.literal("budget"),
  campaignId: BudgetChangeInput.shape.campaignId,
  amount: amountBox(BudgetChangeInput.shape.amount),
});

const bidCpc = BidChangeInput.shape.items.element.shape.cpc;
const keywordCpc = AddKeywordsInput.shape.keywords.element.shape.cpc;

export const AddKeywordsForm = z.object({
  intent: z.literal("add_keywords"),
  // The ad group is an explicit choice: the form has no preselected one.
  adGroupId: z.string({ error: AD_GROUP_REQUIRED }).min(1, AD_GROUP_REQUIRED),
  keywords: keywordLines(AddKeywordsInput.shape.keywords),
  matchType: MatchType,
  cpc: amountBox(keywordCpc),
});

export const AddNegativesForm = z.object({
  intent: z.literal("add_negatives"),
  keywords: keywordLines(AddNegativesInput.shape.keywords),
  matchType: MatchType,
});

/** The bulk bars' "Set max. CPC" (the ticked rows are checked by the action: their ids come from the table). */
export const BidForm = z.object({ intent: z.literal("bid"), cpc: amountBox(bidCpc) });

/**
 * A bulk bar's check in the browser: "Set max. CPC" (or a blur of its box) needs a
 * good amount; the other buttons have nothing typed to check. The ticked rows are
 * the server's to check (without JavaScript nothing else can).
 */
export function bulkBarErrors(formData: FormData): Record<string, string> | null {
  const intent = formData.get("intent");
  if ((intent !== null && intent !== "bid") || !formData.has("cpc")) return null;
  const checked = BidForm.shape.cpc.safeParse(formData.get("cpc"));
  return checked.success ? null : { cpc: checked.error.issues[0].message };
}

/** The forms whose fields the browser can check before sending, by intent. */
export const CHANGE_FORM_SCHEMAS: Partial<Record<string, z.ZodType<Record<string, unknown>, Record<string, unknown>>>> = {
  budget: BudgetForm,
  add_keywords: AddKeywordsForm,
  add_negatives: AddNegativesForm,
};
