/**
 * How the gateway check judges upload answers that end before the upload (a refused credentials request, a refused
 * first upload of the reuse case), acceptable size cases, and what a failure names: fixed answers, cases written
 * here, messages written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { runCase } from '../../src/roles/run-case.js';
import type { Answer, Subject } from '../../src/subjects/subject.js';
import type { LoadedCase, VectorCase } from '../../src/vectors/types.js';

const answering = (answer: Answer): Subject => ({
  implementation: { name: 'gw', version: '0', language: 'http' },
  operations: ['gateway.upload'],
  call: async () => answer,
});
const upload = (result: string, flags: string[], inputs: object): LoadedCase => ({
  case: {
    kind: 'gateway',
    id: 'gateway.u',
    comment: 'c',
    spec: ['4.2'],
    readings: [],
    flags: ['GatewayRole', ...flags],
    op: 'gateway.upload',
    result,
    inputs: { body: { filename: 'EVIDENCE.PDF' }, ...inputs },
    expected: {},
  } as unknown as VectorCase,
  file: 'inline.yaml',
});
const credentialsRefused: Answer = {
  result: { stage: 'credentials', status: 400, code: 'INVALID_PARAM', errorMessage: 'filename' },
};

describe('gateway check, uploads', () => {
  it.each([
    [
      'an upper-case extension refused at the credentials request (R13: acceptable)',
      upload('acceptable', ['ExtensionCase'], {}),
      'pass',
      'gateway.upload: acceptable case: the gateway refused the credentials request for "EVIDENCE.PDF", so no ' +
        'upload was made (R13; HTTP 400, code INVALID_PARAM: filename)',
    ],
    [
      'another acceptable case whose credentials are refused: not tried',
      upload('acceptable', ['SizeUnit'], { fileSize: 2097152 }),
      'error',
      'gateway.upload: the credentials request was refused, so the upload was not tried (HTTP 400, code ' +
        'INVALID_PARAM: filename)',
    ],
    [
      'an invalid upload whose credentials are refused: not tried, never passed',
      upload('invalid', ['UploadRuleBroken'], { break: 'no-file-part' }),
      'error',
      'gateway.upload: the credentials request was refused, so the upload was not tried (HTTP 400, code ' +
        'INVALID_PARAM: filename)',
    ],
    [
      'a valid upload whose credentials are refused',
      upload('valid', [], {}),
      'fail',
      'gateway.upload: the credentials request was refused (4.1, 2.1; HTTP 400, code INVALID_PARAM: filename)',
    ],
  ])('%s', async (_, c, status, message) => {
    const o = await runCase(c, answering(credentialsRefused));
    expect([o.status, o.message]).toEqual([status, message]);
  });

  it('the reuse case fails when the first, correct upload is refused', async () => {
    const o = await runCase(
      upload('acceptable', ['UploadAddressChoice'], { break: 'reuse-after-success' }),
      answering({ result: { stage: 'first-upload', status: 403, errorMessage: 'AccessDenied' } }),
    );
    expect([o.status, o.message]).toEqual([
      'fail',
      'gateway.upload: a correct upload on fresh credentials was refused (4.2, 3; HTTP 403: AccessDenied)',
    ]);
  });

  it('an acceptable size case records what was sent', async () => {
    const o = await runCase(
      upload('acceptable', ['SizeUnit'], { fileSize: 2097152 }),
      answering({ result: { status: 400, errorMessage: 'EntityTooLarge' } }),
    );
    expect([o.status, o.choice, o.message]).toEqual([
      'pass',
      'refused',
      'gateway.upload: acceptable case: the upload address refused the upload of "EVIDENCE.PDF", a file of ' +
        '2,097,152 bytes (HTTP 400, errorMessage "EntityTooLarge")',
    ]);
  });

  it('an accepted invalid upload names the rule, from the case when the answer says nothing sent', async () => {
    const o = await runCase(
      upload('invalid', ['UploadRuleBroken'], { break: 'method-put' }),
      answering({ result: { status: 204 } }),
    );
    expect([o.status, o.message]).toEqual([
      'fail',
      'gateway.upload: accepted, but the case is invalid: method-put (4.2: the method is httpMethod) (HTTP 204)',
    ]);
  });
});
