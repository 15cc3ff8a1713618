/**
 * Runs a vector case against a subject: the check of the case's kind (its role's, from the
 * registry) runs each of its operations the subject offers; the case passes only when every step
 * ran and passed (a step of an operation not offered makes it partial; see {@link worstStatus}).
 * A failed step is diagnosed by its kind's diagnosis.
 * @module
 */
import type { Check } from '../checks/check.js';
import type { CheckContext } from '../checks/context.js';
import { worstStatus, type CaseOutcome, type OpOutcome } from '../checks/outcome.js';
import type { Diagnosis } from '../diagnosis/diagnosis.js';
import type { Operation } from '../protocol/operations.js';
import type { Subject } from '../subjects/subject.js';
import type { LoadedCase, VectorCase, VectorKind } from '../vectors/types.js';
import type { CaseOf, PatternCase, Role } from './role.js';
import { KIND_INFO, ROLES, VECTOR_KINDS } from './registry.js';

/**
 * The check of each vector kind.
 * @deprecated read `KIND_INFO[kind].check` (src/roles/registry.ts): each kind's check is its role's
 * @example
 * CHECKS.signature.operations(
 *   vectorCase('signature.payment-create'),
 * ) // ['signature.content', 'signature.sign', 'request.verify']
 */
export const CHECKS: { readonly [K in VectorKind]: Check<K> } = Object.fromEntries(
  VECTOR_KINDS.map((k) => [k, KIND_INFO[k].check]),
) as { readonly [K in VectorKind]: Check<K> };

/**
 * The operations a case runs.
 * @param c - the case
 * @returns its operations, in order
 * @example
 * caseOperations(vectorCase('signature.payment-create')) // ['signature.content', 'signature.sign', 'request.verify']
 */
export function caseOperations(c: VectorCase): readonly Operation[] {
  return checkOf(c.kind).operations(c as never);
}

/**
 * Runs one case against a subject.
 * @param loaded - the case and its file
 * @param subject - the implementation under test
 * @param context - what some checks need beyond the subject (the gateway, for client cases)
 * @returns the outcome: pass, fail, error, partial (some steps did not run) or skip (none
 *   ran), with each operation's outcome
 * @throws {RangeError} for a case whose result is not valid, invalid or acceptable (the schema prevents it)
 * @example const outcome = await runCase(set.cases[0], createReferenceSubject());
 */
export async function runCase(loaded: LoadedCase, subject: Subject, context: CheckContext = {}): Promise<CaseOutcome> {
  const c = loaded.case;
  if (!['valid', 'invalid', 'acceptable'].includes(c.result))
    throw new RangeError(`case ${c.id}: unknown result ${String(c.result)}`);
  const check = checkOf(c.kind);
  const ops: OpOutcome[] = [];
  for (const op of check.operations(c as never)) {
    if (!subject.operations.includes(op)) {
      ops.push({ op, status: 'skip', expected: null, got: null, message: `the implementation does not offer ${op}` });
      continue;
    }
    ops.push(await check.run(c as never, op, subject, context));
  }
  const status = worstStatus(ops);
  const deciding = ops.find((o) => o.status === status) ?? ops.find((o) => o.status === 'skip') ?? ops[0];
  const choice = ops.find((o) => o.choice)?.choice;
  const advisory = ops
    .filter((o) => o.advisory)
    .map((o) => o.advisory)
    .join('; ');
  const message =
    status === 'partial'
      ? partialMessage(ops, subject.operations)
      : deciding
        ? `${deciding.op}: ${deciding.message}`
        : 'no operations';
  return {
    id: c.id,
    kind: c.kind,
    file: loaded.file,
    result: c.result,
    status,
    ops,
    ...(choice ? { choice } : {}),
    ...(advisory ? { advisory } : {}),
    message,
  };
}

/**
 * The known mistakes that explain a failed step, by the diagnosis of the case's kind (its role's,
 * src/roles/<role>/role.ts).
 * @param c - the case
 * @param outcome - the step's outcome (only `fail` outcomes are diagnosed)
 * @returns the diagnoses, most specific first; empty when nothing in the catalogue fits
 * @example
 * (
 *   await diagnose(vectorCase('signature.payment-create'), {
 *     op: 'signature.sign',
 *     status: 'pass',
 *     expected: null,
 *     got: null,
 *     message: 'passed',
 *   })
 * ).length // 0
 */
export async function diagnose(c: VectorCase, outcome: OpOutcome): Promise<Diagnosis[]> {
  if (outcome.status !== 'fail') return [];
  const info = KIND_INFO[c.kind] as {
    readonly diagnose: (c: CaseOf<VectorKind>, outcome: OpOutcome) => Diagnosis[] | Promise<Diagnosis[]>;
  };
  return info.diagnose(c as CaseOf<VectorKind>, outcome);
}

/**
 * For a genuine message refused (one bit): the known mistakes that could explain it, by the case's kind.
 * @param c - the case
 * @param outcome - the step's outcome
 * @returns mistake ids; empty when the kind says none or the step is no refusal of a genuine message
 * @example
 * refusalCauses(vectorCase('signature.payment-create'), {
 *   op: 'request.verify',
 *   status: 'fail',
 *   expected: { valid: true },
 *   got: { result: { valid: false } },
 *   message: 'refused',
 * }).includes('no-final-lf') // true
 */
export function refusalCauses(c: VectorCase, outcome: OpOutcome): string[] {
  const info = KIND_INFO[c.kind] as { readonly couldExplain?: (c: CaseOf<VectorKind>, outcome: OpOutcome) => string[] };
  return info.couldExplain?.(c as CaseOf<VectorKind>, outcome) ?? [];
}

/**
 * Every role's pattern over a finished run's cases, in the registry's order.
 * @param cases - the run's case results
 * @param caseOf - the vector case of an id
 * @returns the cases, those a pattern changed copied
 * @example rolePatterns([], () => undefined) // []
 */
export function rolePatterns<R extends PatternCase>(
  cases: readonly R[],
  caseOf: (id: string) => VectorCase | undefined,
): R[] {
  return (ROLES as readonly Role[]).reduce<R[]>((all, role) => role.pattern?.(all, caseOf) ?? all, [...cases]);
}

// --- internal ---

/** The check of a kind, as one that takes any case (the case's kind picks it). */
function checkOf(kind: VectorKind): Check<VectorKind> {
  return KIND_INFO[kind].check as unknown as Check<VectorKind>;
}

/** `not run: signature.content, signature.sign (not offered); passed: request.verify` */
function partialMessage(ops: readonly OpOutcome[], offered: readonly Operation[]): string {
  const skipped = ops.filter((o) => o.status === 'skip');
  const notOffered = skipped.filter((o) => !offered.includes(o.op)).map((o) => o.op);
  const why = [
    ...(notOffered.length > 0 ? [`${notOffered.join(', ')} (not offered)`] : []),
    ...skipped.filter((o) => offered.includes(o.op)).map((o) => `${o.op} (${o.message})`),
  ];
  return `not run: ${why.join(', ')}; passed: ${ops
    .filter((o) => o.status === 'pass')
    .map((o) => o.op)
    .join(', ')}`;
}
