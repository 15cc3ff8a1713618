/**
 * The real protocol inputs of the vector set: every operation the checks send, as they
 * send it, recorded by running the set once against the in-process reference.
 * @module
 */
import {
  PROTOCOL_OPERATIONS,
  createReferenceSubject,
  type Operation,
  type OperationInput,
  type Subject,
  type VectorSet,
} from '../dist/index.js';
import { runCases } from '../dist/runner/run.js';

/** One operation call as the runner makes it. */
export interface Call {
  readonly caseId: string;
  readonly op: Operation;
  readonly input: OperationInput;
}

/**
 * Records every call the checks make over the whole vector set.
 * @param set - the vector set
 * @returns the calls, in the order they were made
 * @example const signs = (await recordCalls(set)).filter((c) => c.op === 'signature.sign');
 */
export async function recordCalls(set: VectorSet): Promise<Call[]> {
  const reference = createReferenceSubject();
  const calls: Call[] = [];
  const recorder: Subject = {
    implementation: reference.implementation,
    operations: reference.operations.filter((op) => (PROTOCOL_OPERATIONS as readonly string[]).includes(op)),
    call(op, input, caseId) {
      calls.push({ caseId, op, input });
      return reference.call(op, input, caseId);
    },
  };
  await runCases({ set, subject: recorder, target: { kind: 'reference', description: 'recorder' }, concurrency: 1 });
  return calls;
}

/**
 * Repeats a list until it has at least `n` entries (whole copies).
 * @param items - the list, not empty
 * @param n - the least length
 * @returns the repeated list
 * @throws {RangeError} when the list is empty
 * @example repeatTo([1, 2], 5) // [1, 2, 1, 2, 1, 2]
 */
export function repeatTo<T>(items: readonly T[], n: number): T[] {
  if (items.length === 0) throw new RangeError('repeatTo: nothing to repeat');
  const out: T[] = [];
  while (out.length < n) out.push(...items);
  return out;
}
