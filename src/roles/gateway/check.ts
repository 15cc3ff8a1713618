/**
 * Gateway-role cases (4.1–4.3, 5, 7; R14, R16): the gateway server under test answers a
 * request the kit sent as the merchant. A valid request must get 200 with a
 * response that verifies and data valid against 2.4 (204 for an upload); an invalid
 * one must be refused — any non-2xx status or an envelope whose code is not OK (R16);
 * an acceptable one (an upload R14 lets an upload address accept or refuse) passes
 * either way, the choice recorded; an R12 case (a replay, a day-old timestamp) accepted
 * passes with an advisory. The 200 answer to a valid credentials request must also carry
 * Content-Type application/json (4.1, parameters allowed) and, for either operation,
 * errorMessage absent or null (2.3, 7); 2.4's formFields Content-Type must equal the
 * contentType requested (subject.ts). A 5xx counts as a refusal, with an advisory, and fails
 * a valid request ({@link judgeAnswer}, the rule fuzz and certification use too).
 * The subject is the gateway seen through the kit's reference client
 * (src/subjects/gateway-subject.ts), which answers with what came back.
 * @module
 */
import { judgeAnswer } from '../../refusal.js';
import type { Json } from '../../subjects/subject.js';
import type { GatewayCase, GatewayMutation, UploadBreak } from '../../vectors/types.js';
import { callOp, defineCheck, nonResult } from '../../checks/check.js';
import type { OpOutcome } from '../../checks/outcome.js';
import { genuineAnswerProblem, type GatewayApiOperation } from './answer.js';

/** The check of gateway cases. */
export const gatewayCheck = defineCheck({
  kind: 'gateway',
  operations: (c) => [c.op],
  async run(c, op, subject): Promise<OpOutcome> {
    const answer = await callOp(subject, op, { ...(c.inputs as { [key: string]: Json }) }, c.id);
    const other = nonResult(op, c.result, answer);
    if (other) return other;
    const got = answer as unknown as Json;
    if (!('result' in answer))
      return {
        op,
        status: 'error',
        expected: c.result,
        got,
        message: `the request could not be made: ${'rejected' in answer ? answer.rejected.reason : ''}`,
      };
    const r = answer.result;
    const status = r['status'];
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)
      return {
        op,
        status: 'error',
        expected: c.result,
        got,
        message: `the answer has no HTTP status: ${JSON.stringify(status ?? null)}`,
      };
    const code = typeof r['code'] === 'string' ? r['code'] : null;
    const staged = op === 'gateway.upload' ? uploadStage(c, op, r, got) : undefined;
    if (staged) return staged;
    const accepting = status >= 200 && status < 300 && (code === null || code === 'OK');
    const codePart = code !== null ? `, code ${code}` : '';
    const errorMessagePart =
      typeof r['errorMessage'] === 'string' ? `, errorMessage ${JSON.stringify(r['errorMessage'])}` : '';
    const summary = `HTTP ${status}${codePart}${errorMessagePart}`;
    if (c.result !== 'valid') {
      const expected: Json = c.result === 'acceptable' ? 'either' : 'refuse';
      const j = judgeAnswer(c.result === 'acceptable' ? 'either' : 'refuse', status, accepting);
      const advisory = j.advisory ? { advisory: j.advisory } : {};
      if (!j.ok) {
        const broke = op === 'gateway.upload' ? brokenRule(c, r) : '';
        return { op, status: 'fail', expected, got, message: `accepted, but the case is invalid${broke} (${summary})` };
      }
      if (c.result === 'acceptable') {
        const what = acceptableWhat(c);
        const answerer = op === 'gateway.upload' ? 'upload address' : 'gateway';
        const serverErrorPart = j.serverError ? `, ${j.advisory}` : '';
        const replay = c.inputs.mutate ? REPLAYS[c.inputs.mutate] : undefined;
        // R12: accepting is no failure, but the report notes it
        const replayAdvisory = replay && j.counted === 'accepted' ? { advisory: replay } : {};
        return {
          op,
          status: 'pass',
          expected,
          got,
          choice: j.counted,
          ...advisory,
          ...replayAdvisory,
          message: `acceptable case: the ${answerer} ${j.counted} ${what}${serverErrorPart} (${summary})`,
        };
      }
      return {
        op,
        status: 'pass',
        expected,
        got,
        ...advisory,
        message: `refused as expected${j.serverError ? `, but ${j.advisory}` : ''} (${summary})`,
      };
    }
    const want = c.expected.status ?? (op === 'gateway.upload' ? 204 : 200);
    const fail = (why: string): OpOutcome => ({
      op,
      status: 'fail',
      expected: { status: want },
      got,
      message: `${why} (${summary})`,
    });
    const problem = genuineAnswerProblem(op as GatewayApiOperation | 'gateway.upload', r, want);
    if (problem !== undefined) return fail(problem);
    if (op === 'gateway.upload') return { op, status: 'pass', expected: want, got, message: 'uploaded (204)' };
    return { op, status: 'pass', expected: want, got, message: 'HTTP 200, the response verifies, the data is valid' };
  },
});

// --- internal ---

