// Deterministic randomness for the demo generator: same seed → same account.

/** mulberry32: tiny, fast, good enough for synthetic data; state is one uint32. */
export class Rng {
  private state: number;
  private spareNormal: number | undefined;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Fisher–Yates on a copy. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = out[i];
      out[i] = out[j];
      out[j] = tmp;
    }
    return out;
  }

  normal(): number {
    if (this.spareNormal !== undefined) {
      const s = this.spareNormal;
      this.spareNormal = undefined;
      return s;
    }
    let u = this.next();
    while (u <= 1e-12) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** Log-normal multiplier with median 1 and the given log-space sigma. */
  logNormal(sigma: number): number {
    return Math.exp(sigma * this.normal());
  }

  /** Poisson draw: inversion for small means (exact), normal approximation for large ones (fast). */
  poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean < 30) {
      const l = Math.exp(-mean);
      let k = 0;
      let p = this.next();
      while (p > l) {
        k++;
        p *= this.next();
      }
      return k;
    }
    const x = Math.round(mean + Math.sqrt(mean) * this.normal());
    return x < 0 ? 0 : x;
  }

  /** Binomial(n, p) approximated: exact-ish via Poisson for rare events, normal otherwise. */
  binomial(n: number, p: number): number {
    if (n <= 0 || p <= 0) return 0;
    if (p >= 1) return n;
    const mean = n * p;
    let x: number;
    if (mean < 30 || n * (1 - p) < 30) x = this.poisson(mean);
    else x = Math.round(mean + Math.sqrt(mean * (1 - p)) * this.normal());
    return x < 0 ? 0 : x > n ? n : x;
  }
}

/** Stateless 32-bit hash → [0, 1): per-row noise that must not depend on generation order. */
export function hashUnit(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}
