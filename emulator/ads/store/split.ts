// Integer splitting of one day's metrics across parts (ads of an ad group,
// devices). Shared by the generator and the query engine so both always
// produce the same numbers.

/**
 * Splits an integer total by weights: floors first, then hands the remainder
 * out one unit at a time (respecting optional caps), so parts sum exactly.
 */
export function allocate(total: number, weights: ArrayLike<number>, out: Float64Array, caps?: Float64Array, count = weights.length): void {
  const n = count;
  let rem = total;
  for (let i = 0; i < n; i++) {
    let v = Math.floor(total * weights[i]);
    if (caps && v > caps[i]) v = caps[i];
    out[i] = v;
    rem -= v;
  }
  for (let pass = 0; rem > 0 && pass < 4; pass++) {
    for (let i = 0; i < n && rem > 0; i++) {
      if (weights[i] <= 0 && pass < 3) continue;
      if (caps && out[i] >= caps[i]) continue;
      out[i]++;
      rem--;
    }
  }
}

/**
 * Splits (impressions, clicks, cost, conv, value) across n parts by weights,
 * keeping clicks ≤ impressions per part and sending cost/conversions/value
 * where the clicks went. out[p * 5 + m], m = 0..4.
 */
export class RowSplitter {
  private tmp = new Float64Array(8);
  private cap = new Float64Array(8);
  private cw = new Float64Array(8);

  split(impr: number, clicks: number, cost: number, conv: number, value: number, weights: ArrayLike<number>, n: number, out: Float64Array): void {
    if (this.tmp.length < n) {
      this.tmp = new Float64Array(n);
      this.cap = new Float64Array(n);
      this.cw = new Float64Array(n);
    }
    const { tmp, cap, cw } = this;
    allocate(impr, weights, tmp, undefined, n);
    for (let p = 0; p < n; p++) {
      out[p * 5] = tmp[p];
      cap[p] = tmp[p];
    }
    allocate(clicks, weights, tmp, cap, n);
    for (let p = 0; p < n; p++) {
      out[p * 5 + 1] = tmp[p];
      cw[p] = clicks > 0 ? tmp[p] / clicks : weights[p];
    }
    allocate(cost, cw, tmp, undefined, n);
    for (let p = 0; p < n; p++) out[p * 5 + 2] = tmp[p];
    allocate(conv, cw, tmp, undefined, n);
    for (let p = 0; p < n; p++) out[p * 5 + 3] = tmp[p];
    allocate(value, cw, tmp, undefined, n);
    for (let p = 0; p < n; p++) out[p * 5 + 4] = tmp[p];
  }
}
