// The engine's statistics: a Beta posterior for a conversion rate and the
// Benjamini–Hochberg procedure. Pure functions, no dependencies; see
// docs/decisions/008-recommendations-engine.md and shared research §0.4.

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9: ~15 significant digits). */
export function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  x -= 1;
  let a = c[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the incomplete beta function (modified Lentz). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const TINY = 1e-300;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  // Convergence takes O(√max(a, b)) steps; posteriors here reach b ≈ 10^6 clicks.
  for (let m = 1; m <= 5000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-12) break;
  }
  return h;
}

/** P(X ≤ x) for X ~ Beta(a, b): the regularized incomplete beta function I_x(a, b). */
export function betaCdf(x: number, a: number, b: number): number {
  if (!(a > 0) || !(b > 0)) throw new RangeError(`Beta parameters must be positive (a=${a}, b=${b})`);
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const lnFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  const front = Math.exp(lnFront);
  // The continued fraction converges fast on this side of the mean; use the symmetry otherwise.
  if (x < (a + 1) / (a + b + 2)) return Math.min(1, Math.max(0, (front * betaContinuedFraction(x, a, b)) / a));
  return Math.min(1, Math.max(0, 1 - (front * betaContinuedFraction(1 - x, b, a)) / b));
}

/** Pseudo-clicks of the prior: how hard a small entity is pulled toward its parent's rate (research: 20–50). */
export const PRIOR_STRENGTH = 30;

export interface RatePosterior {
  a: number;
  b: number;
  /** E[CR] under the posterior. */
  mean: number;
}

/**
 * Posterior of a conversion rate: prior Beta(κ·CR_parent, κ·(1−CR_parent)),
 * updated with V conversions in K clicks (fractional V is fine).
 */
export function ratePosterior(clicks: number, conversions: number, parentRate: number, strength = PRIOR_STRENGTH): RatePosterior {
  // A parent with no conversions (or all) still needs a proper prior.
  const p = Math.min(0.95, Math.max(0.001, parentRate));
  const v = Math.min(Math.max(0, conversions), Math.max(0, clicks));
  const a = strength * p + v;
  const b = strength * (1 - p) + Math.max(0, clicks - v);
  return { a, b, mean: a / (a + b) };
}

/** P(true conversion rate < rate) under the posterior: confidence that the entity is below that rate. */
export function probBelow(post: RatePosterior, rate: number): number {
  return betaCdf(rate, post.a, post.b);
}

/** The shown tier of a confidence: Strong ≥ 0.95, Likely ≥ 0.90, else not shown. */
export function confidenceTier(q: number): "Strong" | "Likely" | null {
  if (q >= 0.95) return "Strong";
  if (q >= 0.9) return "Likely";
  return null;
}

/**
 * Benjamini–Hochberg at false-discovery rate `alpha`: which of the p-values
 * (here 1 − confidence) are discoveries. Testing thousands of keywords at 5 %
 * each would otherwise flag ~5 % of healthy ones by chance.
 */
export function benjaminiHochberg(pValues: number[], alpha: number): boolean[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0]);
  let cutoff = -1;
  for (let k = 0; k < m; k++) if (order[k][0] <= ((k + 1) / m) * alpha) cutoff = k;
  const out = new Array<boolean>(m).fill(false);
  for (let k = 0; k <= cutoff; k++) out[order[k][1]] = true;
  return out;
}
