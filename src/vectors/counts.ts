/**
 * How many cases a set holds, said the one way every command says it (`vectors`, `generate`):
 * where the cases in the files and the cases that run differ, the line says by how many and why.
 * @module
 */
import { liveCases } from './load.js';
import type { VectorSet } from './types.js';

/** The cases of a set: in its files, superseded (kept, never run) and live (the ones that run). */
export interface CaseCounts {
  readonly cases: number;
  readonly superseded: number;
  readonly live: number;
}

/**
 * Counts a set's cases.
 * @param set - a loaded set
 * @returns every case, the superseded ones, the live ones
 * @example caseCounts(loadVectorSet()).live === liveCases(loadVectorSet()).length // true
 */
export function caseCounts(set: Pick<VectorSet, 'cases'>): CaseCounts {
  const live = liveCases(set).length;
  return { cases: set.cases.length, superseded: set.cases.length - live, live };
}

/**
 * A set's cases in words.
 * @param n - its counts ({@link caseCounts})
 * @returns `4 cases`, or `524 cases, 8 of them superseded: 516 live`
 * @example caseCount(caseCounts(loadVectorSet()))
 */
export function caseCount(n: CaseCounts): string {
  const cases = `${n.cases} case${n.cases === 1 ? '' : 's'}`;
  return n.superseded === 0 ? cases : `${cases}, ${n.superseded} of them superseded: ${n.live} live`;
}
