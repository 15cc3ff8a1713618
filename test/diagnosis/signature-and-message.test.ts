/**
 * Signers and message verifiers, on cases written here: the content or sign of a known
 * mistake, upper-case hex, a verifier that accepts a sign made over the delivery URL or
 * over a mistaken content. Contents are written out by hand and signed with node:crypto.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/roles/run-case.js';
import type { SignatureCase, WebhookCase } from '../../src/vectors/types.js';
import { ACCEPTED, BASE, REFUSED, failed, sha } from './_support.js';

const CONTENT = 'app_s1\nsk_test_sign_secret\nPOST\nhttps://pg.example/p?x=1\n1700000000001\nnonce-s1\n{"a":1}\n';
const NO_FINAL_LF = CONTENT.slice(0, -1);

const signatureCase: SignatureCase = {
  ...BASE,
  id: 'signature.t',
  kind: 'signature',
  result: 'invalid',
  inputs: {
    appId: 'app_s1',
    appSecret: 'sk_test_sign_secret',
    method: 'POST',
    url: 'https://pg.example/p?x=1',
    timestamp: '1700000000001',
    nonce: 'nonce-s1',
    body: '{"a":1}',
  },
  expected: { content: CONTENT, sign: sha(CONTENT) },
  candidate: { content: NO_FINAL_LF, sign: sha(NO_FINAL_LF) },
};

describe('signature cases', () => {
  it('a content or sign without the final LF: no-final-lf', async () => {
    const content = await diagnose(
      signatureCase,
      failed('signature.content', { result: { contentB64: Buffer.from(NO_FINAL_LF).toString('base64') } }),
    );
    expect(content).toEqual([
      {
        mistake: 'no-final-lf',
        message: 'your content is the content in which the LF after part 7 (the body) was left out',
        ref: '§5.1, R1',
      },
    ]);
    const sign = await diagnose(signatureCase, failed('signature.sign', { result: { sign: sha(NO_FINAL_LF) } }));
    expect(sign.map((d) => d.message)).toEqual([
      'your sign equals the sign of the content in which the LF after part 7 (the body) was left out',
    ]);
  });

  it('the URL without its query: url-without-query', async () => {
    const got = await diagnose(
      signatureCase,
      failed('signature.sign', { result: { sign: sha(CONTENT.replace('?x=1', '')) } }),
    );
    expect(got.map((d) => d.mistake)).toEqual(['url-without-query']);
  });

  it('the right digest in upper case: uppercase-hex', async () => {
    expect(
      await diagnose(signatureCase, failed('signature.sign', { result: { sign: sha(CONTENT).toUpperCase() } })),
    ).toEqual([
      {
        mistake: 'uppercase-hex',
        message: 'your sign is the expected sign in which the hex digits are upper case: signers write lower case',
        ref: '§5.2, R7',
      },
    ]);
  });

  it("a verifier that accepts the candidate's sign builds its content with the candidate's mistake", async () => {
    expect((await diagnose(signatureCase, failed('request.verify', ACCEPTED))).map((d) => d.message)).toEqual([
      'you accept the sign of the content in which the LF after part 7 (the body) was left out',
    ]);
    expect(await diagnose(signatureCase, failed('request.verify', REFUSED))).toEqual([]);
  });

  it('answers without the field, or not base64: no diagnosis', async () => {
    expect(await diagnose(signatureCase, failed('signature.content', { result: {} }))).toEqual([]);
    expect(
      await diagnose(signatureCase, failed('signature.content', { result: { contentB64: 'not base64!' } })),
    ).toEqual([]);
    expect(await diagnose(signatureCase, failed('signature.sign', { rejected: { reason: 'no' } }))).toEqual([]);
  });
});

describe('webhook verifiers', () => {
  const NOTIFY = 'https://shop.example/pg/notify';
  const DELIVERY = 'http://10.0.0.7:8080/pg/notify';
  const body = '{"paymentNo":"P1"}';
  const content = (url: string): string =>
    `app_w1\nsk_test_webhook_secret\nPOST\n${url}\n1700000000002\nnonce-w1\n${body}\n`;
  const webhook = (sign: string): WebhookCase => ({
    ...BASE,
    id: 'webhook.t',
    kind: 'webhook',
    result: 'invalid',
    inputs: {
      appId: 'app_w1',
      appSecret: 'sk_test_webhook_secret',
      notifyUrl: NOTIFY,
      deliveryUrl: DELIVERY,
      method: 'POST',
      authorization: `V2_SHA256 appId=app_w1,sign=${sign},timestamp=1700000000002,nonce=nonce-w1`,
      body,
    },
    expected: { problem: { kind: 'sign-mismatch' } },
  });

  it('a sign over the URL the call arrived on: delivery-url', async () => {
    expect(await diagnose(webhook(sha(content(DELIVERY))), failed('webhook.verify', ACCEPTED))).toEqual([
      {
        mistake: 'delivery-url',
        message:
          'you accept the sign of the content in which part 4 is the URL the call arrived on, not the notifyUrl as submitted',
        ref: '§5.5, R10',
      },
    ]);
  });

  it('a sign over a mistaken content: that mistake', async () => {
    expect(
      (await diagnose(webhook(sha(content(NOTIFY).slice(0, -1))), failed('webhook.verify', ACCEPTED))).map(
        (d) => d.mistake,
      ),
    ).toEqual(['no-final-lf']);
  });

  it.each([
    ['its first digit', (s: string) => s.slice(0, 1), 'the first 1 digits of the right sign'],
    ['its first 63 digits', (s: string) => s.slice(0, 63), 'the first 63 digits of the right sign'],
    [
      'it in upper case, cut to 32 digits',
      (s: string) => s.slice(0, 32).toUpperCase(),
      'the first 32 digits of the right sign',
    ],
    ['it with a digit added', (s: string) => `${s}0`, 'the right sign with digits added'],
  ])('the right sign as %s: sign-compared-as-prefix', async (_, change, words) => {
    const c = {
      ...webhook(change(sha(content(NOTIFY)))),
      expected: { problem: { kind: 'malformed-sign' } },
    } as WebhookCase;
    const found = await diagnose(c, failed('webhook.verify', ACCEPTED));
    expect(found.map((d) => d.mistake)).toEqual(['sign-compared-as-prefix']);
    expect(found[0]?.message).toContain(`you accept ${words}`);
  });

  it('a sign that is no prefix of the right one: not sign-compared-as-prefix', async () => {
    const c = {
      ...webhook(sha(content(NOTIFY)).slice(1)),
      expected: { problem: { kind: 'malformed-sign' } },
    } as WebhookCase;
    expect((await diagnose(c, failed('webhook.verify', ACCEPTED))).map((d) => d.mistake)).toEqual([
      'accepts-malformed-sign',
    ]);
  });

  it('a sign over nothing known: the refusal the case expected', async () => {
    expect(
      (await diagnose(webhook(sha('unrelated')), failed('webhook.verify', ACCEPTED))).map((d) => d.mistake),
    ).toEqual(['accepts-sign-mismatch']);
  });
});
