/**
 * What every generator shares: the generated flag and provenance, ids, the seeded random
 * numbers, the independent signing every content and sign is checked with, random parts and
 * payloads, and the pieces of a verify case.
 * @module
 */
import { createHash } from 'node:crypto';
import { signatureContent } from '../scheme/content.js';
import { sign, signContent } from '../scheme/sign.js';
import type { VerifyOutcome } from '../scheme/verify.js';
import type { AuthorizationCase, RedirectCase, ResponseCase, SignatureCase, WebhookCase } from '../vectors/types.js';
import type { SignatureParts } from '../scheme/parts.js';
import { Pgv2kitError } from '../errors.js';

/**
 * The flag every generated case carries (explained in the kit's vectors/notes.yaml, written by generate and run
 * --save).
 */
export const GENERATED_FLAG = 'Generated';

/** The generator's name in provenance. */
export const GENERATOR = 'pgv2kit generate';

/** A generated case as written to the file (kind is the file's, not the case's). */
export type GeneratedCase =
  | Omit<SignatureCase, 'kind'>
  | Omit<AuthorizationCase, 'kind'>
  | Omit<ResponseCase, 'kind'>
  | Omit<WebhookCase, 'kind'>
  | Omit<RedirectCase, 'kind'>;

/** An independent check disagreed with the reference: nothing may be written. */
export class GenerateCheckError extends Pgv2kitError {
  override readonly code = 'PGV2_GENERATE_CHECK';
  /** A failure (exit 3). */
  override readonly exit = 'failure';
  override readonly name = 'GenerateCheckError';
}

/** The seven parts with the body as exact bytes. */
export type GivenParts = Omit<SignatureParts, 'body'> & { readonly body: Uint8Array };

/** Where cases get their ids: `<area>.gen-<tag>-<n>`, skipping ids already taken. */
export class IdAllocator {
  private n = 0;
  private readonly taken: Set<string>;
  constructor(
    private readonly area: string,
    private readonly tag: string,
    taken: Iterable<string>,
  ) {
    this.taken = new Set(taken);
  }
  /** @returns the next free id (and marks it taken) */
  next(): string {
    for (;;) {
      this.n++;
      const id = `${this.area}.gen-${this.tag}-${this.n}`;
      if (!this.taken.has(id)) {
        this.taken.add(id);
        return id;
      }
    }
  }
}

export { seededRandom } from '../seeded.js';

/**
 * The content and sign computed independently of src/scheme: the parts concatenated
 * by hand, each followed by LF, hashed with node:crypto.
 * @param p - the parts
 * @returns the content bytes and the sign
 */
export function independentSign(p: GivenParts): { content: Buffer; sign: string } {
  const LF = Buffer.from([10]);
  const chunks: Buffer[] = [];
  for (const text of [p.appId, p.appSecret, p.method, p.url, p.timestamp, p.nonce])
    chunks.push(Buffer.from(text, 'utf8'), LF);
  chunks.push(Buffer.from(p.body), LF);
  const content = Buffer.concat(chunks);
  return { content, sign: createHash('sha256').update(content).digest('hex') };
}

/**
 * The content and sign of the parts, computed by the reference and by the independent
 * computation ({@link independentSign}), which must agree.
 * @param p - the parts
 * @returns the content bytes and the sign
 * @throws {GenerateCheckError} when they disagree (nothing may be written)
 */
export function checkedSign(p: GivenParts): { content: Buffer; sign: string } {
  const mine = independentSign(p);
  const refContent = signatureContent(p);
  const refSign = sign(p);
  if (!mine.content.equals(Buffer.from(refContent)) || mine.sign !== refSign || signContent(refContent) !== refSign) {
    throw new GenerateCheckError(
      `the reference signature (${refSign}) and the independent computation ` +
        `(${mine.sign}) disagree for the case of ${p.method} ${p.url}; nothing was written`,
    );
  }
  return mine;
}

export const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
export const chars = (rnd: () => number, alphabet: string, n: number): string =>
  Array.from({ length: n }, () => pick(rnd, [...alphabet])).join('');
export const HEX = '0123456789abcdef';
export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const B64 = `${ALNUM}+/`;

