/**
 * Random webhook cases (5.5, R10): genuine, tampered, signed over the delivery URL, unsigned.
 * @module
 */
import { verifyWebhook } from '../scheme/verify.js';
import type { Provenance, WebhookCase } from '../vectors/types.js';
import {
  ALNUM,
  type Defect,
  type GivenParts,
  HEX,
  IdAllocator,
  agree,
  chars,
  checkedSign,
  paymentJson,
  pick,
  randomNonce,
  randomTimestamp,
  signedHeader,
  tamper,
  verifyBase,
} from './_common.js';

/**
 * A random webhook case: genuine, tampered, signed over the delivery URL, or unsigned.
 * @param rnd - the seeded random numbers
 * @param ids - gives the id
 * @param provenance - where the case came from
 * @returns the case, its verdict agreed by the reference verifier
 */
export function randomWebhookCase(
  rnd: () => number,
  ids: IdAllocator,
  provenance: Provenance,
): Omit<WebhookCase, 'kind'> {
  const defect: Defect<'tampered' | 'delivery-url' | 'no-authorization'> = pick(rnd, [
    'valid',
    'valid',
    'tampered',
    'delivery-url',
    'no-authorization',
  ]);
  const host = pick(rnd, ['https://shop.example.net', 'https://merchant.example.org:8443']);
  const path = pick(rnd, ['/hooks/pg', '/api/pg/notify', '/pg/notify/']);
  const query = pick(rnd, ['', `?store=${chars(rnd, HEX, 4)}`]);
  const notifyUrl = `${host}${path}${query}`;
  const deliveryUrl = pick(rnd, [
    `http://10.0.0.${1 + Math.floor(rnd() * 250)}:8080${path}${query}`,
    `${host}${path}${query === '' ? '?via=proxy' : ''}`,
    `http://localhost:3000${path}${query}`,
  ]);
  const pay = paymentJson(rnd);
  const bodyText = pay.text;
  const p: GivenParts = {
    appId: `app_${chars(rnd, HEX, 6)}`,
    appSecret: `sk_test_${chars(rnd, ALNUM, 24)}`,
    method: 'POST',
    url: notifyUrl,
    timestamp: randomTimestamp(rnd),
    nonce: randomNonce(rnd),
    body: Buffer.from(bodyText, 'utf8'),
  };
  const signed: GivenParts = defect === 'delivery-url' ? { ...p, url: deliveryUrl } : p;
  const { sign: s } = checkedSign(signed);
  const received = defect === 'tampered' ? tamper(rnd, bodyText) : bodyText;
  const authorization = defect === 'no-authorization' ? null : signedHeader(p, s);
  const problem =
    defect === 'valid'
      ? undefined
      : defect === 'no-authorization'
        ? { kind: 'no-authorization' }
        : { kind: 'sign-mismatch' };
  const inputs = {
    appId: p.appId,
    appSecret: p.appSecret,
    notifyUrl,
    deliveryUrl,
    method: 'POST',
    authorization,
    body: received,
  };
  agree(verifyWebhook(inputs), problem, 'webhook');
  const flag = {
    valid: 'NotifyUrlAsSubmitted',
    tampered: 'Tampered',
    'delivery-url': 'NotifyUrlAsSubmitted',
    'no-authorization': 'NoAuthorization',
  }[defect];
  const base = verifyBase(
    { ...p, body: Buffer.from(received, 'utf8') },
    [flag, ...(/[^\x00-\x7f]/.test(received) ? ['NonAscii'] : [])],
    problem,
    defect !== 'no-authorization',
  );
  const comment = {
    valid: 'Generated: a 2.5 payload signed over the notifyUrl as submitted; it arrived on another URL (5.5, R10).',
    tampered: 'Generated: a signed webhook whose body had one byte changed after signing; it must be refused (5.5).',
    'delivery-url':
      'Generated: a webhook signed over the URL it was delivered ' +
      'on, not the notifyUrl as submitted; it must be refused (R10).',
    'no-authorization': 'Generated: a webhook without Authorization; it must be refused (5.5).',
  }[defect];
  return { id: ids.next(), comment, spec: ['5.5', '2.5'], readings: ['R10'], ...base, inputs, provenance } as Omit<
    WebhookCase,
    'kind'
  >;
}
