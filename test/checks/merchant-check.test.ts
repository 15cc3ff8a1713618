/**
 * The merchant check's judgement: what the merchant did with a call (accepted, refused, a 5xx,
 * no answer) against what the case expects (accept, refuse, either, anything). A crash or a
 * silence is never a refusal; an advisory case never fails; the choice of an acceptable or
 * advisory case is recorded. The subject here answers what a merchant subject would have; the
 * subject itself is tested against real merchants (test/certify/).
 */
import { describe, expect, it } from 'vitest';
import { merchantCheck } from '../../src/roles/merchant/check.js';
import type { HttpCall } from '../../src/roles/merchant/as-gateway/call.js';
import {
  acceptanceProblem,
  acceptanceWords,
  endpointOf,
  type AcceptanceRule,
} from '../../src/roles/merchant/as-gateway/acceptance.js';
import { handlingOf } from '../../src/roles/merchant/as-gateway/handling.js';
import type { SendOutcome } from '../../src/roles/merchant/as-gateway/send.js';
import type { Answer, Json, Subject } from '../../src/subjects/subject.js';
import type { MerchantCase } from '../../src/vectors/types.js';

const call: HttpCall = {
  method: 'POST',
  url: 'http://127.0.0.1:9/n',
  headers: [['authorization', 'V2_SHA256 …']],
  body: '{}',
};
const ok: SendOutcome = { kind: 'response', status: 200, body: 'SUCCESS', ms: 1 };
const no: SendOutcome = { kind: 'response', status: 401, body: 'FAIL', ms: 1 };
const crash: SendOutcome = { kind: 'response', status: 500, body: 'boom', ms: 1 };
const silent: SendOutcome = { kind: 'error', error: 'timeout', message: 'no complete answer within 40 ms', ms: 40 };
const reset: SendOutcome = { kind: 'error', error: 'reset', message: 'other side closed', ms: 2 };

function subjectAnswering(
  outcome: SendOutcome | Answer,
  readings: 'accept' | 'refuse' | 'acceptable',
  rule: AcceptanceRule = {},
): Subject {
  return {
    implementation: { name: 'stub', version: '0', language: 'http' },
    operations: ['merchant.webhook', 'merchant.redirect'],
    call: async (op) => {
      const endpoint = endpointOf(op as 'merchant.webhook' | 'merchant.redirect');
      return 'kind' in outcome
        ? {
            result: {
              call,
              outcome,
              handling: handlingOf(outcome, endpoint, rule, 'https://shop.example/return?x=1'),
              readings,
              accepting: acceptanceWords(endpoint, rule),
            } as unknown as { [key: string]: Json },
          }
        : outcome;
    },
  };
}

const base = {
  id: 'merchant.webhook.t',
  kind: 'merchant',
  comment: 'c',
  spec: ['5.5'],
  readings: [],
  flags: ['MerchantRole'],
  requirement: 'webhook.valid',
  op: 'merchant.webhook',
  inputs: {},
  expected: {},
} as const;
const caseOf = (result: MerchantCase['result'], advisory = false): MerchantCase =>
  ({ ...base, result, ...(advisory ? { advisory: true as const } : {}) }) as MerchantCase;
const readingsOf = (c: MerchantCase) =>
  c.result === 'valid' ? 'accept' : c.result === 'invalid' ? 'refuse' : 'acceptable';

