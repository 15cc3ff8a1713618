/**
 * Redirects (§5.6, R11): a verifier that decodes the query with decodeURIComponent
 * alone keeps "+" where the query means a space, in the payment or in the nonce of the
 * authorization value. The signs here are made with node:crypto over contents written
 * out by hand.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/roles/run-case.js';
import type { RedirectCase } from '../../src/vectors/types.js';
import { BASE, failed, sha } from './_support.js';

const RETURN_URL = 'https://shop.example/return?order=7';
/** The payment value as the query carries it: a space written "+", a "+" written %2B. */
const RAW_PAYMENT = '%7B%22attach%22%3A%22x+y%22%2C%22offset%22%3A%22%2B08%3A00%22%7D';
const PAYMENT_DECODED = '{"attach":"x y","offset":"+08:00"}';
const PAYMENT_PLUS_KEPT = '{"attach":"x+y","offset":"+08:00"}';
const TS = '1720400000404';

const content = (nonce: string, payment: string): string =>
  `app_r1\nsk_test_redirect_secret\nGET\n${RETURN_URL}\n${TS}\n${nonce}\npayment=${payment}\n`;

/** A redirect whose authorization carries `sign`; `nonceRaw` is written into the query as it stands. */
function redirect(sign: string, nonceRaw: string, result: RedirectCase['result'] = 'invalid'): RedirectCase {
  const auth = `${encodeURIComponent(`V2_SHA256 appId=app_r1,sign=${sign},timestamp=${TS},nonce=`)}${nonceRaw}`;
  return {
    ...BASE,
    id: 'redirect.t',
    kind: 'redirect',
    result,
    inputs: {
      appId: 'app_r1',
      appSecret: 'sk_test_redirect_secret',
      returnUrl: RETURN_URL,
      redirectUrl: `${RETURN_URL}&payment=${RAW_PAYMENT}&authorization=${auth}`,
    },
    expected: result === 'invalid' ? { problem: { kind: 'sign-mismatch' } } : { payment: PAYMENT_DECODED },
  };
}

const accepted = { result: { valid: true, payment: PAYMENT_DECODED } };
const PAYMENT_MESSAGE =
  'you accept the sign of the content in which the payment value was decoded with decodeURIComponent alone: "+" stays "+" where the query means a space';
const NONCE_MESSAGE =
  'you accept the sign of the content in which the authorization value was decoded with decodeURIComponent alone: the nonce keeps "+" where the query means a space';

describe('a redirect verifier that keeps "+"', () => {
  it('in the payment: accepts the sign over the payment with "+" kept', async () => {
    const c = redirect(sha(content('n1', PAYMENT_PLUS_KEPT)), 'n1');
    expect(await diagnose(c, failed('redirect.verify', accepted))).toEqual([
      { mistake: 'payment-plus-kept', message: PAYMENT_MESSAGE, ref: 'R11' },
    ]);
  });

  it('in the nonce: accepts the sign over the nonce with "+" kept (the payment decoded right)', async () => {
    const c = redirect(sha(content('Zm9v+YmFy', PAYMENT_DECODED)), 'Zm9v+YmFy');
    expect(await diagnose(c, failed('redirect.verify', accepted))).toEqual([
      { mistake: 'authorization-plus-kept', message: NONCE_MESSAGE, ref: 'R6, R11' },
    ]);
  });

  it('in both: names both', async () => {
    const c = redirect(sha(content('Zm9v+YmFy', PAYMENT_PLUS_KEPT)), 'Zm9v+YmFy');
    expect((await diagnose(c, failed('redirect.verify', accepted))).map((d) => d.mistake)).toEqual([
      'payment-plus-kept',
      'authorization-plus-kept',
    ]);
  });

  it('a sign over neither falls back to the refusal the case expected', async () => {
    const c = redirect(sha('something else entirely'), 'Zm9v+YmFy');
    expect(await diagnose(c, failed('redirect.verify', accepted))).toEqual([
      { mistake: 'accepts-sign-mismatch', message: 'you accept a sign that does not match the content', ref: '§5.1' },
    ]);
  });

  it('the other redirect variants are still found: the payment still encoded, the returnUrl without its query, POST', async () => {
    const encoded = redirect(sha(content('n1', RAW_PAYMENT)), 'n1');
    expect((await diagnose(encoded, failed('redirect.verify', accepted))).map((d) => d.mistake)).toEqual([
      'payment-encoded',
    ]);
    const withoutQuery = redirect(sha(content('n1', PAYMENT_DECODED).replace('?order=7', '')), 'n1');
    expect((await diagnose(withoutQuery, failed('redirect.verify', accepted))).map((d) => d.mistake)).toEqual([
      'returnurl-without-query',
    ]);
    const post = redirect(sha(content('n1', PAYMENT_DECODED).replace('\nGET\n', '\nPOST\n')), 'n1');
    expect((await diagnose(post, failed('redirect.verify', accepted))).map((d) => d.mistake)).toEqual([
      'redirect-method',
    ]);
  });

  it('a payment that is not valid percent-encoded UTF-8 is tried as it stands', async () => {
    const c = redirect(sha(content('n1', PAYMENT_PLUS_KEPT)), 'n1');
    const bad = { ...c, inputs: { ...c.inputs, redirectUrl: c.inputs.redirectUrl.replace(RAW_PAYMENT, '%E9%7B%7D') } };
    expect((await diagnose(bad, failed('redirect.verify', accepted))).map((d) => d.mistake)).toEqual([
      'accepts-sign-mismatch',
    ]);
  });

  it('a refusal is one bit: not diagnosed', async () => {
    const c = redirect(sha(content('n1', PAYMENT_PLUS_KEPT)), 'n1');
    expect(await diagnose(c, failed('redirect.verify', { result: { valid: false, payment: null } }))).toEqual([]);
  });
});

