import { Buffer } from "node:buffer";
import { type CompiledLeaf, type CompiledNode, type CompiledPlan, INTERN_MAX_LENGTH, UNREAD, fillUnset } from "./row-plan.server";

/**
 * Reads one searchStream batch (`{"results":[row, …], "fieldMask": …,
 * "requestId": …}`, as bytes) straight into a large stream's column values,
 * by its plan (row-plan.server.ts): no row objects, no JSON text, no second
 * pass over them (issue 14: JSON.parse, the row readers and the garbage they
 * left were half of a 100k-keyword sync's CPU).
 *
 * It decides only plain batches. On anything else (an error element, a
 * summary row, a key spelled with escapes or given twice, a value the plan's
 * readers refuse, JSON it is unsure of) it returns undefined, and the batch is
 * parsed as JSON and read the general way, which gives the values or the
 * precise error. So it never accepts a batch the general way would refuse.
 */

/** Thrown inside to give the batch up (one shared object: no stack to capture). */
const GIVE_UP: unknown = Object.freeze({ giveUp: true });

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
/** Up to 15 digits a double holds exactly: summed in place, as Number() would read them. */
const EXACT_DIGITS = 15;
const MAX_EXACT_INTEGER = 2 ** 53;
/** 10^0 … 10^22: the powers of ten a double holds exactly. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));
const MAX_EXACT_POWER = POWERS_OF_TEN.length - 1;

const ELEMENT_STRINGS = new Set(["fieldMask", "requestId", "queryResourceConsumption"]);

/**
 * The batch's rows as values in `plan.columns` order (customer_id first), or
 * undefined to have it read the general way.
 */
export function decodeBatch(plan: CompiledPlan, bytes: Uint8Array, customerId: string): unknown[][] | undefined {
  try {
    return new BatchDecoder(plan, bytes, customerId).element();
  } catch {
    // GIVE_UP, a reader's NOT_FAST, or anything unforeseen (nesting too deep for the stack):
    // the general way reads this batch and says what, if anything, is wrong with it.
    return undefined;
  }
}

class BatchDecoder {
  private readonly b: Buffer;
  private readonly n: number;
  private i = 0;
  /** Where the key key() just read ends. */
  private keyTo = 0;
  /** Messages of the current row already read (bit per CompiledNode.index). */
  private seen = 0;
  private readonly template: unknown[];
  private readonly ids = new Map<number, string>();
  private readonly dates = new Map<number, string>();
  private readonly strings = new Map<string, string>();
  private readonly byBytes = new Map<number, string>();
  private readonly requiredMask: number;

  constructor(
    private readonly plan: CompiledPlan,
    bytes: Uint8Array,
    customerId: string,
  ) {
    this.b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.n = bytes.byteLength;
    this.template = new Array<unknown>(plan.columns.length).fill(UNREAD);
    this.template[0] = customerId;
    let mask = 0;
    for (const g of plan.requiredGroups) mask |= 1 << g;
    this.requiredMask = mask;
  }

  element(): unknown[][] {
    const rows: unknown[][] = [];
    let sawResults = false;
    this.ws();
    this.expect(OPEN_BRACE);
    this.ws();
    if (this.b[this.i] === CLOSE_BRACE) this.i++;
    else {
      for (;;) {
        const from = this.key();
        const name = this.b.toString("latin1", from, this.keyTo);
        this.ws();
        this.expect(COLON);
        this.ws();
        if (name === "results") {
          if (sawResults) throw GIVE_UP;
          sawResults = true;
          this.rows(rows);
        } else if (ELEMENT_STRINGS.has(name)) {
          if (this.b[this.i] !== QUOTE) throw GIVE_UP;
          this.scanString();
        } else throw GIVE_UP; // "error", "summaryRow" or something new: the general way.
        if (this.endOfMember(CLOSE_BRACE)) break;
      }
    }
    this.ws();
    if (this.i !== this.n) throw GIVE_UP;
    return rows;
  }

  private rows(rows: unknown[][]): void {
    this.expect(OPEN_BRACKET);
    this.ws();
    if (this.b[this.i] === CLOSE_BRACKET) {
      this.i++;
      return;
    }
    for (;;) {
      this.expect(OPEN_BRACE);
      const out = this.template.slice();
      this.seen = 1; // the row itself
      this.object(this.plan.root, out);
      if ((this.seen & this.requiredMask) !== this.requiredMask) throw GIVE_UP;
      fillUnset(this.plan, out);
      rows.push(out);
      if (this.endOfMember(CLOSE_BRACKET)) return;
    }
  }