/** The R12 cases and the advisory an acceptance of each carries ("not given: no implementation fails …"). */
const REPLAYS: Partial<Record<GatewayMutation, string>> = {
  replay:
    'the gateway accepted a request sent again with the same timestamp and nonce (R12: not given, so no ' +
    'failure; a replayed request is served)',
  'stale-timestamp':
    'the gateway accepted a request whose timestamp is a day old (R12: clock skew not given, so no failure; an ' +
    'old captured request is served)',
};

/** What an acceptable upload changed, in the words of the report ("the upload address refused <this>"). */
const ACCEPTABLE_UPLOADS: Partial<Record<UploadBreak, string>> = {
  'fields-reordered':
    'the reordered form (the formFields entries in another order than received, every one unchanged, the file ' +
    'last; R14)',
  'type-not-accepted':
    'the file part whose own Content-Type header (image/gif) differs from the contentType requested, the ' +
    'Content-Type form field as issued (R14)',
  'authorization-header':
    "the upload carrying the credentials request's Authorization header (R14: never sent; refused or ignored)",
  'filename-differs':
    'the file part whose filename differs from the one requested (4.2 binds it in the credentials request; the ' +
    'policy does not, and the stored object is named by the key)',
  'field-repeated': 'the form carrying the key entry twice with the same value (nothing the policy binds differs)',
  'reuse-after-success':
    'a second correct upload on credentials already used for a 204 (3: "not yet used successfully" ends only the ' +
    'expiry; 2.4: valid for 10 minutes)',
};

/** What an acceptable case sent, in the words of the report. */
function acceptableWhat(c: GatewayCase): string {
  if (c.op !== 'gateway.upload')
    return c.inputs.mutate && REPLAYS[c.inputs.mutate] ? `the request (${c.inputs.mutate})` : 'the request';
  if (c.inputs.break) return ACCEPTABLE_UPLOADS[c.inputs.break] ?? 'the upload';
  const size = c.inputs.fileSize ?? 1024;
  const name = JSON.stringify(String(c.inputs.body?.['filename']));
  return `the upload of ${name}, a file of ${size.toLocaleString('en-US')} bytes`;
}

/**
 * An upload case that ended before its upload: the credentials request refused (acceptable only where the readings
 * let the gateway refuse it too, R13 upper-case extension), or the first upload of a reuse case refused.
 */
function uploadStage(
  c: GatewayCase,
  op: 'gateway.upload',
  r: { [key: string]: Json },
  got: Json,
): OpOutcome | undefined {
  const stage = r['stage'];
  if (stage !== 'credentials' && stage !== 'first-upload') return undefined;
  const codePart = typeof r['code'] === 'string' ? `, code ${r['code']}` : '';
  const summary = `HTTP ${String(r['status'])}${codePart}: ${String(r['errorMessage'] ?? '')}`;
  if (stage === 'first-upload')
    return {
      op,
      status: 'fail',
      expected: 204,
      got,
      message: `a correct upload on fresh credentials was refused (4.2, 3; ${summary})`,
    };
  // only R13's upper-case extension lets the gateway refuse the credentials request itself
  if (c.result === 'acceptable' && c.flags.includes('ExtensionCase'))
    return {
      op,
      status: 'pass',
      expected: 'either',
      got,
      choice: 'refused',
      message:
        `acceptable case: the gateway refused the credentials request for ` +
        `${JSON.stringify(String(c.inputs.body?.['filename']))}, so no upload was made (R13; ${summary})`,
    };
  if (c.result === 'valid')
    return {
      op,
      status: 'fail',
      expected: 204,
      got,
      message: `the credentials request was refused (4.1, 2.1; ${summary})`,
    };
  return {
    op,
    status: 'error',
    expected: c.result === 'acceptable' ? 'either' : 'refuse',
    got,
    message: `the credentials request was refused, so the upload was not tried (${summary})`,
  };
}

/**
 * The rule an invalid upload broke, for the message of a failure: ": <what was changed> (<the rule>)", so a report
 * says which rule the address let through.
 */
function brokenRule(c: GatewayCase, r: { [key: string]: Json }): string {
  const b = c.inputs.break;
  if (b === undefined) return '';
  const sent = r['sent'];
  const changed =
    typeof sent === 'object' && sent !== null && !Array.isArray(sent) && typeof sent['changed'] === 'string'
      ? sent['changed']
      : b;
  return `: ${changed} (${uploadRuleOf(b)})`;
}

function uploadRuleOf(b: UploadBreak): string {
  if (b === 'over-size') return '2.2, 8: at most 2 MB; R13: 2,097,152 bytes';
  if (b === 'no-file-part' || b === 'two-file-parts') return '4.2: one part named file';
  if (b === 'file-named-upload' || b === 'file-named-File') return '4.2: the file part is named file';
  if (b === 'file-not-last' || b === 'text-after-file' || b === 'entry-after-file')
    return '4.2, 7: the file part is last, else the upload fails';
  if (b === 'urlencoded-body' || b === 'raw-file-body') return '4.2: a multipart/form-data body';
  if (b === 'method-put') return '4.2: the method is httpMethod';
  if (b === 'address-not-issued') return '4.2: the address is the uploadUrl issued';
  if (b === 'type-not-accepted') return '4.2: the file part carries the requested content type';
  if (b === 'field-added' || b === 'key-repeated-changed')
    return '4.2: the formFields entries and no other parts (R14)';
  return '4.2, 7: every formFields entry, none omitted or altered, else the upload fails';
}
