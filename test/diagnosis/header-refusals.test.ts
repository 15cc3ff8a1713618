/**
 * Header problems inside verify cases: a verifier that accepts a message whose
 * Authorization R8 refuses is told which refusal it missed (the case's
 * `malformed-authorization` problem with `header: <kind>`), for requests, responses,
 * webhooks and redirects alike.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/roles/run-case.js';
import type { RedirectCase, RequestCase, ResponseCase, VerifyExpected, WebhookCase } from '../../src/vectors/types.js';
import { ACCEPTED, BASE, REFUSED, failed } from './_support.js';

const DUPLICATE =
  'V2_SHA256 appId=app_1,sign=00000000000000000000000000000000000000000000000000000000000000aa,sign=00000000000000000000000000000000000000000000000000000000000000bb,timestamp=1,nonce=n1';
const creds = { appId: 'app_1', appSecret: 'sk_test_secret_1' };

function request(problem: VerifyExpected['problem']): RequestCase {
  return {
    ...BASE,
    id: 'request.t',
    kind: 'request',
    result: 'invalid',
    inputs: { ...creds, method: 'POST', url: 'https://pg.example/p', authorization: DUPLICATE, body: '{}' },
    expected: { problem },
  };
}
function response(problem: VerifyExpected['problem']): ResponseCase {
  return {
    ...BASE,
    id: 'response.t',
    kind: 'response',
    result: 'invalid',
    inputs: {
      ...creds,
      method: 'POST',
      url: 'https://pg.example/p',
      status: 200,
      authorization: DUPLICATE,
      body: '{}',
    },
    expected: { problem },
  };
}
function webhook(problem: VerifyExpected['problem']): WebhookCase {
  return {
    ...BASE,
    id: 'webhook.t',
    kind: 'webhook',
    result: 'invalid',
    inputs: { ...creds, notifyUrl: 'https://m.example/n', method: 'POST', authorization: DUPLICATE, body: '{}' },
    expected: { problem },
  };
}
function redirect(problem: VerifyExpected['problem']): RedirectCase {
  const redirectUrl = `https://m.example/r?payment=%7B%7D&authorization=${encodeURIComponent(DUPLICATE)}`;
  return {
    ...BASE,
    id: 'redirect.t',
    kind: 'redirect',
    result: 'invalid',
    inputs: { ...creds, returnUrl: 'https://m.example/r', redirectUrl },
    expected: { problem },
  };
}

const CASES = [
  ['request.verify', request],
  ['response.verify', response],
  ['webhook.verify', webhook],
  ['redirect.verify', redirect],
] as const;

describe.each(CASES)('%s accepting a header R8 refuses', (op, build) => {
  it.each([
    ['duplicate-item', 'accepts-duplicate-item', 'you accept a header with a duplicated item (R8)'],
    ['missing-item', 'accepts-missing-item', 'you accept a header with an item missing (R8)'],
    ['empty-header', 'accepts-empty-header', 'you accept an empty Authorization header (R8)'],
    ['wrong-scheme', 'accepts-wrong-scheme', 'you accept a header whose scheme is not V2_SHA256 (R8)'],
    ['empty-value', 'accepts-empty-value', 'you accept a header with an empty item value (R8)'],
  ])('header: %s is named %s', async (header, mistake, message) => {
    const got = await diagnose(build({ kind: 'malformed-authorization', header }), failed(op, ACCEPTED));
    expect(got).toEqual([{ mistake, message, ref: '§5.3, R8' }]);
  });

  it('without a header kind, or with one the kit has no refusal for, the generic refusal is named', async () => {
    const generic = [
      {
        mistake: 'accepts-malformed-authorization',
        message: 'you accept an Authorization header that R8 refuses',
        ref: '§5.1',
      },
    ];
    expect(await diagnose(build({ kind: 'malformed-authorization' }), failed(op, ACCEPTED))).toEqual(generic);
    expect(
      await diagnose(build({ kind: 'malformed-authorization', header: 'not-strict' }), failed(op, ACCEPTED)),
    ).toEqual(generic);
  });

  it('a refusal is not diagnosed', async () => {
    expect(
      await diagnose(build({ kind: 'malformed-authorization', header: 'duplicate-item' }), failed(op, REFUSED)),
    ).toEqual([]);
  });
});

describe('the refusal of other problems is unchanged', () => {
  it('app-id-mismatch is named with the case readings', async () => {
    const c = { ...request({ kind: 'app-id-mismatch' }), readings: ['R9'] };
    expect(await diagnose(c, failed('request.verify', ACCEPTED))).toEqual([
      {
        mistake: 'accepts-app-id-mismatch',
        message: 'you accept a header whose appId is not your own: its appId is not checked (R9)',
        ref: 'R9',
      },
    ]);
  });

  it('a problem kind the kit has no refusal for gives no diagnosis', async () => {
    expect(await diagnose(request({ kind: 'something-else' }), failed('request.verify', ACCEPTED))).toEqual([]);
  });

  it('an operation that did not fail is not diagnosed', async () => {
    const passed = { ...failed('request.verify', ACCEPTED), status: 'pass' as const };
    expect(await diagnose(request({ kind: 'malformed-authorization', header: 'duplicate-item' }), passed)).toEqual([]);
  });
});
