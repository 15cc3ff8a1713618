import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeQueryComponent, queryParameters, verifyRedirect } from '../../src/scheme/redirect.js';
import {
  describeVerifyProblem,
  verifyRequest,
  verifyResponse,
  verifyWebhook,
  type VerifyProblem,
} from '../../src/scheme/verify.js';
import { maskSecret, redact } from '../../src/scheme/mask.js';
import { signEquals } from '../../src/scheme/constant-time.js';

const appId = 'app_9';
const appSecret = 'sk_test_secret_9';
const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
const header = (sign: string, ts = '1717171717000', nonce = 'n-1', id = appId): string =>
  `V2_SHA256 appId=${id},sign=${sign},timestamp=${ts},nonce=${nonce}`;
const url = 'https://pg.example.com/pg/v2/payment/create';
const body = '{"amount":"1.00"}';
const good = sha(`${appId}\n${appSecret}\nPOST\n${url}\n1717171717000\nn-1\n${body}\n`);
const req = (authorization: string | null, extra: object = {}) => ({
  appId,
  appSecret,
  method: 'POST',
  url,
  authorization,
  body,
  ...extra,
});
const kind = (o: { valid: boolean; problem?: VerifyProblem }): string | undefined =>
  o.valid ? undefined : o.problem?.kind;

describe('verifyRequest', () => {
  it('accepts exactly what was signed', () => {
    expect(verifyRequest(req(header(good)))).toMatchObject({ valid: true, items: { appId, sign: good } });
  });
  it.each([
    ['no Authorization', null, 'no-authorization'],
    ['a malformed header', 'V2_SHA256 appId=x', 'malformed-authorization'],
    ['another appId', header(good, undefined, undefined, 'app_other'), 'app-id-mismatch'],
    ['a short sign', header(good.slice(1)), 'malformed-sign'],
    ['a non-hex sign', header(`${good.slice(1)}g`), 'malformed-sign'],
    ['upper-case hex (R7, refused by default)', header(good.toUpperCase()), 'uppercase-sign'],
    ['another timestamp', header(good, '1717171717001'), 'sign-mismatch'],
  ])('refuses %s', (_, authorization, problem) => {
    expect(kind(verifyRequest(req(authorization)))).toBe(problem);
  });
  it('accepts upper-case hex when asked (R7) and refuses tolerated deviations when strict (R8)', () => {
    expect(verifyRequest(req(header(good.toUpperCase())), { acceptUppercaseHex: true }).valid).toBe(true);
    expect(verifyRequest(req(`${header(good)},v=1`)).valid).toBe(true);
    expect(kind(verifyRequest(req(`${header(good)},v=1`), { strictHeader: true }))).toBe('malformed-authorization');
  });
});

describe('verifyResponse (5.4, R9) and verifyWebhook (5.5, R10)', () => {
  it('verifies only a 200', () => {
    expect(verifyResponse({ ...req(header(good)), status: 200 }).valid).toBe(true);
    expect(verifyResponse({ ...req(header(good)), status: 201 })).toMatchObject({
      valid: false,
      problem: { kind: 'status-not-verified', status: 201 },
    });
  });
  it('signs over the notifyUrl as submitted, not the delivery URL', () => {
    const notifyUrl = 'https://shop.example.net/hooks/pg?x=1';
    const s = sha(`${appId}\n${appSecret}\nPOST\n${notifyUrl}\n1717171717000\nn-1\n${body}\n`);
    expect(verifyWebhook({ appId, appSecret, notifyUrl, method: 'POST', authorization: header(s), body }).valid).toBe(
      true,
    );
    expect(
      verifyWebhook({
        appId,
        appSecret,
        notifyUrl: 'http://10.0.0.5:8080/hooks/pg?x=1',
        method: 'POST',
        authorization: header(s),
        body,
      }).valid,
    ).toBe(false);
  });
});

