// Daily performance facts, stored sparsely and column-wise.
//
// Stored levels: keyword, search term, campaign, and display ad groups (which
// have no keywords). Ad groups, ads and asset views are derived at query time
// from keyword rows, which keeps 1M-keyword accounts in a few hundred MB.
// Only days with traffic get a row; rows of one entity are contiguous
// and ordered by day, located through `offsets`. Integer units keep sums exact
// and output tidy: cost in 1/100 of the currency unit (10,000 micros),
// conversions and conversion value in hundredths.

export const COST_UNIT_MICROS = 10_000;

type Column = Uint32Array | Float64Array;

export interface FactRowSink {
  impressions: number;
  clicks: number;
  cost: number;
  conv: number;
  value: number;
  eligible: number;
  budgetLost: number;
  rankLost: number;
}

export class FactTable {
  constructor(
    /** Row range of entity e is [offsets[e], offsets[e + 1]). */
    readonly offsets: Uint32Array,
    readonly day: Uint16Array,
    readonly impressions: Column,
    readonly clicks: Column,
    readonly cost: Column,
    readonly conv: Column,
    readonly value: Column,
    /**
     * Impression-share bookkeeping (campaign table only; float32 is plenty for ratios):
     * estimated eligible impressions and the parts lost to budget and to rank.
     * Additive, so shares over any range are Σ impressions / Σ eligible etc.
     */
    readonly eligible?: Float32Array,
    readonly budgetLost?: Float32Array,
    readonly rankLost?: Float32Array,
  ) {}

  get entityCount(): number {
    return this.offsets.length - 1;
  }

  get rowCount(): number {
    return this.day.length;
  }

  /** First row of entity e (entities created after generation have none). */
  start(e: number): number {
    return e < this.offsets.length - 1 ? this.offsets[e] : 0;
  }

  end(e: number): number {
    return e < this.offsets.length - 1 ? this.offsets[e + 1] : 0;
  }

  /** First row of entity e with day >= fromDay (rows are day-ordered). */
  lowerBound(e: number, fromDay: number): number {
    let lo = this.start(e);
    let hi = this.end(e);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.day[mid] < fromDay) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  bytes(): number {
    let n = this.offsets.byteLength + this.day.byteLength;
    for (const c of [this.impressions, this.clicks, this.cost, this.conv, this.value, this.eligible, this.budgetLost, this.rankLost]) {
      if (c) n += c.byteLength;
    }
    return n;
  }
}

/**
 * Append-only builder. Entities must be opened in increasing index order
 * (generation walks the hierarchy in order, so this is free) and days pushed in
 * increasing order per entity.
 */
export class FactBuilder {
  private offsets: number[] = [0];
  private n = 0;
  private cap: number;
  private day: Uint16Array;
  private impressions: Column;
  private clicks: Column;
  private cost: Column;
  private conv: Column;
  private value: Column;
  private eligible?: Float32Array;
  private budgetLost?: Float32Array;
  private rankLost?: Float32Array;

  /**
   * @param wide Float64 columns for aggregate levels whose sums can outgrow uint32.
   * @param impressionShare keep the eligible / lost-impression columns.
   */
  constructor(
    private readonly wide: boolean,
    impressionShare: boolean,
    initialCapacity = 1024,
  ) {
    this.cap = Math.max(16, initialCapacity);
    this.day = new Uint16Array(this.cap);
    this.impressions = this.col(this.cap);
    this.clicks = this.col(this.cap);
    this.cost = this.col(this.cap);
    this.conv = this.col(this.cap);
    this.value = this.col(this.cap);
    if (impressionShare) {
      this.eligible = new Float32Array(this.cap);
      this.budgetLost = new Float32Array(this.cap);
      this.rankLost = new Float32Array(this.cap);
    }
  }

  private col(n: number): Column {
    return this.wide ? new Float64Array(n) : new Uint32Array(n);
  }

  /** Closes every entity up to and including `e - 1`; subsequent pushes belong to e. */
  openEntity(e: number): void {
    while (this.offsets.length <= e) this.offsets.push(this.n);
  }

  push(day: number, impressions: number, clicks: number, cost: number, conv: number, value: number, eligible = 0, budgetLost = 0, rankLost = 0): void {
    if (this.n === this.cap) this.grow();
    const i = this.n++;
    this.day[i] = day;
    this.impressions[i] = impressions;
    this.clicks[i] = clicks;
    this.cost[i] = cost;
    this.conv[i] = conv;
    this.value[i] = value;
    if (this.eligible && this.budgetLost && this.rankLost) {
      this.eligible[i] = eligible;
      this.budgetLost[i] = budgetLost;
      this.rankLost[i] = rankLost;
    }
  }

  private grow(): void {
    const cap = this.cap * 2;
    const copy = <T extends Column | Uint16Array | Float32Array>(src: T, dst: T): T => {
      dst.set(src as never);
      return dst;
    };
    this.day = copy(this.day, new Uint16Array(cap));
    this.impressions = copy(this.impressions, this.col(cap));
    this.clicks = copy(this.clicks, this.col(cap));
    this.cost = copy(this.cost, this.col(cap));
    this.conv = copy(this.conv, this.col(cap));
    this.value = copy(this.value, this.col(cap));
    if (this.eligible && this.budgetLost && this.rankLost) {
      this.eligible = copy(this.eligible, new Float32Array(cap));
      this.budgetLost = copy(this.budgetLost, new Float32Array(cap));
      this.rankLost = copy(this.rankLost, new Float32Array(cap));
    }
    this.cap = cap;
  }

  finish(entityCount: number): FactTable {
    this.openEntity(entityCount);
    const n = this.n;
    const offsets = Uint32Array.from(this.offsets.slice(0, entityCount + 1));
    // slice() copies into exactly-sized buffers so the growth slack is freed.
    return new FactTable(
      offsets,
      this.day.slice(0, n),
      this.impressions.slice(0, n),
      this.clicks.slice(0, n),
      this.cost.slice(0, n),
      this.conv.slice(0, n),
      this.value.slice(0, n),
      this.eligible?.slice(0, n),
      this.budgetLost?.slice(0, n),
      this.rankLost?.slice(0, n),
    );
  }
}

export function emptyFactTable(entityCount: number, impressionShare = false): FactTable {
  return new FactBuilder(false, impressionShare, 16).finish(entityCount);
}