export function randomParts(rnd: () => number): GivenParts {
  const method = pick(rnd, ['POST', 'POST', 'GET', 'PUT', 'DELETE', 'PATCH']);
  const path = pick(rnd, [
    '/pg/v2/file/generateUploadUrl',
    '/pg/v2/payment/create',
    '/pg/v2/payment/query',
    '/pg/v2/refund/apply',
    '/pg/v2/dispute/evidence/',
  ]);
  const host = pick(rnd, [
    'https://pg.example.com',
    'https://pg.example.com:8443',
    'https://PG.Example.com',
    'http://localhost:8080',
  ]);
  const query = pick(rnd, [
    '',
    '',
    `?orderId=${chars(rnd, HEX, 8)}`,
    `?b=2&a=1&q=${pick(rnd, ['x%2Fy', 'x%2fy', 'caf%C3%A9', 'a+b'])}`,
  ]);
  const nonce = pick(rnd, [
    chars(rnd, HEX, 32),
    uuid(rnd),
    `${chars(rnd, B64, 22)}==`,
    `n-${Math.floor(rnd() * 1000)}`,
  ]);
  const timestamp = String(1_600_000_000_000 + Math.floor(rnd() * 300_000_000_000));
  return {
    appId: `app_${chars(rnd, HEX, 6)}`,
    appSecret: `sk_test_${chars(rnd, ALNUM, 24)}`,
    method,
    url: `${host}${path}${query}`,
    timestamp,
    nonce,
    body: Buffer.from(method === 'GET' && rnd() < 0.7 ? '' : randomBody(rnd), 'utf8'),
  };
}

