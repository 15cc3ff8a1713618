/**
 * Conformance outcomes as data: what running one case against a subject gave.
 * @module
 */
import type { Operation } from '../protocol/operations.js';
import type { Json } from '../subjects/subject.js';
import type { ExpectedResult, VectorKind } from '../vectors/types.js';

/**
 * An operation's status: pass; fail (nonconformance); skip (the step did not run: the
 * subject does not offer the operation, or answered `unsupported`); error (the subject broke).
 */
export type OpStatus = 'pass' | 'fail' | 'skip' | 'error';

/**
 * A case's status: an operation's, or partial: some steps passed and others did not
 * run (an operation the subject does not offer). A partial case is never counted as passed.
 */
export type Status = OpStatus | 'partial';

/**
 * Which behaviour the subject chose where the readings allow several: a verifier or an
 * address `accepted` or `refused`; a client building the upload form sent the formFields
 * `in-order` (as received) or `reordered` (R14).
 */
export type Choice = 'accepted' | 'refused' | 'in-order' | 'reordered';

/** The outcome of one operation of a case. */
export interface OpOutcome {
  readonly op: Operation;
  readonly status: OpStatus;
  /** What the case expects, in the protocol's terms. */
  readonly expected: Json;
  /** What the subject answered (its answer, or the runner's record of a failure). */
  readonly got: Json;
  /** One line saying why it passed, failed, was skipped or broke. */
  readonly message: string;
  readonly choice?: Choice;
  /** What passed but is worth saying, e.g. a 5xx counted as a refusal (R16): shown in every report. */
  readonly advisory?: string;
  /**
   * What was actually sent where it is more than the case's input (a role's HTTP call and what it signed): a report
   * shows it for a failing step instead of the input.
   */
  readonly sent?: Json;
}

/** The outcome of one case: its operations' outcomes combined ({@link worstStatus}). */
export interface CaseOutcome {
  readonly id: string;
  readonly kind: VectorKind;
  readonly file: string;
  readonly result: ExpectedResult;
  readonly status: Status;
  readonly ops: readonly OpOutcome[];
  readonly choice?: Choice;
  /** Its operations' advisories, joined: what passed but is worth saying (R16). */
  readonly advisory?: string;
  /** The first non-passing operation's message, or a summary. */
  readonly message: string;
}

/**
 * Titles and descriptions of each status, for reports.
 * @example STATUS_INFO.fail.title
 */
export const STATUS_INFO: Record<Status, { readonly title: string; readonly description: string }> = {
  pass: {
    title: 'passed',
    description: 'The implementation behaved as the case expects (for acceptable cases: either way).',
  },
  fail: { title: 'failed', description: 'The implementation is not conformant on this case.' },
  skip: { title: 'skipped', description: 'No step of the case ran: the implementation does not offer its operations.' },
  partial: {
    title: 'partial',
    description: 'Some steps passed, others did not run (an operation the implementation does not offer): not a pass.',
  },
  error: { title: 'error', description: 'The implementation crashed, hung, or answered outside the protocol.' },
};

/**
 * Combines the outcomes of a case's operations. A case passes only when every step
 * ran and passed: error over fail; then skip when no step ran (every operation
 * skipped, or none at all); partial when some steps passed and others did not run;
 * pass only when every step passed.
 * @param outcomes - the operations' outcomes
 * @returns the case's status
 * @example worstStatus([{ status: 'pass' }, { status: 'fail' }] as OpOutcome[]) // 'fail'
 * @example worstStatus([{ status: 'skip' }, { status: 'pass' }] as OpOutcome[]) // 'partial'
 */
export function worstStatus(outcomes: readonly Pick<OpOutcome, 'status'>[]): Status {
  const has = (s: OpStatus): boolean => outcomes.some((o) => o.status === s);
  if (has('error')) return 'error';
  if (has('fail')) return 'fail';
  if (!has('pass')) return 'skip';
  return has('skip') ? 'partial' : 'pass';
}

/**
 * The steps of a case that did not run (skipped operations), and why.
 * @param outcomes - the operations' outcomes
 * @returns each skipped step's operation and reason
 * @example
 * notRunSteps([
 *   { op: 'signature.sign', status: 'skip', message: 'the subject does not offer signature.sign' },
 * ]) // [{ op: 'signature.sign', … }]
 */
export function notRunSteps(
  outcomes: readonly Pick<OpOutcome, 'op' | 'status' | 'message'>[],
): Array<{ readonly op: Operation; readonly reason: string }> {
  return outcomes.filter((o) => o.status === 'skip').map((o) => ({ op: o.op, reason: o.message }));
}
