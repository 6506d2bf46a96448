// Recursive-descent parser for Google Ads Query Language:
//   SELECT f[, f…] FROM r [WHERE c AND c…] [ORDER BY f [ASC|DESC], …] [LIMIT n]
//   [PARAMETERS name = value, …]
// WHERE joins conditions with AND only (no OR, no parentheses), like Google.

import { queryError } from "./errors";
import { tokenize, type Token } from "./lexer";

export type Operator =
  | "="
  | "!="
  | ">"
  | ">="
  | "<"
  | "<="
  | "IN"
  | "NOT IN"
  | "LIKE"
  | "NOT LIKE"
  | "CONTAINS ANY"
  | "CONTAINS ALL"
  | "CONTAINS NONE"
  | "IS NULL"
  | "IS NOT NULL"
  | "DURING"
  | "BETWEEN"
  | "REGEXP_MATCH"
  | "NOT REGEXP_MATCH";

export type Value =
  | { kind: "string"; value: string; pos: number }
  | { kind: "number"; value: number; raw: string; pos: number }
  /** Bare word: enum constant, DURING literal, TRUE/FALSE. */
  | { kind: "literal"; value: string; pos: number };

export interface FieldRef {
  name: string;
  pos: number;
}

export interface Condition {
  field: FieldRef;
  op: Operator;
  /** One value for scalar operators, two for BETWEEN, the list for IN/CONTAINS, none for IS [NOT] NULL. */
  values: Value[];
  /** True when the values were written as a parenthesised list. */
  isList: boolean;
}

export interface Ordering {
  field: FieldRef;
  descending: boolean;
}

export interface Query {
  select: FieldRef[];
  from: FieldRef;
  where: Condition[];
  orderBy: Ordering[];
  limit?: number;
  parameters: Record<string, string>;
}

