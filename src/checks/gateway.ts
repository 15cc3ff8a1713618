/**
 * Gateway-role cases (4.1–4.3, 5, 7; R16): the gateway server under test answers a
 * request the kit sent as the merchant. A valid request must get 200 with a
 * response that verifies and data valid against 2.4 (204 for an upload); an invalid
 * one must be refused — any non-2xx status or an envelope whose code is not OK (R16).
 * The subject is the gateway seen through the kit's reference client
 * (src/subjects/gateway-subject.ts), which answers with what came back.
 * @module
 */
import type { Json } from '../subjects/subject.js';
import { callOp, defineCheck, judge, nonResult } from './check.js';
import type { OpOutcome } from './outcome.js';

/** The check of gateway cases. */
export const gatewayCheck = defineCheck({
  kind: 'gateway',
  operations: (c) => [c.op],
  async run(c, op, subject): Promise<OpOutcome> {
    const answer = await callOp(subject, op, { ...(c.inputs as { [key: string]: Json }) }, c.id);
    const other = nonResult(op, c.result, answer);
    if (other) return other;
    const got = answer as unknown as Json;
    if (!('result' in answer)) return { op, status: 'error', expected: c.result, got, message: `the request could not be made: ${'rejected' in answer ? answer.rejected.reason : ''}` };
    const r = answer.result;
    const status = typeof r['status'] === 'number' ? r['status'] : -1;
    const code = typeof r['code'] === 'string' ? r['code'] : null;
    const accepted = status >= 200 && status < 300 && (code === null || code === 'OK');
    const summary = `HTTP ${status}${code !== null ? `, code ${code}` : ''}${typeof r['errorMessage'] === 'string' ? `, errorMessage ${JSON.stringify(r['errorMessage'])}` : ''}`;
    if (c.result === 'invalid') return judge(op, 'invalid', accepted, got, summary);
    const want = c.expected.status ?? (op === 'gateway.upload' ? 204 : 200);
    const fail = (why: string): OpOutcome => ({ op, status: 'fail', expected: { status: want }, got, message: `${why} (${summary})` });
    if (status !== want) return fail(`expected HTTP ${want}`);
    if (op === 'gateway.upload') return { op, status: 'pass', expected: want, got, message: 'uploaded (204)' };
    if (code !== 'OK') return fail('the envelope code is not OK');
    if (r['verified'] !== true) return fail(`the response does not verify (5.4): ${typeof r['verifyProblem'] === 'string' ? r['verifyProblem'] : 'no reason'}`);
    if (r['dataProblem']) return fail(`data is not valid: ${String(r['dataProblem'])}`);
    return { op, status: 'pass', expected: want, got, message: 'HTTP 200, the response verifies, the data is valid' };
  },
});
