/**
 * How the gateway-role check judges what a gateway answered: each branch with a
 * subject that answers in a fixed way, on cases written here.
 */
import { describe, expect, it } from 'vitest';
import { runCase } from '../../src/roles/run-case.js';
import type { Answer, Subject } from '../../src/subjects/subject.js';
import type { LoadedCase, VectorCase } from '../../src/vectors/types.js';

const answering = (answer: Answer): Subject => ({
  implementation: { name: 'gw', version: '0', language: 'http' },
  operations: ['gateway.generateUploadUrl', 'gateway.createPayment', 'gateway.upload'],
  call: async () => answer,
});
const base = { comment: 'c', spec: ['4.1'], readings: [], flags: ['GatewayRole'], inputs: { body: {} }, expected: {} };
const loaded = (c: object): LoadedCase => ({
  case: { kind: 'gateway', ...base, ...c } as unknown as VectorCase,
  file: 'inline.yaml',
});
const api = (result: string) => loaded({ id: 'gateway.t', op: 'gateway.generateUploadUrl', result });
const upload = (result: string) => loaded({ id: 'gateway.u', op: 'gateway.upload', result });
const acceptable = (change: string) =>
  loaded({ id: 'gateway.a', op: 'gateway.upload', result: 'acceptable', inputs: { body: {}, break: change } });

describe('gateway check', () => {
  it.each([
    [
      'a verified 200 with valid data',
      api('valid'),
      { result: { status: 200, code: 'OK', contentType: 'application/json', verified: true } },
      'pass',
      'gateway.generateUploadUrl: HTTP 200, the response verifies, the data is valid',
    ],
    [
      'a 200 that does not verify',
      api('valid'),
      {
        result: {
          status: 200,
          code: 'OK',
          contentType: 'application/json',
          verified: false,
          verifyProblem: 'sign mismatch',
        },
      },
      'fail',
      'gateway.generateUploadUrl: the response does not verify (5.4): sign mismatch (HTTP 200, code OK)',
    ],
    [
      'a 200 with bad data',
      api('valid'),
      {
        result: {
          status: 200,
          code: 'OK',
          contentType: 'application/json',
          verified: true,
          dataProblem: 'data.uploadNo is not <digits>-<hex> (2.4)',
        },
      },
      'fail',
      'gateway.generateUploadUrl: data is not valid: data.uploadNo is not <digits>-<hex> (2.4) (HTTP 200, code OK)',
    ],
    [
      'a 200 whose code is not OK',
      api('valid'),
      { result: { status: 200, code: 'DENIED', errorMessage: 'no' } },
      'fail',
      'gateway.generateUploadUrl: the envelope code is not OK (2.3: the value OK marks success) (HTTP 200, code DENIED, errorMessage "no")',
    ],
    [
      'a refusal of a valid request',
      api('valid'),
      { result: { status: 401, code: 'UNAUTHORIZED' } },
      'fail',
      'gateway.generateUploadUrl: expected HTTP 200 (HTTP 401, code UNAUTHORIZED)',
    ],
    [
      'a refusal of an invalid request',
      api('invalid'),
      { result: { status: 401, code: 'UNAUTHORIZED' } },
      'pass',
      'gateway.generateUploadUrl: refused as expected (HTTP 401, code UNAUTHORIZED)',
    ],
    [
      'a 200 with a non-OK code for an invalid request (R16)',
      api('invalid'),
      { result: { status: 200, code: 'DENIED' } },
      'pass',
      'gateway.generateUploadUrl: refused as expected (HTTP 200, code DENIED)',
    ],
    [
      'an acceptance of an invalid request',
      api('invalid'),
      { result: { status: 200, code: 'OK', contentType: 'application/json', verified: true } },
      'fail',
      'gateway.generateUploadUrl: accepted, but the case is invalid (HTTP 200, code OK)',
    ],
    ['a 204 upload', upload('valid'), { result: { status: 204 } }, 'pass', 'gateway.upload: uploaded (204)'],
    [
      'a refused upload that should fail',
      upload('invalid'),
      { result: { status: 403, errorMessage: 'AccessDenied' } },
      'pass',
      'gateway.upload: refused as expected (HTTP 403, errorMessage "AccessDenied")',
    ],
    [
      'a request that could not be made',
      api('valid'),
      { rejected: { reason: 'connection refused' } },
      'error',
      'gateway.generateUploadUrl: the request could not be made: connection refused',
    ],
    [
      'an answer without a status',
      upload('valid'),
      { result: {} },
      'error',
      'gateway.upload: the answer has no HTTP status: null',
    ],
    // R16: a 5xx counts as a refusal, with an advisory; for a valid request it fails
    [
      'a 500 to an invalid request',
      api('invalid'),
      { result: { status: 500 } },
      'pass',
      'gateway.generateUploadUrl: refused as expected, but answered with a server error, not a refusal (R16) (HTTP 500)',
    ],
    [
      'a 503 to a valid request',
      api('valid'),
      { result: { status: 503 } },
      'fail',
      'gateway.generateUploadUrl: expected HTTP 200: answered 503 to a genuine message: a server error is a failure (R16) (HTTP 503)',
    ],
    // R14: what an upload address may accept or refuse, the choice and what was changed said
    [
      'a reordered form stored',
      acceptable('fields-reordered'),
      { result: { status: 204 } },
      'pass',
      'gateway.upload: acceptable case: the upload address accepted the reordered form (the formFields entries in another order than received, every one unchanged, the file last; R14) (HTTP 204)',
    ],
    [
      'a reordered form refused',
      acceptable('fields-reordered'),
      { result: { status: 403 } },
      'pass',
      'gateway.upload: acceptable case: the upload address refused the reordered form (the formFields entries in another order than received, every one unchanged, the file last; R14) (HTTP 403)',
    ],
    [
      'an Authorization header ignored',
      acceptable('authorization-header'),
      { result: { status: 204 } },
      'pass',
      "gateway.upload: acceptable case: the upload address accepted the upload carrying the credentials request's Authorization header (R14: never sent; refused or ignored) (HTTP 204)",
    ],
    [
      'a file part type refused with a 500',
      acceptable('type-not-accepted'),
      { result: { status: 500 } },
      'pass',
      'gateway.upload: acceptable case: the upload address refused the file part whose own Content-Type header (image/gif) differs from the contentType requested, the Content-Type form field as issued (R14), answered with a server error, not a refusal (R16) (HTTP 500)',
    ],
  ] as Array<[string, LoadedCase, Answer, string, string]>)('%s', async (_, c, answer, status, message) => {
    const outcome = await runCase(c, answering(answer));
    expect(outcome.status).toBe(status);
    expect(outcome.message).toBe(message);
    const code = (answer as { result?: { status?: number } }).result?.status ?? 0;
    expect(outcome.advisory).toBe(
      code >= 500 && outcome.status === 'pass' ? 'answered with a server error, not a refusal (R16)' : undefined,
    );
    if (c.case.result === 'acceptable') expect(outcome.choice).toBe(code >= 200 && code < 300 ? 'accepted' : 'refused');
  });
});
