/**
 * The shape of a check (one per vector kind) and the helpers checks share: calling
 * an operation, and judging a yes/no answer against a case's expected result.
 * @module
 */
import type { Operation } from '../protocol/operations.js';
import type { Answer, Json, OperationInput, Subject } from '../subjects/subject.js';
import type { ExpectedResult, VectorCase, VectorKind } from '../vectors/types.js';
import type { CheckContext } from './context.js';
import type { Choice, OpOutcome } from './outcome.js';

/** A check: runs the cases of one vector kind against a subject. */
export interface Check<K extends VectorKind> {
  readonly kind: K;
  /** The operations a case of this kind runs, in order. */
  operations(c: Extract<VectorCase, { kind: K }>): readonly Operation[];
  /** Runs one operation of a case and judges the answer. */
  run(c: Extract<VectorCase, { kind: K }>, op: Operation, subject: Subject, context: CheckContext): Promise<OpOutcome>;
}

/**
 * Declares a check (identity function that fixes the types).
 * @param check - the check
 * @returns the same check
 * @example
 * defineCheck({
 *   kind: 'signature',
 *   operations: () => ['signature.sign'],
 *   run: async () => [],
 * }).kind // 'signature'
 */
export function defineCheck<K extends VectorKind>(check: Check<K>): Check<K> {
  return check;
}

/**
 * Calls an operation, turning a subject that throws into an `error` answer.
 * @param subject - the subject
 * @param op - the operation
 * @param input - the protocol input
 * @param caseId - the case id
 * @returns the answer
 * @example const answer = await callOp(subject, 'signature.sign', input, 'signature.x');
 */
export async function callOp(subject: Subject, op: Operation, input: OperationInput, caseId: string): Promise<Answer> {
  try {
    return await subject.call(op, input, caseId);
  } catch (e) {
    return { failed: { reason: `the implementation threw: ${e instanceof Error ? e.message : String(e)}` } };
  }
}

/**
 * The outcome for answers that are not results: unsupported → skip, failed → error.
 * @param op - the operation
 * @param expected - what the case expects
 * @param answer - the answer
 * @returns an outcome, or undefined when the answer is a result or a rejection
 * @example nonResult('signature.sign', 'x', { unsupported: { reason: 'no' } })?.status // 'skip'
 */
export function nonResult(op: Operation, expected: Json, answer: Answer): OpOutcome | undefined {
  if ('unsupported' in answer)
    return {
      op,
      status: 'skip',
      expected,
      got: answer as unknown as Json,
      message: `unsupported: ${answer.unsupported.reason}`,
    };
  if ('failed' in answer)
    return { op, status: 'error', expected, got: answer as unknown as Json, message: answer.failed.reason };
  return undefined;
}

/**
 * Judges a yes/no operation (verify, validate, parse): `accepted` is what the subject
 * did, compared with the case's result; acceptable cases pass either way and record
 * the choice.
 * @param op - the operation
 * @param result - the case's expected result
 * @param accepted - whether the subject accepted
 * @param got - the subject's answer, for the report
 * @param detail - appended to the message (e.g. the subject's reason)
 * @returns the outcome
 * @example judge('request.verify', 'invalid', true, {valid: true}).status // 'fail'
 */
export function judge(op: Operation, result: ExpectedResult, accepted: boolean, got: Json, detail = ''): OpOutcome {
  const expected: Json = result === 'acceptable' ? 'either' : result === 'valid' ? 'accept' : 'refuse';
  const did = accepted ? 'accepted' : 'refused';
  const tail = detail ? ` (${detail})` : '';
  if (result === 'acceptable') {
    const choice: Choice = accepted ? 'accepted' : 'refused';
    return { op, status: 'pass', expected, got, choice, message: `acceptable case: the implementation ${did}${tail}` };
  }
  const pass = accepted === (result === 'valid');
  return {
    op,
    status: pass ? 'pass' : 'fail',
    expected,
    got,
    message: pass ? `${did} as expected${tail}` : `${did}, but the case is ${result}${tail}`,
  };
}

/**
 * Reads a verify-style answer: `{result: {valid: bool}}` or `rejected` (which counts
 * as not valid: an implementation that raises on a bad signature refuses it).
 * @param op - the operation
 * @param result - the case's expected result
 * @param answer - the subject's answer
 * @returns the outcome
 * @example judgeValid('webhook.verify', 'valid', { result: { valid: true } }).status // 'pass'
 */
export function judgeValid(op: Operation, result: ExpectedResult, answer: Answer): OpOutcome {
  const other = nonResult(op, result, answer);
  if (other) return other;
  const got = answer as unknown as Json;
  if ('rejected' in answer) return judge(op, result, false, got, `rejected: ${answer.rejected.reason}`);
  if (!('result' in answer))
    return { op, status: 'error', expected: result, got, message: 'answer is none of result, rejected, unsupported' };
  const valid = answer.result['valid'];
  if (typeof valid !== 'boolean')
    return { op, status: 'error', expected: result, got, message: 'result has no boolean "valid"' };
  const reason = answer.result['reason'];
  return judge(op, result, valid, got, typeof reason === 'string' && !valid ? `reason: ${reason}` : '');
}