  /** After a value: true at the closing byte (consumed), false after a comma. */
  private endOfMember(close: number): boolean {
    this.ws();
    const c = this.b[this.i++];
    if (c === close) return true;
    if (c !== COMMA) throw GIVE_UP;
    this.ws();
    return false;
  }

  /** The members of a message the plan knows, the opening brace consumed. */
  private object(node: CompiledNode, out: unknown[]): void {
    this.ws();
    if (this.b[this.i] === CLOSE_BRACE) {
      this.i++;
      return;
    }
    // Keys come in the same order row after row: the one after the last match is tried first.
    let next = 0;
    for (;;) {
      const k = this.expectedKey(node, next) ?? this.match(node, this.key(), this.keyTo, next);
      const child = k < 0 ? undefined : node.children[k];
      next = k + 1;
      this.ws();
      this.expect(COLON);
      this.ws();
      if (child === undefined) this.skipValue();
      else if (child.leaf) {
        if (out[child.at] !== UNREAD) throw GIVE_UP; // a key given twice
        out[child.at] = this.value(child);
      } else {
        const bit = 1 << child.index;
        if (this.seen & bit) throw GIVE_UP;
        this.seen |= bit;
        this.expect(OPEN_BRACE);
        this.object(child, out);
      }
      if (this.endOfMember(CLOSE_BRACE)) return;
    }
  }

  /**
   * `first` when the key at the cursor is exactly its name, moving past it; undefined otherwise
   * (nothing consumed). Keys come in the same order row after row, so this nearly always holds,
   * and the key's bytes are then compared once instead of scanned and then compared.
   */
  private expectedKey(node: CompiledNode, first: number): number | undefined {
    const names = node.bytes;
    if (first >= names.length) return undefined;
    const name = names[first];
    const b = this.b;
    const from = this.i + 1;
    const end = from + name.length;
    if (b[this.i] !== QUOTE || end >= this.n || b[end] !== QUOTE) return undefined;
    for (let j = 0; j < name.length; j++) if (b[from + j] !== name[j]) return undefined;
    this.i = end + 1;
    this.keyTo = end;
    return first;
  }

  /** Which of the message's keys [from, to) is (trying `first` before the rest), or -1. */
  private match(node: CompiledNode, from: number, to: number, first: number): number {
    const names = node.bytes;
    if (first < names.length && this.equals(names[first], from, to)) return first;
    for (let k = 0; k < names.length; k++) if (k !== first && this.equals(names[k], from, to)) return k;
    return -1;
  }

  private equals(name: Uint8Array, from: number, to: number): boolean {
    const len = to - from;
    if (name.length !== len) return false;
    const b = this.b;
    for (let j = 0; j < len; j++) if (b[from + j] !== name[j]) return false;
    return true;
  }

  /** A member's key: where its plain ASCII bytes start (they end at keyTo); escaped or non-ASCII keys give up. */
  private key(): number {
    const b = this.b;
    if (b[this.i] !== QUOTE) throw GIVE_UP;
    const from = ++this.i;
    let i = from;
    for (; i < this.n; i++) {
      const c = b[i];
      if (c === QUOTE) break;
      if (c === BACKSLASH || c < 0x20 || c >= 0x80) throw GIVE_UP;
    }
    if (i >= this.n) throw GIVE_UP;
    this.i = i + 1;
    this.keyTo = i;
    return from;
  }

  /** A leaf's column value. */
  private value(leaf: CompiledLeaf): unknown {
    const b = this.b;
    const c = b[this.i];
    if (c === QUOTE) return this.stringValue(leaf);
    if (c === MINUS || (c >= ZERO && c <= NINE)) return leaf.read(this.number());
    if (c === 0x74 /* t */) {
      this.literal("true");
      return leaf.read(true);
    }
    if (c === 0x66 /* f */) {
      this.literal("false");
      return leaf.read(false);
    }
    // null, a message or a list where a value belongs: the schema's to judge.
    throw GIVE_UP;
  }

