/**
 * How the gateway-role check judges what a gateway answered: each branch with a
 * subject that answers in a fixed way, on cases written here.
 */
import { describe, expect, it } from 'vitest';
import { runCase } from '../../src/checks/index.js';
import type { Answer, Subject } from '../../src/subjects/subject.js';
import type { LoadedCase, VectorCase } from '../../src/vectors/types.js';

const answering = (answer: Answer): Subject => ({
  implementation: { name: 'gw', version: '0', language: 'http' },
  operations: ['gateway.generateUploadUrl', 'gateway.createPayment', 'gateway.upload'],
  call: async () => answer,
});
const base = { comment: 'c', spec: ['4.1'], readings: [], flags: ['GatewayRole'], inputs: { body: {} }, expected: {} };
const loaded = (c: object): LoadedCase => ({ case: { kind: 'gateway', ...base, ...c } as unknown as VectorCase, file: 'inline.yaml' });
const api = (result: string) => loaded({ id: 'gateway.t', op: 'gateway.generateUploadUrl', result });
const upload = (result: string) => loaded({ id: 'gateway.u', op: 'gateway.upload', result });

describe('gateway check', () => {
  it.each([
    ['a verified 200 with valid data', api('valid'), { result: { status: 200, code: 'OK', verified: true } }, 'pass', 'gateway.generateUploadUrl: HTTP 200, the response verifies, the data is valid'],
    ['a 200 that does not verify', api('valid'), { result: { status: 200, code: 'OK', verified: false, verifyProblem: 'sign mismatch' } }, 'fail', 'gateway.generateUploadUrl: the response does not verify (5.4): sign mismatch (HTTP 200, code OK)'],
    ['a 200 with bad data', api('valid'), { result: { status: 200, code: 'OK', verified: true, dataProblem: 'data.uploadNo is not <digits>-<hex> (2.4)' } }, 'fail', 'gateway.generateUploadUrl: data is not valid: data.uploadNo is not <digits>-<hex> (2.4) (HTTP 200, code OK)'],
    ['a 200 whose code is not OK', api('valid'), { result: { status: 200, code: 'DENIED', errorMessage: 'no' } }, 'fail', 'gateway.generateUploadUrl: the envelope code is not OK (HTTP 200, code DENIED, errorMessage "no")'],
    ['a refusal of a valid request', api('valid'), { result: { status: 401, code: 'UNAUTHORIZED' } }, 'fail', 'gateway.generateUploadUrl: expected HTTP 200 (HTTP 401, code UNAUTHORIZED)'],
    ['a refusal of an invalid request', api('invalid'), { result: { status: 401, code: 'UNAUTHORIZED' } }, 'pass', 'gateway.generateUploadUrl: refused as expected (HTTP 401, code UNAUTHORIZED)'],
    ['a 200 with a non-OK code for an invalid request (R16)', api('invalid'), { result: { status: 200, code: 'DENIED' } }, 'pass', 'gateway.generateUploadUrl: refused as expected (HTTP 200, code DENIED)'],
    ['an acceptance of an invalid request', api('invalid'), { result: { status: 200, code: 'OK', verified: true } }, 'fail', 'gateway.generateUploadUrl: accepted, but the case is invalid (HTTP 200, code OK)'],
    ['a 204 upload', upload('valid'), { result: { status: 204 } }, 'pass', 'gateway.upload: uploaded (204)'],
    ['a refused upload that should fail', upload('invalid'), { result: { status: 403, errorMessage: 'AccessDenied' } }, 'pass', 'gateway.upload: refused as expected (HTTP 403, errorMessage "AccessDenied")'],
    ['a request that could not be made', api('valid'), { rejected: { reason: 'connection refused' } }, 'error', 'gateway.generateUploadUrl: the request could not be made: connection refused'],
    ['an answer without a status', upload('valid'), { result: {} }, 'error', 'gateway.upload: the answer has no HTTP status: null'],
  ] as Array<[string, LoadedCase, Answer, string, string]>)('%s', async (_, c, answer, status, message) => {
    const outcome = await runCase(c, answering(answer));
    expect(outcome.status).toBe(status);
    expect(outcome.message).toBe(message);
  });
});
