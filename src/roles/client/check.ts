/**
 * Client-role cases (4.1, 4.2, 5.4; R9, R14, R15): an SDK's client.* operation end
 * to end against the reference gateway playing the case's scenario. A valid case
 * must succeed with the file stored byte-identical; an invalid one must be refused,
 * without an upload when the credentials response does not verify. What the gateway
 * recorded says exactly what the client did wrong.
 * @module
 */
import { bytesEqual, countingBytes, toBase64 } from '../../scheme/bytes.js';
import type { Json, OperationInput } from '../../subjects/subject.js';
import { fileBytes } from '../../vectors/fields.js';
import type { ClientCase } from '../../vectors/types.js';
import { callOp, defineCheck, nonResult } from '../../checks/check.js';
import type { ClientRecord, GatewayView, GivenGateway } from '../../checks/context.js';
import type { Operation } from '../../protocol/operations.js';
import type { Subject } from '../../subjects/subject.js';
import type { OpOutcome } from '../../checks/outcome.js';

/** The check of client cases. */
export const clientCheck = defineCheck({
  kind: 'client',
  operations: (c) => [c.op],
  async run(c, op, subject, context): Promise<OpOutcome> {
    const expected: Json = c.result === 'valid' ? 'succeed' : 'refuse';
    const given = context.givenGateway;
    if (given && runsAgainstGivenGateway(c)) return againstGiven(c, op, subject, given, expected);
    const outcome = await againstKit(c, op, subject, context.gateway, expected);
    // with a gateway given, every client case says where it ran (the reports list both kinds side by side)
    return given ? { ...outcome, message: `against the kit's gateway: ${outcome.message}` } : outcome;
  },
});

/**
 * Whether a client case runs against a gateway given to the run (`run --testee X --gateway URL`) rather than the
 * kit's own: the one rule of it. A case runs there when it is valid and its scenario stages nothing — genuine,
 * canonically written responses, the usual formFields, a fresh uploadUrl — so that any conformant gateway plays it.
 * Every other case needs the kit's gateway: a response tampered with or written oddly on purpose, an expired URL,
 * or a judgement only the kit's record can make (an invalid case must also show that nothing was stored).
 * @param c - the client case
 * @returns true when the case runs against the given gateway
 * @example runsAgainstGivenGateway(vectorCase('client.upload-pdf')) // true
 * @example runsAgainstGivenGateway(vectorCase('client.response-signature-tampered')) // false
 * @example runsAgainstGivenGateway(vectorCase('client.upload-2mib')) // false — R13: a gateway may refuse 2 MiB
 */
export function runsAgainstGivenGateway(c: ClientCase): boolean {
  const s = c.scenario;
  const plainResponse =
    (s.response?.bytes ?? 'compact') === 'compact' && (s.response?.signature ?? 'valid') === 'valid';
  const plainFields =
    s.formFields?.vendor === undefined && !s.formFields?.extra?.length && !s.formFields?.specialValues;
  // R13: a file of 2,000,001 to 2,097,152 bytes may be refused by a conformant gateway (2 MB read as 2,000,000);
  // only the kit's gateway, which accepts it, can tell an SDK that fails it from a gateway that refuses it
  const size = c.op === 'client.upload' ? (c.inputs.fileSize ?? 0) : 0;
  const sizeEitherWay = size > 2_000_000 && size <= 2_097_152;
  return c.result === 'valid' && plainResponse && plainFields && s.upload?.expired !== true && !sizeEitherWay;
}

/**
 * The shape of a storageUri (2.4): `<scheme>://<path>/<generated_name>.<extension>`.
 * @example STORAGE_URI_SHAPE.test('s3://pg-evidence/dispute/20240611/5f0c2e8a41b94d7e.pdf') // true
 */
export const STORAGE_URI_SHAPE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/\s]+(?:\/[^/\s]+)*\/[^/\s.][^/\s]*\.[^/\s.]+$/;

// --- internal ---