describe('the merchant check', () => {
  it.each([
    // case, what came back, status, words, choice
    ['valid', ok, 'pass', /^accepted: status 200/, undefined],
    ['valid', no, 'fail', /refused: status 401.*; must be accepted \(any 2xx\)$/, undefined],
    [
      'valid',
      crash,
      'fail',
      /answered 5xx \(server error\): status 500, body "boom"; must be accepted \(any 2xx\) — answered 500 to a genuine message: a server error is a failure \(R16\)$/,
      undefined,
    ],
    ['valid', silent, 'error', /no answer within the timeout.*must be accepted/, undefined],
    ['invalid', no, 'pass', /^refused: status 401/, undefined],
    ['invalid', ok, 'fail', /accepted: status 200.*; must be refused \(accepted means any 2xx\)$/, undefined],
    // R16: a 5xx counts as a refusal, reported as an advisory
    [
      'invalid',
      crash,
      'pass',
      /^answered 5xx \(server error\): status 500, body "boom"; answered with a server error, not a refusal \(R16\)$/,
      undefined,
    ],
    ['invalid', reset, 'error', /connection reset.*must be refused$/, undefined],
    ['acceptable', ok, 'pass', /either is acceptable; the merchant accepted it/, 'accepted'],
    ['acceptable', no, 'pass', /either is acceptable; the merchant refused it/, 'refused'],
    [
      'acceptable',
      crash,
      'pass',
      /either is acceptable; the merchant refused it; answered with a server error, not a refusal \(R16\)/,
      'refused',
    ],
  ] as const)('a %s case answered %j: %s', async (result, outcome, status, words, choice) => {
    const c = caseOf(result);
    const o = await merchantCheck.run(c, 'merchant.webhook', subjectAnswering(outcome, readingsOf(c)), {});
    expect(o.status).toBe(status);
    expect(o.message).toMatch(words);
    expect(o.choice).toBe(choice);
    // results.json's `expected` keeps its words (a contract; CONTRIBUTING's Words): `either` for an acceptable case
    expect(o.expected).toBe(result === 'valid' ? 'accept' : result === 'invalid' ? 'refuse' : 'either');
    // the advisory is carried as data (reports show it) exactly when a 5xx counted as a refusal
    expect(o.advisory).toBe(
      outcome === crash && result !== 'valid' ? 'answered with a server error, not a refusal (R16)' : undefined,
    );
  });

  it('an advisory case passes whatever the merchant answered, saying what; no answer at all is an error, not a pass', async () => {
    for (const [outcome, choice] of [
      [ok, 'accepted'],
      [no, 'refused'],
      [crash, undefined],
    ] as const) {
      const o = await merchantCheck.run(
        caseOf('acceptable', true),
        'merchant.webhook',
        subjectAnswering(outcome, 'accept'),
        {},
      );
      expect([o.status, o.choice, o.expected]).toEqual(['pass', choice, 'anything']);
      expect(o.message).toMatch(/^advisory: /);
    }
    for (const outcome of [silent, reset]) {
      const o = await merchantCheck.run(
        caseOf('acceptable', true),
        'merchant.webhook',
        subjectAnswering(outcome, 'accept'),
        {},
      );
      expect(o.status).toBe('error');
      expect(o.message).toMatch(/^advisory, but no answer to report: /);
    }
  });

  it('with --accept-body, a 2xx with another body is a refusal, and the message says what accepting means', async () => {
    const o = await merchantCheck.run(
      caseOf('valid'),
      'merchant.webhook',
      subjectAnswering({ kind: 'response', status: 200, body: 'OK', ms: 1 }, 'accept', { acceptBody: 'SUCCESS' }),
      {},
    );
    expect(o.status).toBe('fail');
    expect(o.message).toMatch(/refused: status 200, body "OK"; must be accepted \(a 2xx with body "SUCCESS"\)/);
  });

  it("--accept-body is the notify endpoint's: the return endpoint is a page, a 2xx or 3xx accepted, a 4xx refused", async () => {
    const redirect = { ...caseOf('valid'), op: 'merchant.redirect' } as MerchantCase;
    const page: SendOutcome = { kind: 'response', status: 200, body: '<h1>Thank you</h1>', ms: 1 };
    const found: SendOutcome = { kind: 'response', status: 302, body: '', location: '/orders/7', ms: 1 };
    for (const outcome of [page, found])
      expect(
        (
          await merchantCheck.run(
            redirect,
            'merchant.redirect',
            subjectAnswering(outcome, 'accept', { acceptBody: 'SUCCESS' }),
            {},
          )
        ).status,
      ).toBe('pass');
    expect(
      (await merchantCheck.run(redirect, 'merchant.redirect', subjectAnswering(found, 'accept'), {})).message,
    ).toBe('accepted: status 302, Location "/orders/7"');
    const o = await merchantCheck.run(
      redirect,
      'merchant.redirect',
      subjectAnswering(no, 'accept', { acceptBody: 'SUCCESS' }),
      {},
    );
    expect(o.message).toMatch(/refused: status 401, body "FAIL"; must be accepted \(a 2xx or 3xx\)$/);
  });

  it.each([
    // the answer, the rule, accepted at the return endpoint
    [
      { status: 200, body: '<p>Payment could not be verified</p>' },
      { returnRefusalBody: 'could not be verified' },
      false,
    ],
    [{ status: 200, body: '<p>Thank you</p>' }, { returnRefusalBody: 'could not be verified' }, true],
    [{ status: 302, body: '', location: '/pay/failed?order=7' }, { returnRefusalLocation: '/pay/failed' }, false],
    [
      { status: 302, body: '', location: 'https://shop.example/pay/failed' },
      { returnRefusalLocation: '/pay/failed' },
      false,
    ],
    [
      { status: 303, body: '', location: '/pay/failed' },
      { returnRefusalLocation: 'https://shop.example/pay/failed' },
      false,
    ],
    [{ status: 302, body: '', location: '/pay/done' }, { returnRefusalLocation: '/pay/failed' }, true],
    [
      { status: 302, body: '', location: 'https://evil.example/pay/failed' },
      { returnRefusalLocation: 'https://shop.example/pay/failed' },
      true,
    ],
    [{ status: 200, body: '', location: '/pay/failed' }, { returnRefusalLocation: '/pay/failed' }, true],
    [{ status: 404, body: 'no' }, {}, false],
  ] as const)('the return endpoint answering %j with %j: accepted %s', async (answer, rule, accepted) => {
    const redirect = { ...caseOf('invalid'), op: 'merchant.redirect' } as MerchantCase;
    const o = await merchantCheck.run(
      redirect,
      'merchant.redirect',
      subjectAnswering({ kind: 'response', ms: 1, ...answer }, 'refuse', rule),
      {},
    );
    expect(o.status).toBe(accepted ? 'fail' : 'pass');
    if (accepted) expect(o.message).toContain(`must be refused (accepted means ${acceptanceWords('return', rule)})`);
  });

  it.each([
    [{ returnRefusalBody: '  ' }, '--return-refusal-body needs a text the return page shows only when it refuses'],
    [
      { returnRefusalLocation: 'failed' },
      '--return-refusal-location must be an http(s):// URL or a path starting with "/"',
    ],
    [
      { returnRefusalLocation: '//evil.example/x' },
      '--return-refusal-location must be an http(s):// URL or a path starting with "/"',
    ],
    [{ returnRefusalLocation: '/pay#failed' }, '--return-refusal-location must not have a fragment'],
  ] as const)('%j is refused: %s', (rule, problem) => {
    expect(acceptanceProblem(rule)).toContain(problem);
    expect(
      acceptanceProblem({
        acceptBody: 'SUCCESS',
        returnRefusalBody: 'not verified',
        returnRefusalLocation: '/pay/failed',
      }),
    ).toBeUndefined();
  });

  it('a case the readings contradict is an error naming the kit bug; a call not applicable is skipped; a subject that throws is an error', async () => {
    const contradicted = await merchantCheck.run(
      caseOf('valid'),
      'merchant.webhook',
      subjectAnswering(ok, 'refuse'),
      {},
    );
    expect(contradicted.status).toBe('error');
    expect(contradicted.message).toMatch(
      /a kit bug, please report it: the case expects accept, but the readings \(R7–R11\) allow refuse/,
    );
    const na = await merchantCheck.run(
      caseOf('invalid'),
      'merchant.webhook',
      subjectAnswering({ unsupported: { reason: 'not applicable: the delivery URL is the notifyUrl' } }, 'refuse'),
      {},
    );
    expect([na.status, na.message]).toEqual(['skip', 'unsupported: not applicable: the delivery URL is the notifyUrl']);
    const thrower: Subject = {
      ...subjectAnswering(ok, 'accept'),
      call: async () => {
        throw new Error('socket gone');
      },
    };
    const thrown = await merchantCheck.run(caseOf('valid'), 'merchant.webhook', thrower, {});
    expect([thrown.status, thrown.message]).toEqual(['error', 'the implementation threw: socket gone']);
  });
});
