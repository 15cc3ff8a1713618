/**
 * Random return-redirect cases (5.6, R11): genuine, tampered, encoded twice, a parameter missing.
 * @module
 */
import { verifyRedirect } from '../scheme/redirect.js';
import type { Provenance, RedirectCase } from '../vectors/types.js';
import {
  ALNUM,
  type Defect,
  GenerateCheckError,
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

/** Query encoding as a gateway does it: encodeURIComponent, or form style (space as "+"). */
function encodeQuery(text: string, form: boolean): string {
  const e = encodeURIComponent(text);
  return form ? e.replace(/%20/g, '+') : e;
}

/**
 * A random return-redirect case: genuine, tampered, encoded twice, or a parameter missing.
 * @param rnd - the seeded random numbers
 * @param ids - gives the id
 * @param provenance - where the case came from
 * @returns the case, its verdict agreed by the reference verifier
 */
export function randomRedirectCase(
  rnd: () => number,
  ids: IdAllocator,
  provenance: Provenance,
): Omit<RedirectCase, 'kind'> {
  const defect: Defect<'tampered' | 'encoded-payment' | 'missing'> = pick(rnd, [
    'valid',
    'valid',
    'tampered',
    'encoded-payment',
    'missing',
  ]);
  const returnOrigin = pick(rnd, ['https://shop.example.net', 'https://merchant.example.org:8443']);
  const returnPath = pick(rnd, ['/checkout/return', '/pay/done', '/r/']);
  const returnQuery = pick(rnd, ['', '', `?order=${chars(rnd, HEX, 6)}`, '?lang=fr&ref=mail']);
  const returnUrl = `${returnOrigin}${returnPath}${returnQuery}`;
  const pay = paymentJson(rnd);
  const form = rnd() < 0.5;
  const encoded = encodeQuery(pay.text, form);
  const p: GivenParts = {
    appId: `app_${chars(rnd, HEX, 6)}`,
    appSecret: `sk_test_${chars(rnd, ALNUM, 24)}`,
    method: 'GET',
    url: returnUrl,
    timestamp: randomTimestamp(rnd),
    nonce: randomNonce(rnd),
    body: Buffer.from(`payment=${pay.text}`, 'utf8'),
  };
  const signed: GivenParts =
    defect === 'encoded-payment' ? { ...p, body: Buffer.from(`payment=${encoded}`, 'utf8') } : p;
  const { sign: s } = checkedSign(signed);
  const receivedText = defect === 'tampered' ? tamper(rnd, pay.text) : pay.text;
  const missing = pick(rnd, ['payment', 'authorization'] as const);
  const params: Array<[string, string]> = [
    ['paymentNo', pay.paymentNo],
    ['merchantTradeNo', pay.merchantTradeNo],
    ['payment', encodeQuery(receivedText, form)],
    ['authorization', encodeQuery(signedHeader(p, s), form)],
  ];
  const kept = defect === 'missing' ? params.filter(([n]) => n !== missing) : params;
  const separator = returnUrl.includes('?') ? '&' : '?';
  const redirectUrl = `${returnUrl}${separator}${kept.map(([n, v]) => `${n}=${v}`).join('&')}`;
  const problem =
    defect === 'valid'
      ? undefined
      : defect === 'missing'
        ? { kind: 'redirect-parameter', parameter: missing }
        : { kind: 'sign-mismatch' };
  const inputs = { appId: p.appId, appSecret: p.appSecret, returnUrl, redirectUrl };
  const outcome = verifyRedirect(inputs);
  agree(outcome, problem, 'redirect');
  if (defect === 'valid' && outcome.payment !== pay.text)
    throw new GenerateCheckError(
      'the reference verifier does not decode the generated payment to the text signed; nothing was written',
    );
  const flags = [
    ...(defect === 'valid' || defect === 'tampered'
      ? ['RedirectDecoded']
      : defect === 'encoded-payment'
        ? ['RedirectEncodedPayment']
        : ['RedirectParameterCount']),
    ...(form && / /.test(pay.text) ? ['RedirectPlusAsSpace'] : []),
    ...(/[^\x00-\x7f]/.test(pay.text) ? ['NonAscii'] : []),
  ];
  const base = verifyBase(
    { ...p, body: Buffer.from(`payment=${receivedText}`, 'utf8') },
    flags,
    problem,
    defect !== 'missing',
  );
  if (defect === 'valid') base.expected['payment'] = pay.text;
  const comment = {
    valid:
      'Generated: the returnUrl with paymentNo, merchantTradeNo, payment and authorization added ' +
      `(${form ? 'form-encoded' : 'encodeURIComponent'}); signed over the decoded payment (5.6, R11).`,
    tampered: 'Generated: a redirect whose payment had one character changed after signing; it must be refused (5.6).',
    'encoded-payment': 'Generated: a redirect signed over the still-encoded payment value; it must be refused (R11).',
    missing: `Generated: a redirect without its ${missing} parameter; it must be refused (R11).`,
  }[defect];
  return { id: ids.next(), comment, spec: ['5.6', '2.5'], readings: ['R11'], ...base, inputs, provenance } as Omit<
    RedirectCase,
    'kind'
  >;
}
