// GAQL tokenizer. Keywords are case-insensitive; field names are
// [a-z][a-zA-Z0-9._]* per Google's grammar; strings use '' or "".

import { queryError } from "./errors";

export type TokenKind = "word" | "number" | "string" | "punct" | "eof";

export interface Token {
  kind: TokenKind;
  /** Raw text (for strings: the decoded value). */
  text: string;
  /** Upper-cased text, for keyword comparisons. */
  upper: string;
  pos: number;
}

const PUNCT = ["!=", ">=", "<=", "=", ">", "<", ",", "(", ")"];

export function tokenize(input: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = input.length;
  while (i < n) {
    const c = input[i];
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
      continue;
    }
    const start = i;
    if (c === "'" || c === '"') {
      i++;
      let value = "";
      let closed = false;
      while (i < n) {
        const ch = input[i];
        if (ch === "\\") {
          const next = input[i + 1];
          if (next === undefined) break;
          if (next === "\\" || next === "'" || next === '"') {
            value += next;
            i += 2;
            continue;
          }
          throw queryError("BAD_ESCAPE_SEQUENCE", `Error in query: invalid escape sequence '\\${next}'.`, `\\${next}`);
        }
        if (ch === "\n" || ch === "\r") {
          throw queryError("PROHIBITED_NEWLINE_IN_STRING", "Error in query: strings must not contain a newline.", input.slice(start, i));
        }
        if (ch === c) {
          closed = true;
          i++;
          break;
        }
        value += ch;
        i++;
      }
      if (!closed) throw queryError("STRING_NOT_TERMINATED", `Error in query: unterminated string starting at position ${start}.`, input.slice(start));
      out.push({ kind: "string", text: value, upper: value.toUpperCase(), pos: start });
      continue;
    }
    if ((c >= "0" && c <= "9") || (c === "-" && /[0-9]/.test(input[i + 1] ?? ""))) {
      i++;
      while (i < n && /[0-9A-Za-z_.]/.test(input[i])) i++;
      const raw = input.slice(start, i);
      if (!/^-?[0-9]+(\.[0-9]+)?$/.test(raw)) {
        // Identifiers can't start with a digit, so "12abc" / "1.2.3" are malformed numbers.
        throw queryError("BAD_NUMBER", `Error in query: cannot parse number '${raw}'.`, raw);
      }
      out.push({ kind: "number", text: raw, upper: raw, pos: start });
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      i++;
      while (i < n && /[A-Za-z0-9_.]/.test(input[i])) i++;
      const raw = input.slice(start, i);
      out.push({ kind: "word", text: raw, upper: raw.toUpperCase(), pos: start });
      continue;
    }
    const p = PUNCT.find((x) => input.startsWith(x, i));
    if (p) {
      i += p.length;
      out.push({ kind: "punct", text: p, upper: p, pos: start });
      continue;
    }
    throw queryError("BAD_SYMBOL", `Error in query: unexpected symbol '${c}' at position ${i}.`, c);
  }
  out.push({ kind: "eof", text: "", upper: "", pos: n });
  return out;
}
