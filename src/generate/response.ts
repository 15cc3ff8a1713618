/**
 * Random response cases (5.4, R9): genuine, tampered, signed over the path, unsigned, non-200.
 * @module
 */
import { verifyResponse } from '../scheme/verify.js';
import type { Provenance, ResponseCase } from '../vectors/types.js';
import {
  ATTACH,
  type Defect,
  type GivenParts,
  HEX,
  IdAllocator,
  agree,
  chars,
  checkedSign,
  pick,
  randomNonce,
  randomParts,
  randomTimestamp,
  signedHeader,
  tamper,
  verifyBase,
} from './_common.js';

/**
 * A random response case: genuine, tampered, signed over the path, unsigned, or not a 200.
 * @param rnd - the seeded random numbers
 * @param ids - gives the id
 * @param provenance - where the case came from
 * @returns the case, its verdict agreed by the reference verifier
 */
export function randomResponseCase(
  rnd: () => number,
  ids: IdAllocator,
  provenance: Provenance,
): Omit<ResponseCase, 'kind'> {
  const defect: Defect<'tampered' | 'other-url' | 'no-authorization' | 'status'> = pick(rnd, [
    'valid',
    'valid',
    'tampered',
    'other-url',
    'no-authorization',
    'status',
  ]);
  const req = randomParts(rnd);
  const data = {
    paymentNo: `PAY${chars(rnd, '0123456789', 16)}`,
    merchantTradeNo: `SO-${chars(rnd, HEX, 8)}`,
    status: pick(rnd, ['PENDING', 'SUCCESS']),
    note: pick(rnd, ATTACH),
  };
  const status = defect === 'status' ? pick(rnd, [400, 401, 500, 503, 201]) : 200;
  const envelope =
    status === 200
      ? { code: 'OK', errorMessage: null, data }
      : { code: 'ERROR', errorMessage: 'request refused', data: null };
  const bodyText = rnd() < 0.3 ? JSON.stringify(envelope, null, 2) : JSON.stringify(envelope);
  const p: GivenParts = {
    ...req,
    timestamp: randomTimestamp(rnd),
    nonce: randomNonce(rnd),
    body: Buffer.from(bodyText, 'utf8'),
  };
  const signed: GivenParts = defect === 'other-url' ? { ...p, url: new URL(p.url).pathname } : p;
  const { sign: s } = checkedSign(signed);
  const received = defect === 'tampered' ? tamper(rnd, bodyText) : bodyText;
  const authorization = defect === 'no-authorization' ? null : signedHeader(p, s);
  const problem =
    defect === 'valid'
      ? undefined
      : defect === 'status'
        ? { kind: 'status-not-verified' }
        : defect === 'no-authorization'
          ? { kind: 'no-authorization' }
          : { kind: 'sign-mismatch' };
  const inputs = {
    appId: p.appId,
    appSecret: p.appSecret,
    method: p.method,
    url: p.url,
    status,
    authorization,
    body: received,
  };
  agree(verifyResponse(inputs), problem, 'response');
  const flag = {
    valid: 'RawResponse',
    tampered: 'Tampered',
    'other-url': 'PathInsteadOfUrl',
    'no-authorization': 'NoAuthorization',
    status: 'NonSuccessStatus',
  }[defect];
  const base = verifyBase(
    { ...p, body: Buffer.from(received, 'utf8') },
    [flag, ...(/[^\x00-\x7f]/.test(received) ? ['NonAscii'] : [])],
    problem,
    defect !== 'status' && defect !== 'no-authorization',
  );
  const comment = {
    valid:
      'Generated: a 2.3 envelope with status 200, signed over its raw bytes with the request method and URL (5.4).',
    tampered: 'Generated: a signed 200 whose body had one byte changed after signing; it must be refused (5.4).',
    'other-url': 'Generated: a 200 signed over the request path instead of its full URL; it must be refused (5.4, R9).',
    'no-authorization': 'Generated: a 200 without Authorization; it must be refused (5.4, R9).',
    status: `Generated: a correctly signed response with status ${status}; only a 200 is verified (5.4, R9).`,
  }[defect];
  return { id: ids.next(), comment, spec: ['5.4', '2.3'], readings: ['R9'], ...base, inputs, provenance } as Omit<
    ResponseCase,
    'kind'
  >;
}