  private stringValue(leaf: CompiledLeaf): unknown {
    const b = this.b;
    const from = this.i + 1;
    const special = this.scanString();
    const to = this.i - 1;
    const len = to - from;
    if (special === 0) {
      const kind = leaf.kind;
      if (kind === "id") {
        const v = len <= EXACT_DIGITS && (len === 1 || b[from] !== ZERO) ? this.digits(from, to) : -1;
        if (v >= 0) {
          let s = this.ids.get(v);
          if (s === undefined) this.ids.set(v, (s = b.toString("latin1", from, to)));
          return s;
        }
      } else if (kind === "date") {
        const v = len === 10 && b[from + 4] === MINUS && b[from + 7] === MINUS ? this.date(from) : -1;
        if (v >= 0) {
          let s = this.dates.get(v);
          if (s === undefined) this.dates.set(v, (s = b.toString("latin1", from, to)));
          return s;
        }
      } else if (kind === "count" || kind === "micros" || kind === "optMicros" || kind === "double0" || kind === "doubleNull") {
        // Int64 and Micros come as strings of digits: the number Number() would give, without the string.
        const negative = b[from] === MINUS;
        const start = negative ? from + 1 : from;
        const v = to - start <= EXACT_DIGITS ? this.digits(start, to) : -1;
        if (v >= 0) return leaf.read(negative ? -v : v);
      }
    }
    if (special === 0 && len <= INTERN_MAX_LENGTH) return leaf.read(this.shortAscii(from, to));
    let s: string;
    if (special & 2) {
      // Escapes: JSON's own reading of them.
      s = JSON.parse(b.toString("utf8", from - 1, to + 1)) as string;
    } else s = b.toString(special & 1 ? "utf8" : "latin1", from, to);
    return leaf.read(s.length <= INTERN_MAX_LENGTH ? this.intern(s) : s);
  }

  /** The batch's one copy of a short string. */
  private intern(s: string): string {
    const shared = this.strings.get(s);
    if (shared !== undefined) return shared;
    this.strings.set(s, s);
    return s;
  }

  /**
   * A short plain ASCII string, shared per batch (as `strings` does), found by
   * a hash of its bytes: enum names and repeated texts then cost no new string
   * each time, only a pass over their bytes.
   */
  private shortAscii(from: number, to: number): string {
    const b = this.b;
    let h = to - from;
    for (let j = from; j < to; j++) h = Math.imul(h ^ b[j], 0x01000193);
    const known = this.byBytes.get(h);
    if (known !== undefined && known.length === to - from) {
      let same = true;
      for (let j = 0; j < known.length; j++) {
        if (known.charCodeAt(j) !== b[from + j]) {
          same = false;
          break;
        }
      }
      if (same) return known;
    }
    const s = this.intern(b.toString("latin1", from, to));
    this.byBytes.set(h, s);
    return s;
  }

  /** YYYY-MM-DD at `from` (dashes checked) as YYYYMMDD, or -1. */
  private date(from: number): number {
    const y = this.digits(from, from + 4);
    const m = this.digits(from + 5, from + 7);
    const d = this.digits(from + 8, from + 10);
    return y < 0 || m < 0 || d < 0 ? -1 : y * 10_000 + m * 100 + d;
  }

  /** The value of the ASCII digits in [from, to), or -1 if any byte is not a digit or there are none. */
  private digits(from: number, to: number): number {
    if (from >= to) return -1;
    const b = this.b;
    let v = 0;
    for (let j = from; j < to; j++) {
      const d = b[j] - ZERO;
      if (d < 0 || d > 9) return -1;
      v = v * 10 + d;
    }
    return v;
  }

