import { z } from "zod";
import { textError } from "./text-error";
import { BIDI_MESSAGE, hasBidiControl } from "./text-safety";

// /settings' "New access token" form: read by the form in the browser (Conform)
// and by the action (auth/access-tokens-page.server.ts), one schema for both.

/** What a personal access token may do: `read` the accounts, `propose` change sets (never apply them). */
export const TOKEN_SCOPES = ["read", "propose"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** The expiries offered, in days; the first of the list is the form's default choice. */
export const TOKEN_EXPIRY_DAYS = ["30", "7", "90", "365"] as const;

export const TOKEN_NAME_MAX = 60;

/** A token as /settings lists it (never the token itself). */
export interface AccessTokenView {
  id: string;
  name: string;
  scopes: TokenScope[];
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  expired: boolean;
}

// A single ticked checkbox arrives as one string, none as nothing.
const asList = (value: unknown) => (value === undefined || value === "" ? [] : Array.isArray(value) ? value : [value]);

export const AccessTokenForm = z.object({
  name: z
    .string(textError("Name"))
    .trim()
    .min(1, "Give the token a name, e.g. the agent that will use it")
    .max(TOKEN_NAME_MAX, `A name can be at most ${TOKEN_NAME_MAX} characters`)
    .refine((v) => !/\p{Cc}/u.test(v), "A name cannot contain control characters")
    .refine((v) => !hasBidiControl(v), `A name ${BIDI_MESSAGE}`),
  scopes: z.preprocess(
    asList,
    z
      .array(z.enum(TOKEN_SCOPES, "A scope is read or propose"))
      .min(1, "Choose at least one scope")
      .transform((list) => TOKEN_SCOPES.filter((s) => list.includes(s))),
  ),
  expiresInDays: z.enum(TOKEN_EXPIRY_DAYS, "Choose when the token expires"),
});
export type AccessTokenInput = z.output<typeof AccessTokenForm>;
