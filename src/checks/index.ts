/**
 * Runs a vector case against a subject: the check of the case's kind runs each of
 * its operations the subject offers; the case passes only when every step ran and
 * passed (a step of an operation not offered makes it partial; see {@link worstStatus}).
 * @module
 */
import type { Operation } from '../protocol/operations.js';
import type { Subject } from '../subjects/subject.js';
import type { LoadedCase, VectorCase, VectorKind } from '../vectors/types.js';
import { authorizationCheck } from './authorization.js';
import type { Check } from './check.js';
import { clientCheck } from './client.js';
import { gatewayCheck } from './gateway.js';
import { merchantCheck } from './merchant.js';
import type { CheckContext } from './context.js';
import { worstStatus, type CaseOutcome, type OpOutcome } from './outcome.js';
import { redirectCheck } from './redirect.js';
import { requestCheck } from './request.js';
import { responseCheck } from './response.js';
import { signatureCheck } from './signature.js';
import { uploadCheck } from './upload.js';
import { webhookCheck } from './webhook.js';

/**
 * The check of each vector kind.
 * @example CHECKS.signature.operations(vectorCase('signature.payment-create')) // ['signature.content', 'signature.sign', 'request.verify']
 */
export const CHECKS: { readonly [K in VectorKind]: Check<K> } = {
  signature: signatureCheck,
  authorization: authorizationCheck,
  request: requestCheck,
  response: responseCheck,
  webhook: webhookCheck,
  redirect: redirectCheck,
  upload: uploadCheck,
  client: clientCheck,
  gateway: gatewayCheck,
  merchant: merchantCheck,
};

/**
 * The operations a case runs.
 * @param c - the case
 * @returns its operations, in order
 * @example caseOperations(vectorCase('signature.payment-create')) // ['signature.content', 'signature.sign', 'request.verify']
 */
export function caseOperations(c: VectorCase): readonly Operation[] {
  return (CHECKS[c.kind] as Check<VectorKind>).operations(c as never);
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
  if (!['valid', 'invalid', 'acceptable'].includes(c.result)) throw new RangeError(`case ${c.id}: unknown result ${String(c.result)}`);
  const check = CHECKS[c.kind] as Check<VectorKind>;
  const ops: OpOutcome[] = [];
  for (const op of check.operations(c as never)) {
    if (!subject.operations.includes(op)) {
      ops.push({ op, status: 'skip', expected: null, got: null, message: `the subject does not offer ${op}` });
      continue;
    }
    ops.push(await check.run(c as never, op, subject, context));
  }
  const status = worstStatus(ops);
  const deciding = ops.find((o) => o.status === status) ?? ops.find((o) => o.status === 'skip') ?? ops[0];
  const choice = ops.find((o) => o.choice)?.choice;
  const advisory = ops.filter((o) => o.advisory).map((o) => o.advisory).join('; ');
  const message = status === 'partial' ? partialMessage(ops, subject.operations) : deciding ? `${deciding.op}: ${deciding.message}` : 'no operations';
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

// --- internal ---

/** `not run: signature.content, signature.sign (not offered); passed: request.verify` */
function partialMessage(ops: readonly OpOutcome[], offered: readonly Operation[]): string {
  const skipped = ops.filter((o) => o.status === 'skip');
  const notOffered = skipped.filter((o) => !offered.includes(o.op)).map((o) => o.op);
  const why = [...(notOffered.length > 0 ? [`${notOffered.join(', ')} (not offered)`] : []), ...skipped.filter((o) => offered.includes(o.op)).map((o) => `${o.op} (${o.message})`)];
  return `not run: ${why.join(', ')}; passed: ${ops.filter((o) => o.status === 'pass').map((o) => o.op).join(', ')}`;
}
