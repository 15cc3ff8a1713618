/**
 * What a run covered: per operation, whether the implementation offers it and how
 * many of the selected cases' steps of it ran, passed and failed; and whether any
 * step ran at all (a run in which none did proves nothing, and says so: "no test ran").
 * @module
 */
import { shellLine } from '../shell-quote.js';
import { KIT_OPERATIONS, PROTOCOL_OPERATIONS, type Operation } from '../protocol/operations.js';
import type { OpOutcome } from '../checks/outcome.js';

/** One operation's coverage in a run (operation outcomes, before any expected-failure list). */
export interface OperationCoverage {
  readonly op: Operation;
  /** Whether the implementation offers it. */
  readonly offered: boolean;
  /** Selected cases with a step of this operation. */
  readonly cases: number;
  /** Steps that ran: passed, failed or errored. */
  readonly ran: number;
  readonly passed: number;
  readonly failed: number;
  readonly error: number;
  /** Steps that did not run: the operation is not offered, or the implementation answered `unsupported`. */
  readonly notRun: number;
}

/**
 * Counts, per operation, the steps of the selected cases. Operations come in the
 * protocol's order, kit-internal ones after; an operation is listed when a selected
 * case has a step of it or the implementation offers it.
 * @param cases - the run's cases (their operations' outcomes)
 * @param offered - the operations the implementation offers
 * @returns one row per operation
 * @example operationCoverage(run.cases, subject.operations).find((r) => r.op === 'signature.sign')?.offered
 */
export function operationCoverage(
  cases: ReadonlyArray<{ readonly ops: readonly Pick<OpOutcome, 'op' | 'status'>[] }>,
  offered: readonly Operation[],
): OperationCoverage[] {
  const rows: OperationCoverage[] = [];
  for (const op of [...PROTOCOL_OPERATIONS, ...KIT_OPERATIONS] as Operation[]) {
    const steps = cases.flatMap((c) => c.ops.filter((o) => o.op === op));
    const isOffered = offered.includes(op);
    if (steps.length === 0 && !isOffered) continue;
    const count = (s: OpOutcome['status']): number => steps.filter((o) => o.status === s).length;
    const notRun = count('skip');
    rows.push({
      op,
      offered: isOffered,
      cases: cases.filter((c) => c.ops.some((o) => o.op === op)).length,
      ran: steps.length - notRun,
      passed: count('pass'),
      failed: count('fail'),
      error: count('error'),
      notRun,
    });
  }
  return rows;
}

/**
 * Why no step of the run ran, or undefined when one did. The run then proves nothing
 * and fails (exit 1), as pytest's "no tests ran".
 * @param run - the selection, the cases' outcomes and the operations offered
 * @returns the reason, e.g. `no test ran: the implementation offers no operations`
 * @example
 * const reason = noTestRan({ selection: { only: ['signature'], skip: ['signature'] }, cases: [], offered: [] });
 * reason // 'no test ran: the selection (--only signature --skip signature) leaves no case'
 */
export function noTestRan(run: {
  readonly selection: { readonly only: readonly string[]; readonly skip: readonly string[] };
  readonly cases: ReadonlyArray<{ readonly ops: readonly Pick<OpOutcome, 'op' | 'status'>[] }>;
  readonly offered: readonly Operation[];
  /** Selected cases left out as other targets' (kit-internal operations only). */
  readonly otherTargets?: number;
}): string | undefined {
  if (run.cases.length === 0 && (run.otherTargets ?? 0) > 0) {
    return (
      `no test ran: the ${run.otherTargets} selected cases need only kit-internal operations ` +
      '(upload.formCheck, gateway.*), which only the reference (in process) and the gateway role (--gateway) run, ' +
      'never a testee'
    );
  }
  if (run.cases.length === 0) {
    // as a user pastes them into sh: each word exact, whatever it holds (shellLine)
    const words = [
      ...run.selection.only.flatMap((p) => ['--only', p]),
      ...run.selection.skip.flatMap((p) => ['--skip', p]),
    ];
    const options = words.length > 0 ? shellLine(words) : '';
    return `no test ran: ${options ? `the selection (${options})` : 'the vector set'} leaves no case`;
  }
  const steps = run.cases.flatMap((c) => c.ops);
  if (steps.some((o) => o.status !== 'skip')) return undefined;
  if (run.offered.length === 0) return 'no test ran: the implementation offers no operations';
  const needed = [...new Set(steps.map((o) => o.op))];
  if (!needed.some((op) => run.offered.includes(op)))
    return (
      'no test ran: the implementation offers none of the operations the selected cases need ' +
      `(${needed.join(', ')})`
    );
  return 'no test ran: the implementation answered unsupported to every step of the operations it offers';
}

/**
 * The sentence that says which selected cases were left to other targets (kit-internal
 * operations only), for the closing lines and the reports.
 * @param other - the run's `otherTargets`
 * @returns e.g. `for other targets: 48 cases need only kit-internal operations (upload.formCheck, …) …`
 * @example otherTargetsLine({ cases: 2, operations: ['upload.formCheck'] })
 */
export function otherTargetsLine(other: { readonly cases: number; readonly operations: readonly Operation[] }): string {
  return (
    `for other targets: ${other.cases} case${other.cases === 1 ? '' : 's'} need only kit-internal operations ` +
    `(${other.operations.join(', ')}), which the reference and the gateway role run, never a testee: ` +
    'not run, not counted'
  );
}