const CLAUSE_WORDS = new Set(["SELECT", "FROM", "WHERE", "ORDER", "LIMIT", "PARAMETERS"]);
const FIELD_NAME = /^[a-z][a-zA-Z0-9._]*$/;
const RESOURCE_NAME = /^[a-z][a-zA-Z0-9_]*$/;
export const KNOWN_PARAMETERS = ["include_drafts", "omit_unselected_resource_names"] as const;

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)];
  }

  private next(): Token {
    const t = this.peek();
    if (t.kind !== "eof") this.i++;
    return t;
  }

  private isWord(t: Token, word: string): boolean {
    return t.kind === "word" && t.upper === word;
  }

  private acceptWord(word: string): boolean {
    if (this.isWord(this.peek(), word)) {
      this.i++;
      return true;
    }
    return false;
  }

  private unexpectedEnd(clause: string): never {
    throw queryError("UNEXPECTED_END_OF_QUERY", `Error in ${clause} clause: unexpected end of query.`);
  }

  private fieldName(clause: string): FieldRef {
    const t = this.next();
    if (t.kind === "eof") this.unexpectedEnd(clause);
    if (t.kind !== "word" || !FIELD_NAME.test(t.text) || t.text.endsWith(".") || t.text.includes("..")) {
      throw queryError("BAD_FIELD_NAME", `Error in ${clause} clause: invalid field name '${t.text}'.`, t.text);
    }
    return { name: t.text, pos: t.pos };
  }

  parse(): Query {
    const first = this.peek();
    if (!this.acceptWord("SELECT")) {
      throw queryError("EXPECTED_SELECT", "Error in query: expected SELECT at the beginning of the query.", first.text || undefined);
    }
    const select: FieldRef[] = [this.fieldName("SELECT")];
    while (this.peek().kind === "punct" && this.peek().text === ",") {
      this.next();
      select.push(this.fieldName("SELECT"));
    }
    const afterSelect = this.peek();
    if (!this.acceptWord("FROM")) {
      if (afterSelect.kind === "eof") throw queryError("EXPECTED_FROM", "Error in query: missing FROM clause.");
      if (afterSelect.kind === "word" && !CLAUSE_WORDS.has(afterSelect.upper)) {
        throw queryError("EXPECTED_FROM", `Error in SELECT clause: expected ',' or FROM but found '${afterSelect.text}'.`, afterSelect.text);
      }
      throw queryError("EXPECTED_FROM", "Error in query: missing FROM clause.", afterSelect.text || undefined);
    }
    const r = this.next();
    if (r.kind === "eof") this.unexpectedEnd("FROM");
    if (r.kind !== "word" || !RESOURCE_NAME.test(r.text)) {
      throw queryError("BAD_RESOURCE_TYPE_IN_FROM_CLAUSE", `Error in FROM clause: invalid resource name '${r.text}'.`, r.text);
    }
    const from: FieldRef = { name: r.text, pos: r.pos };

    const where: Condition[] = [];
    if (this.acceptWord("WHERE")) {
      where.push(this.condition());
      while (this.acceptWord("AND")) where.push(this.condition());
    }

    const orderBy: Ordering[] = [];
    if (this.acceptWord("ORDER")) {
      if (!this.acceptWord("BY")) throw queryError("EXPECTED_BY", "Error in ORDER BY clause: expected BY after ORDER.", this.peek().text || undefined);
      do {
        const field = this.fieldName("ORDER BY");
        let descending = false;
        if (this.acceptWord("DESC")) descending = true;
        else this.acceptWord("ASC");
        orderBy.push({ field, descending });
      } while (this.peek().kind === "punct" && this.peek().text === "," && this.next());
    }

    let limit: number | undefined;
    if (this.acceptWord("LIMIT")) {
      const t = this.next();
      if (t.kind === "eof") this.unexpectedEnd("LIMIT");
      if (t.kind !== "number" || !/^-?\d+$/.test(t.text)) {
        throw queryError("BAD_LIMIT_VALUE", `Error in LIMIT clause: invalid limit value '${t.text}'.`, t.text);
      }
      const n = Number(t.text);
      if (n <= 0) throw queryError("LIMIT_VALUE_TOO_LOW", `Error in LIMIT clause: limit must be positive, got ${t.text}.`, t.text);
      if (!Number.isSafeInteger(n)) throw queryError("BAD_LIMIT_VALUE", `Error in LIMIT clause: invalid limit value '${t.text}'.`, t.text);
      limit = n;
    }

    const parameters: Record<string, string> = {};
    if (this.acceptWord("PARAMETERS")) {
      do {
        const name = this.next();
        if (name.kind === "eof") this.unexpectedEnd("PARAMETERS");
        if (name.kind !== "word" || !(KNOWN_PARAMETERS as readonly string[]).includes(name.text)) {
          throw queryError("BAD_PARAMETER_NAME", `Error in PARAMETERS clause: unknown parameter '${name.text}'.`, name.text);
        }
        const eq = this.next();
        if (eq.kind !== "punct" || eq.text !== "=") {
          if (eq.kind === "eof") this.unexpectedEnd("PARAMETERS");
          throw queryError("BAD_PARAMETER_VALUE", `Error in PARAMETERS clause: expected '=' after ${name.text}.`, eq.text);
        }
        const v = this.next();
        if (v.kind === "eof") this.unexpectedEnd("PARAMETERS");
        const lower = v.text.toLowerCase();
        if ((v.kind !== "word" && v.kind !== "string") || (lower !== "true" && lower !== "false")) {
          throw queryError("BAD_PARAMETER_VALUE", `Error in PARAMETERS clause: invalid value '${v.text}' for ${name.text}.`, v.text);
        }
        parameters[name.text] = lower;
      } while (this.peek().kind === "punct" && this.peek().text === "," && this.next());
    }

    const rest = this.peek();
    if (rest.kind !== "eof") {
      throw queryError("UNEXPECTED_INPUT", `Error in query: unexpected input '${rest.text}'.`, rest.text);
    }
    return { select, from, where, orderBy, limit, parameters };
  }

  private condition(): Condition {
    const field = this.fieldName("WHERE");
    const t = this.next();
    if (t.kind === "eof") this.unexpectedEnd("WHERE");
    let op: Operator | undefined;
    if (t.kind === "punct" && ["=", "!=", ">", ">=", "<", "<="].includes(t.text)) op = t.text as Operator;
    else if (t.kind === "word") {
      switch (t.upper) {
        case "IN":
        case "LIKE":
        case "DURING":
        case "BETWEEN":
        case "REGEXP_MATCH":
          op = t.upper;
          break;
        case "NOT": {
          const n = this.next();
          if (this.isWord(n, "IN")) op = "NOT IN";
          else if (this.isWord(n, "LIKE")) op = "NOT LIKE";
          else if (this.isWord(n, "REGEXP_MATCH")) op = "NOT REGEXP_MATCH";
          else throw queryError("BAD_OPERATOR", `Error in WHERE clause: invalid operator 'NOT ${n.text}'.`, `NOT ${n.text}`);
          break;
        }
        case "CONTAINS": {
          const n = this.next();
          if (this.isWord(n, "ANY")) op = "CONTAINS ANY";
          else if (this.isWord(n, "ALL")) op = "CONTAINS ALL";
          else if (this.isWord(n, "NONE")) op = "CONTAINS NONE";
          else throw queryError("BAD_OPERATOR", `Error in WHERE clause: invalid operator 'CONTAINS ${n.text}'.`, `CONTAINS ${n.text}`);
          break;
        }
        case "IS": {
          if (this.acceptWord("NULL")) return { field, op: "IS NULL", values: [], isList: false };
          if (this.acceptWord("NOT") && this.acceptWord("NULL")) return { field, op: "IS NOT NULL", values: [], isList: false };
          throw queryError("BAD_OPERATOR", "Error in WHERE clause: expected NULL or NOT NULL after IS.", "IS");
        }
      }
    }
    if (!op) throw queryError("BAD_OPERATOR", `Error in WHERE clause: invalid operator '${t.text}'.`, t.text);

    if (op === "BETWEEN") {
      if (this.peek().kind === "eof") throw queryError("EXPECTED_VALUE_WITH_BETWEEN_OPERATOR", "Error in WHERE clause: BETWEEN needs two values.");
      const a = this.scalar(op);
      if (!this.acceptWord("AND")) {
        if (this.peek().kind === "eof") throw queryError("EXPECTED_VALUE_WITH_BETWEEN_OPERATOR", "Error in WHERE clause: BETWEEN needs two values.");
        throw queryError("EXPECTED_AND", "Error in WHERE clause: expected AND between the values of BETWEEN.", this.peek().text);
      }
      if (this.peek().kind === "eof") throw queryError("EXPECTED_VALUE_WITH_BETWEEN_OPERATOR", "Error in WHERE clause: BETWEEN needs two values.");
      const b = this.scalar(op);
      if (a.kind !== b.kind) {
        throw queryError(
          "PROHIBITED_VALUE_COMBINATION_WITH_BETWEEN_OPERATOR",
          "Error in WHERE clause: the values of BETWEEN must be of the same type.",
          field.name,
        );
      }
      return { field, op, values: [a, b], isList: false };
    }

    const listOps: Operator[] = ["IN", "NOT IN", "CONTAINS ANY", "CONTAINS ALL", "CONTAINS NONE"];
    const next = this.peek();
    if (next.kind === "punct" && next.text === "(") {
      if (!listOps.includes(op)) {
        throw queryError("EXPECTED_SINGLE_VALUE", `Error in WHERE clause: operator ${op} takes a single value, not a list.`, field.name);
      }
      this.next();
      const items: Value[] = [];
      if (this.peek().kind === "punct" && this.peek().text === ")") {
        this.next();
        throw queryError("PROHIBITED_EMPTY_LIST_IN_CONDITION", `Error in WHERE clause: empty list for ${field.name}.`, field.name);
      }
      for (;;) {
        items.push(this.scalar(op));
        const sep = this.next();
        if (sep.kind === "punct" && sep.text === ")") break;
        if (sep.kind === "punct" && sep.text === ",") continue;
        if (sep.kind === "eof") this.unexpectedEnd("WHERE");
        throw queryError("UNEXPECTED_INPUT", `Error in WHERE clause: expected ',' or ')' but found '${sep.text}'.`, sep.text);
      }
      const kinds = new Set(items.map((v) => v.kind));
      if (kinds.size > 1) {
        throw queryError("PROHIBITED_VALUE_COMBINATION_IN_LIST", `Error in WHERE clause: list for ${field.name} mixes value types.`, field.name);
      }
      return { field, op, values: items, isList: true };
    }
    if (listOps.includes(op)) {
      if (next.kind === "eof") this.unexpectedEnd("WHERE");
      throw queryError("EXPECTED_LIST", `Error in WHERE clause: operator ${op} requires a list of values.`, next.text);
    }
    if (next.kind === "eof") this.unexpectedEnd("WHERE");
    return { field, op, values: [this.scalar(op)], isList: false };
  }

  private scalar(op: Operator): Value {
    const t = this.next();
    switch (t.kind) {
      case "string":
        return { kind: "string", value: t.text, pos: t.pos };
      case "number":
        return { kind: "number", value: Number(t.text), raw: t.text, pos: t.pos };
      case "word":
        if (CLAUSE_WORDS.has(t.upper) || t.upper === "AND") {
          throw queryError("UNEXPECTED_INPUT", `Error in WHERE clause: missing value for operator ${op} before '${t.text}'.`, t.text);
        }
        return { kind: "literal", value: t.text, pos: t.pos };
      case "eof":
        this.unexpectedEnd("WHERE");
      // falls through: unexpectedEnd never returns
      default:
        throw queryError("BAD_VALUE", `Error in WHERE clause: invalid value '${t.text}'.`, t.text);
    }
  }
}

/** Parses GAQL text into a Query; throws GoogleAdsFailureError (queryError.*) on syntax errors. */
export function parseQuery(gaql: string): Query {
  if (gaql.trim() === "") throw queryError("EXPECTED_SELECT", "Error in query: the query is empty.");
  return new Parser(tokenize(gaql)).parse();
}