export function uuid(rnd: () => number): string {
  const h = chars(rnd, HEX, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
}

export function randomBody(rnd: () => number): string {
  const text = pick(rnd, [
    'evidence',
    'Zahlung für Bestellung',
    '订单付款',
    'café ☕',
    'emoji 😀 ok',
    'a "quoted" \\ value',
    'tab\there',
  ]);
  const obj = {
    merchantOrderId: `mo_${chars(rnd, HEX, 10)}`,
    amount: Math.floor(rnd() * 100000),
    currency: pick(rnd, ['KRW', 'USD', 'EUR']),
    description: text,
  };
  let body = pick(rnd, [
    JSON.stringify(obj),
    JSON.stringify(obj, null, 2),
    JSON.stringify({ filename: `f-${chars(rnd, HEX, 4)}.pdf`, scene: 'DISPUTE_EVIDENCE' }),
    '',
  ]);
  const ending = rnd();
  if (body !== '' && ending < 0.2) body += '\n';
  else if (body !== '' && ending < 0.3) body = body.replace(/\n/g, '\r\n') + '\r\n';
  else if (body !== '' && ending < 0.35) body = `\ufeff${body}`;
  return body;
}

/**
 * The flags and readings a body brings to a case: empty (R2), ending in LF (R1), raw bytes (R3), non-ASCII.
 * @param p - the parts
 * @returns flags and readings
 */
export function bodyTraits(p: GivenParts): { flags: string[]; readings: string[] } {
  const flags: string[] = [];
  const readings = new Set<string>();
  const text = Buffer.from(p.body).toString('utf8');
  if (p.body.byteLength === 0) {
    flags.push('EmptyBody');
    readings.add('R2');
  }
  if (text.endsWith('\n')) {
    flags.push('BodyEndsWithLF');
    readings.add('R1');
  }
  if (text.includes('\r') || text.startsWith('\ufeff')) {
    flags.push('RawBytes');
    readings.add('R3');
  }
  if ([p.appId, p.url, p.nonce, text].some((s) => /[^\x00-\x7f]/.test(s))) flags.push('NonAscii');
  return { flags, readings: [...readings] };
}

export function describeBody(body: Uint8Array): string {
  if (body.byteLength === 0) return 'with an empty body';
  return `with a ${body.byteLength}-byte body`;
}

/**
 * Bytes as a case field: text when they are UTF-8 that round-trips, else base64.
 * @param bytes - the bytes
 * @param text - the text field's name
 * @param b64 - the base64 field's name
 * @returns `{ [text]: … }` or `{ [b64]: … }`
 */
export function bytesField<T extends string, B extends string>(
  bytes: Uint8Array,
  text: T,
  b64: B,
): { [K in T]: string } | { [K in B]: string } {
  const buf = Buffer.from(bytes);
  const s = buf.toString('utf8');
  if (Buffer.from(s, 'utf8').equals(buf)) return { [text]: s } as { [K in T]: string };
  return { [b64]: buf.toString('base64') } as { [K in B]: string };
}

/** The header written by hand (independent of formatAuthorization). */
export function handHeader(scheme: string, pairs: ReadonlyArray<readonly [string, string]>): string {
  let s = `${scheme} `;
  pairs.forEach(([k, v], i) => {
    s += `${i > 0 ? ',' : ''}${k}=${v}`;
  });
  return s;
}

/** The V2_SHA256 header of signed parts, written by hand. */
export function signedHeader(p: GivenParts, s: string): string {
  return handHeader('V2_SHA256', [
    ['appId', p.appId],
    ['sign', s],
    ['timestamp', p.timestamp],
    ['nonce', p.nonce],
  ]);
}

/** The reference's answer must be the case's: valid, or the intended problem kind. */
export function agree(
  outcome: VerifyOutcome,
  problem: { kind: string; parameter?: string } | undefined,
  what: string,
): void {
  const ok =
    problem === undefined
      ? outcome.valid
      : !outcome.valid &&
        outcome.problem.kind === problem.kind &&
        (problem.parameter === undefined ||
          ('parameter' in outcome.problem && outcome.problem.parameter === problem.parameter));
  if (!ok)
    throw new GenerateCheckError(
      `the reference verifier's answer to the generated ${what} case ` +
        `(${outcome.valid ? 'valid' : outcome.problem.kind}) is not the intended ${problem?.kind ?? 'valid'}; ` +
        'nothing was written',
    );
}

/** A byte of the body changed after signing (a digit or letter replaced). */
export function tamper(rnd: () => number, text: string): string {
  const at = [...text.matchAll(/[0-9A-Za-z]/g)].map((m) => m.index);
  const i = pick(rnd, at);
  const c = text[i]!;
  const r = /[0-9]/.test(c) ? String((Number(c) + 1) % 10) : c === 'x' ? 'y' : 'x';
  return text.slice(0, i) + r + text.slice(i + 1);
}

export function randomTimestamp(rnd: () => number): string {
  return String(1_600_000_000_000 + Math.floor(rnd() * 300_000_000_000));
}

export function randomNonce(rnd: () => number): string {
  return pick(rnd, [chars(rnd, HEX, 32), uuid(rnd), `${chars(rnd, B64, 22)}==`]);
}

export const ATTACH = [
  'a+b&c=d 100% #7',
  'cart=8812',
  'Zahlung für Bestellung',
  '订单 付款',
  'café ☕ + tea',
  'x=1&y=2',
  '50% off',
  '',
];

export function paymentJson(rnd: () => number): { paymentNo: string; merchantTradeNo: string; text: string } {
  const paymentNo = `PAY${chars(rnd, '0123456789ABCDEF', 16)}`;
  const merchantTradeNo = `MT-${chars(rnd, '0123456789', 8)}-${chars(rnd, '0123456789', 4)}`;
  const payment = {
    amount: `${Math.floor(rnd() * 10000)}.${chars(rnd, '0123456789', 2)}`,
    createdTime: '2024-07-05T22:31:45.001+08:00',
    currency: pick(rnd, ['USD', 'EUR', 'KRW']),
    merchantAttach: pick(rnd, ATTACH),
    merchantTradeNo,
    paymentNo,
    refundStatus: 'NO_REFUND',
    status: pick(rnd, ['PENDING', 'SUCCESS', 'FAILED']),
  };
  return { paymentNo, merchantTradeNo, text: JSON.stringify(payment) };
}

export type Defect<D extends string> = 'valid' | D;

export function verifyBase(
  p: GivenParts,
  flags: readonly string[],
  problem: { kind: string; parameter?: string } | undefined,
  withContent: boolean,
): { flags: string[]; result: 'valid' | 'invalid'; expected: Record<string, unknown> } {
  const expected: Record<string, unknown> = withContent
    ? { ...bytesField(checkedSign(p).content, 'content', 'contentB64') }
    : {};
  if (problem) expected['problem'] = problem;
  return { flags: [GENERATED_FLAG, ...flags], result: problem ? 'invalid' : 'valid', expected };
}
