/**
 * Sharding: a run split across CI jobs (`--shard <i>/<n>`, as vitest's and Playwright's). Each
 * case belongs to one shard by its id alone — the SHA-256 of the id, modulo n — so a case stays in
 * its shard when others are added or removed, and every job computes the same split.
 * @module
 */
import { createHash } from 'node:crypto';

/**
 * The most shards a run splits into (`--shard <i>/<n>` with n ≤ 1,000), and `pgv2kit merge` joins.
 * @example MAX_SHARDS // 1000
 */
export const MAX_SHARDS = 1000;

/** One shard of n: `index` from 1 to `count`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/**
 * The shard a case id belongs to, among `count`.
 * @param id - the case id
 * @param count - the number of shards
 * @returns 1 … count
 * @example shardOf('signature.final-lf-missing', 2) // 1 or 2, the same every time
 */
export function shardOf(id: string, count: number): number {
  return (createHash('sha256').update(id, 'utf8').digest().readUInt32BE(0) % count) + 1;
}

/**
 * Reads `<i>/<n>` as typed after --shard.
 * @param text - e.g. `2/4`
 * @returns the shard, or undefined when the text is not `<i>/<n>` with 1 ≤ i ≤ n ≤ {@link MAX_SHARDS}
 * @example parseShard('2/4') // { index: 2, count: 4 }
 */
export function parseShard(text: string): Shard | undefined {
  const m = /^\s*(\d{1,4})\s*\/\s*(\d{1,4})\s*$/.exec(text);
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return count >= 1 && count <= MAX_SHARDS && index >= 1 && index <= count ? { index, count } : undefined;
}