describe('the payment a verifier returns for a genuine redirect', () => {
  const genuine = redirect(sha(content('n1', PAYMENT_DECODED)), 'n1', 'valid');

  it('decoded with decodeURIComponent alone: plus-not-space', async () => {
    expect(
      await diagnose(genuine, failed('redirect.verify', { result: { valid: true, payment: PAYMENT_PLUS_KEPT } })),
    ).toEqual([
      {
        mistake: 'plus-not-space',
        message:
          'your payment is the value decoded with decodeURIComponent alone, in which "+" stays "+" where the query means a space',
        ref: 'R11',
      },
    ]);
  });

  it('not decoded at all: payment-not-decoded', async () => {
    expect(
      await diagnose(genuine, failed('redirect.verify', { result: { valid: true, payment: RAW_PAYMENT } })),
    ).toEqual([
      {
        mistake: 'payment-not-decoded',
        message:
          'your payment is the query value as it stands, in which nothing was decoded (percent-decoding as UTF-8, "+" as space)',
        ref: 'R11',
      },
    ]);
  });

  it('anything else: no diagnosis', async () => {
    expect(await diagnose(genuine, failed('redirect.verify', { result: { valid: true, payment: '{}' } }))).toEqual([]);
    expect(await diagnose(genuine, failed('redirect.verify', { result: { valid: true } }))).toEqual([]);
  });
});

describe('a redirect verifier that reads the query otherwise (R11)', () => {
  it('the landed URL, its authorization parameter taken out, as part 4: landed-url', async () => {
    const landed = `https://shop.example/return?order=7&payment=${RAW_PAYMENT}`;
    const c = redirect(
      sha(`app_r1\nsk_test_redirect_secret\nGET\n${landed}\n${TS}\nn1\npayment=${PAYMENT_DECODED}\n`),
      'n1',
    );
    expect(await diagnose(c, failed('redirect.verify', accepted))).toEqual([
      {
        mistake: 'landed-url',
        message:
          'you accept the sign of the content in which part 4 is the URL the payer landed on (its authorization parameter taken out), not the returnUrl as submitted',
        ref: '§5.6, R11',
      },
    ]);
  });

  it('the payment decoded twice ("+08:00" decoded again to " 08:00"): payment-decoded-twice', async () => {
    const c = redirect(sha(content('n1', '{"attach":"x y","offset":" 08:00"}')), 'n1');
    expect(await diagnose(c, failed('redirect.verify', accepted))).toEqual([
      {
        mistake: 'payment-decoded-twice',
        message:
          'you accept the sign of the content in which the payment value was decoded twice: a "%" or "+" it holds was decoded again',
        ref: 'R11',
      },
    ]);
  });

  it('the whole query decoded before splitting (the payment cut at its own %26): query-decoded-whole', async () => {
    const c = redirect(sha(content('n1', '{"a":"b')), 'n1');
    const cut = {
      ...c,
      inputs: {
        ...c.inputs,
        redirectUrl: c.inputs.redirectUrl.replace(RAW_PAYMENT, '%7B%22a%22%3A%22b%26c%3Dd%22%7D'),
      },
    };
    expect((await diagnose(cut, failed('redirect.verify', accepted))).map((d) => d.message)).toEqual([
      'you accept the sign of the content in which the whole query was decoded before it was split at "&": an encoded "&" in the payment value cut it short',
    ]);
  });
});