  /**
   * Moves past a string (at its opening quote); says what it holds: 1 bytes
   * past ASCII, 2 escapes (each checked as JSON allows it), 0 neither.
   */
  private scanString(): number {
    const b = this.b;
    const n = this.n;
    let i = this.i + 1;
    let special = 0;
    for (; i < n; i++) {
      const c = b[i];
      if (c === QUOTE) break;
      if (c < 0x20) throw GIVE_UP;
      if (c >= 0x80) special |= 1;
      else if (c === BACKSLASH) {
        special |= 2;
        const e = b[++i];
        if (e === 0x75 /* u */) {
          for (let h = 0; h < 4; h++) {
            const x = b[++i];
            if (!((x >= ZERO && x <= NINE) || (x >= 0x41 && x <= 0x46) || (x >= 0x61 && x <= 0x66))) throw GIVE_UP;
          }
        } else if (!(e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) throw GIVE_UP;
      }
    }
    if (i >= n) throw GIVE_UP;
    this.i = i + 1;
    return special;
  }

  /** A JSON number, exactly as JSON.parse reads it. */
  private number(): number {
    const b = this.b;
    const start = this.i;
    let i = start;
    const negative = b[i] === MINUS;
    if (negative) i++;
    const intFrom = i;
    if (b[i] === ZERO) i++;
    else if (b[i] >= 0x31 && b[i] <= NINE) while (i < this.n && b[i] >= ZERO && b[i] <= NINE) i++;
    else throw GIVE_UP;
    const intTo = i;
    let plain = true;
    let fraction = false;
    let fractionTo = -1;
    if (b[i] === 0x2e /* . */) {
      plain = false;
      fraction = true;
      i++;
      if (!(b[i] >= ZERO && b[i] <= NINE)) throw GIVE_UP;
      while (i < this.n && b[i] >= ZERO && b[i] <= NINE) i++;
      fractionTo = i;
    }
    if (b[i] === 0x65 || b[i] === 0x45 /* e E */) {
      plain = false;
      i++;
      if (b[i] === 0x2b || b[i] === MINUS) i++;
      if (!(b[i] >= ZERO && b[i] <= NINE)) throw GIVE_UP;
      while (i < this.n && b[i] >= ZERO && b[i] <= NINE) i++;
    }
    this.i = i;
    if (plain && intTo - intFrom <= EXACT_DIGITS) {
      const v = this.digits(intFrom, intTo);
      return negative ? -v : v;
    }
    if (fraction && fractionTo === i && fractionTo - intTo - 1 <= MAX_EXACT_POWER) {
      // A decimal fraction without exponent (impression shares, conversions): its digits as one
      // integer, exact up to 2^53, divided by an exact power of ten. IEEE division rounds
      // correctly, so this is the double Number() gives (Clinger's fast path).
      let v = 0;
      for (let j = intFrom; j < fractionTo; j++) {
        if (j === intTo) continue;
        v = v * 10 + (b[j] - ZERO);
        if (v > MAX_EXACT_INTEGER) return Number(b.toString("latin1", start, i));
      }
      const q = v / POWERS_OF_TEN[fractionTo - intTo - 1];
      return negative ? -q : q;
    }
    return Number(b.toString("latin1", start, i));
  }

  private literal(word: "true" | "false" | "null"): void {
    const b = this.b;
    for (let k = 0; k < word.length; k++) if (b[this.i + k] !== word.charCodeAt(k)) throw GIVE_UP;
    this.i += word.length;
  }

  /** A value no column needs, checked as strictly as JSON.parse would. */
  private skipValue(): void {
    const b = this.b;
    const c = b[this.i];
    if (c === QUOTE) this.scanString();
    else if (c === MINUS || (c >= ZERO && c <= NINE)) this.number();
    else if (c === 0x74) this.literal("true");
    else if (c === 0x66) this.literal("false");
    else if (c === 0x6e) this.literal("null");
    else if (c === OPEN_BRACE) {
      this.i++;
      this.ws();
      if (b[this.i] === CLOSE_BRACE) {
        this.i++;
        return;
      }
      for (;;) {
        if (b[this.i] !== QUOTE) throw GIVE_UP;
        this.scanString();
        this.ws();
        this.expect(COLON);
        this.ws();
        this.skipValue();
        if (this.endOfMember(CLOSE_BRACE)) return;
      }
    } else if (c === OPEN_BRACKET) {
      this.i++;
      this.ws();
      if (b[this.i] === CLOSE_BRACKET) {
        this.i++;
        return;
      }
      for (;;) {
        this.skipValue();
        if (this.endOfMember(CLOSE_BRACKET)) return;
      }
    } else throw GIVE_UP;
  }

  private expect(c: number): void {
    if (this.b[this.i] !== c) throw GIVE_UP;
    this.i++;
  }

  /** JSON's whitespace: Google's own responses are indented. */
  private ws(): void {
    const b = this.b;
    let i = this.i;
    while (i < this.n) {
      const c = b[i];
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      i++;
    }
    this.i = i;
  }
}