describe('verifyRedirect (5.6, R11)', () => {
  const returnUrl = 'https://shop.example.net/return?lang=en';
  const payment = '{"amount":"1.00","note":"a+b & c=d%"}';
  const s = sha(`${appId}\n${appSecret}\nGET\n${returnUrl}\n1717171717000\nn-1\npayment=${payment}\n`);
  const landed = (p: string, a: string): string =>
    `${returnUrl}&paymentNo=P1&merchantTradeNo=M1&payment=${p}&authorization=${a}#frag`;
  it('decodes payment and authorization, and verifies over payment= plus the decoded value', () => {
    const r = verifyRedirect({
      appId,
      appSecret,
      returnUrl,
      redirectUrl: landed(encodeURIComponent(payment), encodeURIComponent(header(s)).replace(/%20/g, '+')),
    });
    expect(r).toMatchObject({ valid: true, payment });
  });
  it('refuses a missing or doubled parameter, bad encoding, and a tampered payment', () => {
    expect(verifyRedirect({ appId, appSecret, returnUrl, redirectUrl: `${returnUrl}&payment=x` }).valid).toBe(false);
    const twice = verifyRedirect({
      appId,
      appSecret,
      returnUrl,
      redirectUrl: `${returnUrl}&payment=x&authorization=y&payment=z`,
    });
    expect(twice).toMatchObject({
      valid: false,
      problem: { kind: 'redirect-parameter', parameter: 'payment', count: 2 },
    });
    expect(verifyRedirect({ appId, appSecret, returnUrl, redirectUrl: landed('%E9', 'y') })).toMatchObject({
      valid: false,
      problem: { kind: 'redirect-encoding', parameter: 'payment' },
    });
    const tampered = verifyRedirect({
      appId,
      appSecret,
      returnUrl,
      redirectUrl: landed(encodeURIComponent(payment.replace('1.00', '9.00')), encodeURIComponent(header(s))),
    });
    expect(tampered).toMatchObject({ valid: false, problem: { kind: 'sign-mismatch' } });
  });
  it('reads query parameters and decodes components', () => {
    expect(queryParameters('https://m/r')).toEqual([]);
    expect(queryParameters('https://m/r?a=1&&b&c%20d=x%20y#f=g')).toEqual([
      ['a', '1'],
      ['b', ''],
      ['c d', 'x%20y'],
    ]);
    expect(decodeQueryComponent('a+b%26c%C3%A9')).toBe('a b&cé');
    expect(decodeQueryComponent('%ZZ')).toBeUndefined();
  });
});

describe('messages never carry the secret', () => {
  it.each<VerifyProblem>([
    { kind: 'no-authorization' },
    { kind: 'malformed-authorization', header: { kind: 'missing-item', item: 'nonce' } },
    { kind: 'app-id-mismatch', expected: 'a', got: 'b' },
    { kind: 'malformed-sign', reason: 'length' },
    { kind: 'malformed-sign', reason: 'non-hex' },
    { kind: 'uppercase-sign' },
    { kind: 'sign-mismatch' },
    { kind: 'status-not-verified', status: 500 },
    { kind: 'redirect-parameter', parameter: 'payment', count: 0 },
    { kind: 'redirect-encoding', parameter: 'authorization' },
  ])('%j', (problem) => {
    const message = describeVerifyProblem(problem);
    expect(message.length).toBeGreaterThan(5);
    expect(message).not.toContain(appSecret);
  });
});

describe('masking and comparison', () => {
  it('masks a secret to its length and at most two characters', () => {
    expect(maskSecret('sk_live_123456')).toBe('sk************ (14 chars)');
    expect(maskSecret('abcd')).toBe('**** (4 chars)');
    expect(redact(`x ${appSecret} y ${appSecret}`, [appSecret, ''])).toBe(
      'x sk************** (16 chars) y sk************** (16 chars)',
    );
  });
  it('compares signs', () => {
    expect(signEquals('ab', 'ab')).toBe(true);
    expect(signEquals('ab', 'ac')).toBe(false);
    expect(signEquals('ab', 'abc')).toBe(false);
  });
});
