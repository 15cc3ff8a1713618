/**
 * The kit's one seeded pseudo-random generator (mulberry32): the same seed gives the same
 * sequence, so generated vectors, certification plans and the tests that draw inputs replay.
 * @module
 */

/**
 * Numbers in [0, 1) from a seed.
 * @param seed - any integer (taken modulo 2^32)
 * @returns the next number on each call
 * @example const rnd = seededRandom(1); rnd() // always the same first number
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