/**
 * A plain client case against a gateway the kit does not control. The kit sees none of the exchange, so it judges
 * what the client reports: success means the gateway accepted the client's signed requests (its signature was right
 * for that gateway), the client verified the gateway's responses and the upload got its 204; the result must then
 * have the shape of 2.4 (or a payment's code and paymentNo). A refusal is a failure carrying the client's reason,
 * which names the step and the gateway's answer as the client saw them.
 */
async function againstGiven(
  c: ClientCase,
  op: Operation,
  subject: Subject,
  given: GivenGateway,
  expected: Json,
): Promise<OpOutcome> {
  const where = `against ${given.baseUrl}`;
  const credentials = { baseUrl: given.baseUrl, appId: given.appId, appSecret: given.appSecret };
  const answer = await callOp(subject, op, { ...clientInput(c, credentials), ...credentials }, c.id);
  const other = nonResult(op, expected, answer);
  if (other) return { ...other, message: `${where}: ${other.message}` };
  const got = answer as unknown as Json;
  const fail = (message: string): OpOutcome => ({ op, status: 'fail', expected, got, message: `${where}: ${message}` });
  if (!('result' in answer))
    return fail(
      `refused: ${'rejected' in answer ? answer.rejected.reason : ''} ` +
        '(the kit cannot see this exchange: the reason is what the client said of the step and the answer)',
    );
  const result = answer.result;
  if (c.op === 'client.createPayment') {
    if (c.expected.code !== undefined && result['code'] !== c.expected.code)
      return fail(`the gateway answered code ${JSON.stringify(result['code'])}, expected ${c.expected.code}`);
    if (typeof result['paymentNo'] !== 'string') return fail('no paymentNo in the result');
    return { op, status: 'pass', expected, got, message: `${where}: payment created (the gateway accepted it)` };
  }
  const storageUri = result['storageUri'];
  if (typeof storageUri !== 'string' || typeof result['uploadNo'] !== 'string')
    return fail('the result needs string storageUri and uploadNo');
  if (!STORAGE_URI_SHAPE.test(storageUri))
    return fail(
      `storageUri ${JSON.stringify(storageUri)} is not <scheme>://<path>/<generated_name>.<extension> (2.4): ` +
        'the client returned another field, or this gateway issues another shape',
    );
  return {
    op,
    status: 'pass',
    expected,
    got,
    message:
      `${where}: uploaded (the gateway accepted the signed credentials request, the upload succeeded); ` +
      'what was stored is not visible to the kit',
  };
}

/** The input of a client case's operation, for the gateway at `baseUrl`. */
function clientInput(
  c: ClientCase,
  { baseUrl, appId, appSecret }: { baseUrl: string; appId: string; appSecret: string },
): OperationInput {
  return c.op === 'client.upload'
    ? {
        baseUrl,
        appId,
        appSecret,
        filename: c.inputs.filename,
        contentType: c.inputs.contentType,
        scene: c.inputs.scene,
        fileB64: toBase64(clientFile(c)),
      }
    : { baseUrl, appId, appSecret, payment: c.inputs.payment as Json };
}

