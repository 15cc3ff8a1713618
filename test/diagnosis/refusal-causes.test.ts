/**
 * Which known mistakes could explain a refusal of a genuine message (the triage joins the
 * refusal to one of them): those whose content, sign or header reading differs from the right
 * one for that message, and no other. The messages are written out by hand, signed with
 * node:crypto; what each mistake changes is read off them here, from the spec.
 */
import { describe, expect, it } from 'vitest';
import { refusalCauses } from '../../src/roles/run-case.js';
import type { RedirectCase, RequestCase } from '../../src/vectors/types.js';
import { ACCEPTED, BASE, REFUSED, failed, sha } from './_support.js';

const BODY = '{"filename":"evidence-0901.pdf","contentType":"application/pdf","scene":"DISPUTE_EVIDENCE"}';
const URL_NO_QUERY = 'https://pg.example.com/pg/v2/file/generateUploadUrl';
/** Its digest (the content of test/diagnosis/hex-unpadded.test.ts) has bytes below 0x10: 02 53 95 03 …. */
const SIGN = '02539503f94f0098901eef6fccbe7e453f1551c979d6a148d27e068da1fbb2b9';

const request = (authorization: string): RequestCase => ({
  ...BASE,
  id: 'request.t',
  kind: 'request',
  result: 'valid',
  inputs: {
    appId: 'app_7f3a9c',
    appSecret: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
    method: 'POST',
    url: URL_NO_QUERY,
    authorization,
    body: BODY,
  },
  expected: {},
});

describe('refusal causes', () => {
  const genuine = request(`V2_SHA256 appId=app_7f3a9c,sign=${SIGN},timestamp=1725150001102,nonce=unpadded-hex_2`);

  it('a genuine request refused: the mistakes that change its content or sign, not those that leave it as it is', () => {
    const could = refusalCauses(genuine, failed('request.verify', REFUSED));
    // every content has a final LF, a secret, parts 5 and 6 that differ; this digest has bytes below 0x10
    expect(could).toEqual(
      expect.arrayContaining([
        'no-final-lf',
        'extra-final-lf',
        'secret-left-out',
        'timestamp-nonce-swapped',
        'url-path-only',
        'hex-unpadded',
        'hex-leading-zeros-dropped',
      ]),
    );
    // no query to drop, a body with no white space at its ends, no CR LF, nothing beyond ASCII; a header in the spec's order
    expect(
      could.filter((m) =>
        [
          'url-without-query',
          'body-trimmed',
          'body-crlf-to-lf',
          'latin1',
          'items-by-position',
          'value-split-at-last-equals',
        ].includes(m),
      ),
    ).toEqual([]);
  });

  it('the same header with its items in another order: a parser reading by position could explain it', () => {
    const reordered = request(`V2_SHA256 nonce=unpadded-hex_2,timestamp=1725150001102,sign=${SIGN},appId=app_7f3a9c`);
    expect(refusalCauses(reordered, failed('request.verify', REFUSED))).toContain('items-by-position');
  });

  it('only a failed step refusing a valid case', () => {
    expect(refusalCauses(genuine, failed('request.verify', ACCEPTED))).toEqual([]);
    expect(refusalCauses({ ...genuine, result: 'invalid' }, failed('request.verify', REFUSED))).toEqual([]);
  });

  describe('a genuine redirect', () => {
    const RETURN_URL = 'https://shop.example/return';
    const redirect = (rawPayment: string, payment: string): RedirectCase => {
      const sign = sha(`app_r1\nsk_test_redirect_secret\nGET\n${RETURN_URL}\n1720400000404\nn1\npayment=${payment}\n`);
      const auth = encodeURIComponent(`V2_SHA256 appId=app_r1,sign=${sign},timestamp=1720400000404,nonce=n1`);
      return {
        ...BASE,
        id: 'redirect.t',
        kind: 'redirect',
        result: 'valid',
        inputs: {
          appId: 'app_r1',
          appSecret: 'sk_test_redirect_secret',
          returnUrl: RETURN_URL,
          redirectUrl: `${RETURN_URL}?payment=${rawPayment}&authorization=${auth}`,
        },
        expected: { payment },
      };
    };

    it('with an "&" in its payment: decoding the whole query first could explain it; with none, not', () => {
      const amp = refusalCauses(
        redirect('%7B%22a%22%3A%22b%26c%22%7D', '{"a":"b&c"}'),
        failed('redirect.verify', REFUSED),
      );
      expect(amp).toEqual(
        expect.arrayContaining([
          'query-decoded-whole',
          'landed-url',
          'payment-encoded',
          'redirect-method',
          'no-final-lf',
        ]),
      );
      const plain = refusalCauses(redirect('%7B%22a%22%3A%22b%22%7D', '{"a":"b"}'), failed('redirect.verify', REFUSED));
      expect(plain).toContain('landed-url');
      // nothing "&", "%" or "+" in the payment, no query in the returnUrl, a nonce without "+"
      expect(
        plain.filter((m) =>
          [
            'query-decoded-whole',
            'payment-decoded-twice',
            'payment-plus-kept',
            'authorization-plus-kept',
            'returnurl-without-query',
          ].includes(m),
        ),
      ).toEqual([]);
    });

    it('with a "%" that starts no escape: decoding it twice fails, so it could explain the refusal', () => {
      expect(
        refusalCauses(
          redirect('%7B%22a%22%3A%2215%25%20off%22%7D', '{"a":"15% off"}'),
          failed('redirect.verify', REFUSED),
        ),
      ).toContain('payment-decoded-twice');
    });
  });
});
