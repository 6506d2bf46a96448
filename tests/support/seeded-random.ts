/** A repeatable stream of numbers in [0, 1) (Park–Miller), so a randomized test fails the same way every run. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => ((state = Math.imul(state, 48271) % 2147483647) & 0x7fffffff) / 2147483647;
}