/** A client case against the kit's own gateway playing its scenario: what the gateway recorded says the rest. */
async function againstKit(
  c: ClientCase,
  op: Operation,
  subject: Subject,
  gateway: GatewayView | undefined,
  expected: Json,
): Promise<OpOutcome> {
  if (!gateway)
    return {
      op,
      status: 'skip',
      expected,
      got: null,
      message: 'client cases need the reference gateway (the runner starts it)',
    };
  const input = clientInput(c, { baseUrl: gateway.url(c.id), appId: c.inputs.appId, appSecret: c.inputs.appSecret });
  const answer = await callOp(subject, op, input, c.id);
  const other = nonResult(op, expected, answer);
  if (other) return other;
  const got = answer as unknown as Json;
  const record = gateway.record(c.id);
  const succeeded = 'result' in answer;
  const fail = (message: string): OpOutcome => ({ op, status: 'fail', expected, got, message });
  if (c.result === 'invalid') {
    const uploadedAnyway = c.op === 'client.upload' && c.expected.uploaded === false && record.uploads.length > 0;
    if (succeeded) {
      const why = uploadedAnyway ? 'uploaded although the credentials response did not verify' : describeScenario(c);
      return fail(
        `succeeded, but the client must refuse: ${why}${problemOf(record) ? ` (gateway: ${problemOf(record)})` : ''}`,
      );
    }
    if (uploadedAnyway)
      return fail('refused, but only after uploading: a response that does not verify must stop the upload (5.4, 7)');
    if (record.uploads.some((u) => u.stored)) return fail('refused, but the gateway stored a file');
    return {
      op,
      status: 'pass',
      expected,
      got,
      message: `refused as expected (${'rejected' in answer ? answer.rejected.reason : ''})`,
    };
  }
  if (!succeeded)
    return fail(
      `refused${'rejected' in answer ? `: ${answer.rejected.reason}` : ''}` +
        `${problemOf(record) ? `; the gateway saw: ${problemOf(record)}` : ''}`,
    );
  const result = answer.result;
  if (c.op === 'client.createPayment') {
    if (c.expected.code !== undefined && result['code'] !== c.expected.code)
      return fail(`code is ${JSON.stringify(result['code'])}, expected ${JSON.stringify(c.expected.code)}`);
    if (typeof result['paymentNo'] !== 'string') return fail('no paymentNo in the result');
    return { op, status: 'pass', expected, got, message: 'payment created' };
  }
  const storageUri = result['storageUri'];
  if (typeof storageUri !== 'string' || typeof result['uploadNo'] !== 'string')
    return fail('the result needs string storageUri and uploadNo');
  const problem = problemOf(record);
  if (problem) return fail(`succeeded, but the gateway saw: ${problem}`);
  const stored = await gateway.stored(storageUri);
  if (!stored) return fail(`the gateway holds no file at ${storageUri}`);
  if (!bytesEqual(stored, clientFile(c)))
    return fail(`the stored file differs from the file given (${stored.length} bytes stored)`);
  // R14: another order than received is acceptable; what the client chose is recorded
  if (record.uploads.some((u) => u.stored && u.reordered)) {
    return {
      op,
      status: 'pass',
      expected,
      got,
      choice: 'reordered',
      message:
        'uploaded; the stored file is byte-identical; ' +
        'sent the formFields in another order than received (acceptable, R14)',
    };
  }
  return { op, status: 'pass', expected, got, message: 'uploaded; the stored file is byte-identical' };
}

/**
 * The file a client.upload case sends: its text or base64, or `fileSize` generated bytes
 * (byte i is i mod 256).
 * @param c - the case
 * @returns the bytes
 * @example clientFile(vectorCase('client.upload-pdf')).length
 */
export function clientFile(c: ClientCase): Uint8Array {
  if (c.op !== 'client.upload') return new Uint8Array();
  const size = c.inputs.fileSize;
  if (size !== undefined) return countingBytes(size);
  return fileBytes(c.inputs);
}

function problemOf(record: ClientRecord): string | undefined {
  const request = record.requests.find((r) => !r.verified || r.problem);
  if (request) return `${request.path}: ${request.problem ?? 'signature did not verify'}`;
  const upload = record.uploads.find((u) => u.problem);
  return upload ? `upload: ${upload.problem}` : undefined;
}

function describeScenario(c: ClientCase): string {
  const s = c.scenario;
  const parts: string[] = [];
  const response = c.op === 'client.upload' ? 'the credentials response' : 'the payment response';
  if (s.response?.signature && s.response.signature !== 'valid')
    parts.push(`${response}'s signature is ${s.response.signature}`);
  if (s.upload?.expired) parts.push('the uploadUrl has expired');
  return parts.join('; ') || c.comment;
}
