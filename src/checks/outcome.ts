/**
 * Conformance outcomes as data: what running one case against a subject gave.
 * @module
 */
import type { Operation } from '../subjects/operations.js';
import type { Json } from '../subjects/subject.js';
import type { ExpectedResult, VectorKind } from '../vectors/types.js';

/** pass; fail (nonconformance); skip (the subject does not offer the operation); error (the subject broke). */
export type Status = 'pass' | 'fail' | 'skip' | 'error';

/** For acceptable cases: which behaviour the subject chose. */
export type Choice = 'accepted' | 'refused';

/** The outcome of one operation of a case. */
export interface OpOutcome {
  readonly op: Operation;
  readonly status: Status;
  /** What the case expects, in the protocol's terms. */
  readonly expected: Json;
  /** What the subject answered (its answer, or the runner's record of a failure). */
  readonly got: Json;
  /** One line saying why it passed, failed, was skipped or broke. */
  readonly message: string;
  readonly choice?: Choice;
}

/** The outcome of one case: the worst of its operations' outcomes. */
export interface CaseOutcome {
  readonly id: string;
  readonly kind: VectorKind;
  readonly file: string;
  readonly result: ExpectedResult;
  readonly status: Status;
  readonly ops: readonly OpOutcome[];
  readonly choice?: Choice;
  /** The first non-passing operation's message, or a summary. */
  readonly message: string;
}

/** Titles and descriptions of each status, for reports. */
export const STATUS_INFO: Record<Status, { readonly title: string; readonly description: string }> = {
  pass: { title: 'passed', description: 'The subject behaved as the case expects (for acceptable cases: either way).' },
  fail: { title: 'failed', description: 'The subject is not conformant on this case.' },
  skip: { title: 'skipped', description: 'The subject does not offer the operation the case needs.' },
  error: { title: 'error', description: 'The subject crashed, hung, or answered outside the protocol.' },
};

/**
 * Combines the outcomes of a case's operations: error over fail over pass; skip only
 * when every operation was skipped.
 * @param outcomes - the operations' outcomes
 * @returns the case's status
 * @example worstStatus([{ status: 'pass' }, { status: 'fail' }] as OpOutcome[]) // 'fail'
 */
export function worstStatus(outcomes: readonly Pick<OpOutcome, 'status'>[]): Status {
  const has = (s: Status): boolean => outcomes.some((o) => o.status === s);
  if (has('error')) return 'error';
  if (has('fail')) return 'fail';
  if (has('pass')) return 'pass';
  return 'skip';
}
