/**
 * Builds new vector cases for `pgv2kit generate`: a signature case from given parts
 * (with its known-mistake candidates), or cases drawn at random from a seed
 * (signature, authorization, response, webhook, redirect). Every expected value is computed by the reference and
 * checked again by an independent computation (plain concatenation of the parts,
 * hashed with node:crypto; the header written by hand); a disagreement throws
 * {@link GenerateCheckError} and nothing is written.
 * @module
 */
import { createHash } from 'node:crypto';
import { mistakenContents, type Mistake } from '../diagnosis/mistakes.js';
import { ITEM_NAMES, formatAuthorization, parseAuthorization, type AuthorizationItems, type ItemName } from '../scheme/authorization.js';
import { headerAnswers } from '../scheme/header-answers.js';
import { signatureContent } from '../scheme/content.js';
import { sign, signContent } from '../scheme/sign.js';
import { verifyRedirect } from '../scheme/redirect.js';
import { verifyResponse, verifyWebhook, type VerifyOutcome } from '../scheme/verify.js';
import type { AuthorizationCase, Provenance, RedirectCase, ResponseCase, SignatureCase, WebhookCase } from '../vectors/types.js';

export { GENERATE_AREAS, type GenerateArea } from './areas.js';
import type { GenerateArea } from './areas.js';

/** The flag every generated case carries (explained in notes.yaml). */
export const GENERATED_FLAG = 'Generated';

/** The notes.yaml entry of {@link GENERATED_FLAG}. */
export const GENERATED_NOTE = {
  bugType: 'BASIC',
  description: 'Made by pgv2kit generate, from given parts or at random from a seed (see provenance); expected values computed by the reference and checked by an independent computation.',
  effect: 'Fails where a hand-written case of the same flags fails; more values, the same rules.',
} as const;

/** The generator's name in provenance. */
export const GENERATOR = 'pgv2kit generate';

/** A generated case as written to the file (kind is the file's, not the case's). */
export type GeneratedCase = Omit<SignatureCase, 'kind'> | Omit<AuthorizationCase, 'kind'> | Omit<ResponseCase, 'kind'> | Omit<WebhookCase, 'kind'> | Omit<RedirectCase, 'kind'>;

/** An independent check disagreed with the reference: nothing may be written. */
export class GenerateCheckError extends Error {
  readonly code = 'PGV2_GENERATE_CHECK';
  override readonly name = 'GenerateCheckError';
}

/** The seven parts with the body as exact bytes. */
export interface GivenParts {
  readonly appId: string;
  readonly appSecret: string;
  readonly method: string;
  readonly url: string;
  readonly timestamp: string;
  readonly nonce: string;
  readonly body: Uint8Array;
}

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

/**
 * A small deterministic PRNG (mulberry32): the same seed gives the same cases.
 * @param seed - an integer
 * @returns a function giving numbers in [0, 1)
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The content and sign computed independently of src/scheme: the parts concatenated
 * by hand, each followed by LF, hashed with node:crypto.
 * @param p - the parts
 * @returns the content bytes and the sign
 */
export function independentSign(p: GivenParts): { content: Buffer; sign: string } {
  const LF = Buffer.from([10]);
  const chunks: Buffer[] = [];
  for (const text of [p.appId, p.appSecret, p.method, p.url, p.timestamp, p.nonce]) chunks.push(Buffer.from(text, 'utf8'), LF);
  chunks.push(Buffer.from(p.body), LF);
  const content = Buffer.concat(chunks);
  return { content, sign: createHash('sha256').update(content).digest('hex') };
}

/** Flags of the known mistakes (notes.yaml). */
const MISTAKE_FLAGS: Readonly<Record<string, string>> = {
  'no-final-lf': 'FinalLfMissing',
  'extra-final-lf': 'ExtraLf',
  'body-part-left-out': 'EmptyBodyPartDropped',
  'crlf-separators': 'CrlfSeparators',
  'secret-left-out': 'SecretOmitted',
  'app-id-secret-swapped': 'PartsOrder',
  'timestamp-nonce-swapped': 'PartsOrder',
  'method-lower-case': 'MethodCase',
  'method-upper-case': 'MethodCase',
  'url-path-only': 'PathInsteadOfUrl',
  'url-path-only-without-query': 'PathInsteadOfUrl',
  'url-without-query': 'QueryDropped',
  'url-trailing-slash': 'UrlNormalized',
  'url-normalised': 'UrlNormalized',
  'body-trailing-lf-stripped': 'BodyLfDropped',
  'body-crlf-to-lf': 'CrlfConverted',
  'body-lf-to-crlf': 'CrlfConverted',
  'body-bom-dropped': 'BomDropped',
  'body-trimmed': 'BodyTrimmed',
  'body-nfc': 'UnicodeNormalized',
  'body-nfd': 'UnicodeNormalized',
  'body-reserialized': 'BodyReserialized',
  'body-reserialized-pretty': 'BodyReserialized',
  'latin1': 'Latin1Body',
  'latin1-low-byte': 'Latin1Body',
  'latin1-question-mark': 'Latin1Body',
};

/**
 * The valid signature case of the given parts, checked independently.
 * @param p - the parts
 * @param id - the case id
 * @param provenance - where the case came from
 * @param comment - the case's comment (default: a generic one)
 * @returns the case
 * @throws {GenerateCheckError} when the reference and the independent computation disagree
 */
export function signatureCase(p: GivenParts, id: string, provenance: Provenance, comment?: string): Omit<SignatureCase, 'kind'> {
  const { content, sign: s } = checkedSign(p);
  const body = bytesField(p.body, 'body', 'bodyB64');
  const { flags, readings } = bodyTraits(p);
  return {
    id,
    comment: comment ?? `Generated: the seven parts ${describeBody(p.body)}, signed correctly (5.1, 5.2).`,
    spec: ['5.1', '5.2'],
    readings,
    flags: [GENERATED_FLAG, ...flags],
    result: 'valid',
    inputs: { appId: p.appId, appSecret: p.appSecret, method: p.method, url: p.url, timestamp: p.timestamp, nonce: p.nonce, ...body },
    expected: { ...bytesField(content, 'content', 'contentB64'), sign: s },
    provenance,
  } as Omit<SignatureCase, 'kind'>;
}

/**
 * The invalid signature cases of the parts' known mistakes: each candidate the content
 * and sign one mistake builds (src/diagnosis/mistakes.ts).
 * @param p - the parts
 * @param nextId - gives the ids
 * @param provenance - where the cases came from
 * @param pick - keeps only some mistakes (default all)
 * @returns the cases
 */
export function mistakeCases(p: GivenParts, nextId: () => string, provenance: Provenance, pick?: (all: ReadonlyArray<{ mistake: Mistake; content: Uint8Array }>) => ReadonlyArray<{ mistake: Mistake; content: Uint8Array }>): Array<Omit<SignatureCase, 'kind'>> {
  const { content: correct, sign: s } = checkedSign(p);
  const all = mistakenContents(p);
  const chosen = pick ? pick(all) : all;
  const body = bytesField(p.body, 'body', 'bodyB64');
  return chosen.map(({ mistake, content }) => {
    const candidateSign = createHash('sha256').update(content).digest('hex');
    if (candidateSign !== signContent(content) || candidateSign === s || Buffer.from(content).equals(correct)) {
      throw new GenerateCheckError(`the candidate of mistake ${mistake.id} does not differ from the correct sign, or its sign does not check`);
    }
    const flag = MISTAKE_FLAGS[mistake.id];
    const readings = [...new Set(mistake.ref.match(/R\d+/g) ?? [])];
    return {
      id: nextId(),
      comment: `Generated known mistake ${mistake.id}: ${mistake.description}; a verifier must refuse the candidate.`.slice(0, 240),
      spec: ['5.1', '5.2'],
      readings,
      flags: [GENERATED_FLAG, ...(flag ? [flag] : [])],
      result: 'invalid',
      inputs: { appId: p.appId, appSecret: p.appSecret, method: p.method, url: p.url, timestamp: p.timestamp, nonce: p.nonce, ...body },
      expected: { ...bytesField(correct, 'content', 'contentB64'), sign: s },
      candidate: { ...bytesField(content, 'content', 'contentB64'), sign: candidateSign },
      provenance,
    } as Omit<SignatureCase, 'kind'>;
  });
}

/** Options of {@link generateRandom}. */
export interface RandomOptions {
  readonly area: GenerateArea;
  readonly seed: number;
  readonly count: number;
  /** Ids already in the vector set (never reused). */
  readonly takenIds: Iterable<string>;
  readonly kitVersion: string;
  /** The provenance date, e.g. `2025-01-31`. */
  readonly date: string;
}

/**
 * Cases drawn at random from a seed: the same options give the same cases.
 * @param o - {@link RandomOptions}
 * @returns `count` cases
 * @throws {GenerateCheckError} when an independent check disagrees with the reference
 */
export function generateRandom(o: RandomOptions): GeneratedCase[] {
  const rnd = seededRandom(o.seed);
  const ids = new IdAllocator(o.area, String(o.seed), o.takenIds);
  const provenance: Provenance = { generator: GENERATOR, seed: o.seed, kitVersion: o.kitVersion, date: o.date };
  const out: GeneratedCase[] = [];
  for (let i = 0; i < o.count; i++) {
    if (o.area === 'signature') out.push(randomSignatureCase(rnd, ids, provenance));
    else if (o.area === 'authorization') out.push(randomAuthorizationCase(rnd, ids, provenance));
    else if (o.area === 'response') out.push(randomResponseCase(rnd, ids, provenance));
    else if (o.area === 'webhook') out.push(randomWebhookCase(rnd, ids, provenance));
    else out.push(randomRedirectCase(rnd, ids, provenance));
  }
  return out;
}

// --- internal: signature ---

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
    throw new GenerateCheckError(`the reference signature (${refSign}) and the independent computation (${mine.sign}) disagree for the case of ${p.method} ${p.url}; nothing was written`);
  }
  return mine;
}

function randomSignatureCase(rnd: () => number, ids: IdAllocator, provenance: Provenance): Omit<SignatureCase, 'kind'> {
  const p = randomParts(rnd);
  if (rnd() < 0.3) {
    const cases = mistakeCases(p, () => ids.next(), provenance, (all) => (all.length === 0 ? [] : [all[Math.floor(rnd() * all.length)]!]));
    if (cases[0]) return cases[0];
  }
  return signatureCase(p, ids.next(), provenance);
}

const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const chars = (rnd: () => number, alphabet: string, n: number): string => Array.from({ length: n }, () => pick(rnd, [...alphabet])).join('');
const HEX = '0123456789abcdef';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64 = `${ALNUM}+/`;

function randomParts(rnd: () => number): GivenParts {
  const method = pick(rnd, ['POST', 'POST', 'GET', 'PUT', 'DELETE', 'PATCH']);
  const path = pick(rnd, ['/pg/v2/file/generateUploadUrl', '/pg/v2/payment/create', '/pg/v2/payment/query', '/pg/v2/refund/apply', '/pg/v2/dispute/evidence/']);
  const host = pick(rnd, ['https://pg.example.com', 'https://pg.example.com:8443', 'https://PG.Example.com', 'http://localhost:8080']);
  const query = pick(rnd, ['', '', `?orderId=${chars(rnd, HEX, 8)}`, `?b=2&a=1&q=${pick(rnd, ['x%2Fy', 'x%2fy', 'caf%C3%A9', 'a+b'])}`]);
  const nonce = pick(rnd, [chars(rnd, HEX, 32), uuid(rnd), `${chars(rnd, B64, 22)}==`, `n-${Math.floor(rnd() * 1000)}`]);
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

function uuid(rnd: () => number): string {
  const h = chars(rnd, HEX, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
}

function randomBody(rnd: () => number): string {
  const text = pick(rnd, ['evidence', 'Zahlung für Bestellung', '订单付款', 'café ☕', 'emoji 😀 ok', 'a "quoted" \\ value', 'tab\there']);
  const obj = { merchantOrderId: `mo_${chars(rnd, HEX, 10)}`, amount: Math.floor(rnd() * 100000), currency: pick(rnd, ['KRW', 'USD', 'EUR']), description: text };
  let body = pick(rnd, [JSON.stringify(obj), JSON.stringify(obj, null, 2), JSON.stringify({ filename: `f-${chars(rnd, HEX, 4)}.pdf`, scene: 'DISPUTE_EVIDENCE' }), '']);
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

function describeBody(body: Uint8Array): string {
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
export function bytesField<T extends string, B extends string>(bytes: Uint8Array, text: T, b64: B): { [K in T]: string } | { [K in B]: string } {
  const buf = Buffer.from(bytes);
  const s = buf.toString('utf8');
  if (Buffer.from(s, 'utf8').equals(buf)) return { [text]: s } as { [K in T]: string };
  return { [b64]: buf.toString('base64') } as { [K in B]: string };
}

// --- internal: authorization ---

function randomItems(rnd: () => number): AuthorizationItems {
  return {
    appId: `app_${chars(rnd, HEX, 6)}`,
    sign: chars(rnd, HEX, 64),
    timestamp: String(1_600_000_000_000 + Math.floor(rnd() * 300_000_000_000)),
    nonce: pick(rnd, [chars(rnd, HEX, 32), uuid(rnd), `${chars(rnd, B64, 22)}==`]),
  };
}

function shuffle<T>(rnd: () => number, xs: readonly T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** The header written by hand (independent of formatAuthorization). */
function handHeader(scheme: string, pairs: ReadonlyArray<readonly [string, string]>): string {
  let s = `${scheme} `;
  pairs.forEach(([k, v], i) => {
    s += `${i > 0 ? ',' : ''}${k}=${v}`;
  });
  return s;
}

function randomAuthorizationCase(rnd: () => number, ids: IdAllocator, provenance: Provenance): Omit<AuthorizationCase, 'kind'> {
  const items = randomItems(rnd);
  const r = rnd();
  const equalsFlag = items.nonce.includes('=') ? ['EqualsInValue'] : [];
  const base = { spec: ['5.3'], readings: ['R8'], provenance };
  if (r < 0.2) {
    const header = formatAuthorization(items);
    const mine = handHeader('V2_SHA256', ITEM_NAMES.map((n) => [n, items[n]] as const));
    if (header !== mine) throw new GenerateCheckError(`formatAuthorization gave ${header}, the independent header is ${mine}`);
    return { id: ids.next(), comment: 'Generated: the four items formatted in the order of the spec example (5.3).', op: 'authorization.format', ...base, flags: [GENERATED_FLAG, ...equalsFlag], result: 'valid', inputs: { items }, expected: { header } } as Omit<AuthorizationCase, 'kind'>;
  }
  if (r < 0.65) {
    const order = shuffle(rnd, ITEM_NAMES);
    const header = handHeader('V2_SHA256', order.map((n) => [n, items[n]] as const));
    const answers = headerAnswers(header);
    if (answers.refusable || answers.accepted.length !== 1 || ITEM_NAMES.some((n) => answers.accepted[0]?.[n] !== items[n])) throw new GenerateCheckError(`R8 does not require every parser to return the items of ${header}`);
    const inSpecOrder = order.every((n, i) => n === ITEM_NAMES[i]);
    return {
      id: ids.next(),
      comment: `Generated: the four items in the order ${order.join(', ')}; the parser returns each value verbatim (R8).`,
      op: 'authorization.parse',
      ...base,
      flags: [GENERATED_FLAG, ...(inSpecOrder ? [] : ['HeaderOrder']), ...equalsFlag],
      result: 'valid',
      inputs: { header },
      expected: { items: { appId: items.appId, sign: items.sign, timestamp: items.timestamp, nonce: items.nonce } },
    } as Omit<AuthorizationCase, 'kind'>;
  }
  // One defect: an item missing, an item twice, or another scheme.
  const defect = pick(rnd, ['missing', 'duplicate', 'scheme'] as const);
  const order = shuffle(rnd, ITEM_NAMES);
  const target: ItemName = pick(rnd, ITEM_NAMES);
  let pairs: Array<readonly [string, string]> = order.map((n) => [n, items[n]] as const);
  let scheme = 'V2_SHA256';
  let intended: { kind: string; item?: string; scheme?: string };
  let flag: string;
  if (defect === 'missing') {
    pairs = pairs.filter(([n]) => n !== target);
    intended = { kind: 'missing-item', item: target };
    flag = 'MissingItem';
  } else if (defect === 'duplicate') {
    const other = randomItems(rnd)[target];
    pairs.splice(Math.floor(rnd() * (pairs.length + 1)), 0, [target, other]);
    intended = { kind: 'duplicate-item', item: target };
    flag = 'DuplicateItem';
  } else {
    scheme = pick(rnd, ['V1_SHA256', 'V2_SHA1', 'Bearer', 'V2-SHA256', 'HMAC_SHA256']);
    intended = { kind: 'wrong-scheme', scheme };
    flag = 'WrongScheme';
  }
  const header = handHeader(scheme, pairs);
  const parsed = parseAuthorization(header);
  if (parsed.ok || JSON.stringify(parsed.problem) !== JSON.stringify(intended) || headerAnswers(header).accepted.length > 0) {
    throw new GenerateCheckError(`the reference parser's answer to a header with one defect (${intended.kind}) is not that defect`);
  }
  return {
    id: ids.next(),
    comment: `Generated: a header with one defect (${intended.kind}${intended.item ? ` ${intended.item}` : ''}); it must be refused (5.3).`,
    op: 'authorization.parse',
    ...base,
    flags: [GENERATED_FLAG, flag],
    result: 'invalid',
    inputs: { header },
    expected: { problem: intended },
  } as Omit<AuthorizationCase, 'kind'>;
}

// --- internal: signed messages (response, webhook, redirect) ---

/** The V2_SHA256 header of signed parts, written by hand. */
function signedHeader(p: GivenParts, s: string): string {
  return handHeader('V2_SHA256', [['appId', p.appId], ['sign', s], ['timestamp', p.timestamp], ['nonce', p.nonce]]);
}

/** The reference's answer must be the case's: valid, or the intended problem kind. */
function agree(outcome: VerifyOutcome, problem: { kind: string; parameter?: string } | undefined, what: string): void {
  const ok = problem === undefined ? outcome.valid : !outcome.valid && outcome.problem.kind === problem.kind && (problem.parameter === undefined || ('parameter' in outcome.problem && outcome.problem.parameter === problem.parameter));
  if (!ok) throw new GenerateCheckError(`the reference verifier's answer to the generated ${what} case (${outcome.valid ? 'valid' : outcome.problem.kind}) is not the intended ${problem?.kind ?? 'valid'}; nothing was written`);
}

/** A byte of the body changed after signing (a digit or letter replaced). */
function tamper(rnd: () => number, text: string): string {
  const at = [...text.matchAll(/[0-9A-Za-z]/g)].map((m) => m.index);
  const i = pick(rnd, at);
  const c = text[i]!;
  const r = /[0-9]/.test(c) ? String((Number(c) + 1) % 10) : c === 'x' ? 'y' : 'x';
  return text.slice(0, i) + r + text.slice(i + 1);
}

function randomTimestamp(rnd: () => number): string {
  return String(1_600_000_000_000 + Math.floor(rnd() * 300_000_000_000));
}

function randomNonce(rnd: () => number): string {
  return pick(rnd, [chars(rnd, HEX, 32), uuid(rnd), `${chars(rnd, B64, 22)}==`]);
}

const ATTACH = ['a+b&c=d 100% #7', 'cart=8812', 'Zahlung für Bestellung', '订单 付款', 'café ☕ + tea', 'x=1&y=2', '50% off', ''];

function paymentJson(rnd: () => number): { paymentNo: string; merchantTradeNo: string; text: string } {
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

type Defect<D extends string> = 'valid' | D;

function verifyBase(p: GivenParts, flags: readonly string[], problem: { kind: string; parameter?: string } | undefined, withContent: boolean): { flags: string[]; result: 'valid' | 'invalid'; expected: Record<string, unknown> } {
  const expected: Record<string, unknown> = withContent ? { ...bytesField(checkedSign(p).content, 'content', 'contentB64') } : {};
  if (problem) expected['problem'] = problem;
  return { flags: [GENERATED_FLAG, ...flags], result: problem ? 'invalid' : 'valid', expected };
}

function randomResponseCase(rnd: () => number, ids: IdAllocator, provenance: Provenance): Omit<ResponseCase, 'kind'> {
  const defect: Defect<'tampered' | 'other-url' | 'no-authorization' | 'status'> = pick(rnd, ['valid', 'valid', 'tampered', 'other-url', 'no-authorization', 'status']);
  const req = randomParts(rnd);
  const data = { paymentNo: `PAY${chars(rnd, '0123456789', 16)}`, merchantTradeNo: `SO-${chars(rnd, HEX, 8)}`, status: pick(rnd, ['PENDING', 'SUCCESS']), note: pick(rnd, ATTACH) };
  const status = defect === 'status' ? pick(rnd, [400, 401, 500, 503, 201]) : 200;
  const envelope = status === 200 ? { code: 'OK', errorMessage: null, data } : { code: 'ERROR', errorMessage: 'request refused', data: null };
  const bodyText = rnd() < 0.3 ? JSON.stringify(envelope, null, 2) : JSON.stringify(envelope);
  const p: GivenParts = { ...req, timestamp: randomTimestamp(rnd), nonce: randomNonce(rnd), body: Buffer.from(bodyText, 'utf8') };
  const signed: GivenParts = defect === 'other-url' ? { ...p, url: new URL(p.url).pathname } : p;
  const { sign: s } = checkedSign(signed);
  const received = defect === 'tampered' ? tamper(rnd, bodyText) : bodyText;
  const authorization = defect === 'no-authorization' ? null : signedHeader(p, s);
  const problem = defect === 'valid' ? undefined : defect === 'status' ? { kind: 'status-not-verified' } : defect === 'no-authorization' ? { kind: 'no-authorization' } : { kind: 'sign-mismatch' };
  const inputs = { appId: p.appId, appSecret: p.appSecret, method: p.method, url: p.url, status, authorization, body: received };
  agree(verifyResponse(inputs), problem, 'response');
  const flag = { valid: 'RawResponse', tampered: 'Tampered', 'other-url': 'PathInsteadOfUrl', 'no-authorization': 'NoAuthorization', status: 'NonSuccessStatus' }[defect];
  const base = verifyBase({ ...p, body: Buffer.from(received, 'utf8') }, [flag, ...(/[^\x00-\x7f]/.test(received) ? ['NonAscii'] : [])], problem, defect !== 'status' && defect !== 'no-authorization');
  const comment = {
    valid: 'Generated: a 2.3 envelope with status 200, signed over its raw bytes with the request method and URL (5.4).',
    tampered: 'Generated: a signed 200 whose body had one byte changed after signing; it must be refused (5.4).',
    'other-url': 'Generated: a 200 signed over the request path instead of its full URL; it must be refused (5.4, R9).',
    'no-authorization': 'Generated: a 200 without Authorization; it must be refused (5.4, R9).',
    status: `Generated: a correctly signed response with status ${status}; only a 200 is verified (5.4, R9).`,
  }[defect];
  return { id: ids.next(), comment, spec: ['5.4', '2.3'], readings: ['R9'], ...base, inputs, provenance } as Omit<ResponseCase, 'kind'>;
}

function randomWebhookCase(rnd: () => number, ids: IdAllocator, provenance: Provenance): Omit<WebhookCase, 'kind'> {
  const defect: Defect<'tampered' | 'delivery-url' | 'no-authorization'> = pick(rnd, ['valid', 'valid', 'tampered', 'delivery-url', 'no-authorization']);
  const host = pick(rnd, ['https://shop.example.net', 'https://merchant.example.org:8443']);
  const path = pick(rnd, ['/hooks/pg', '/api/pg/notify', '/pg/notify/']);
  const query = pick(rnd, ['', `?store=${chars(rnd, HEX, 4)}`]);
  const notifyUrl = `${host}${path}${query}`;
  const deliveryUrl = pick(rnd, [`http://10.0.0.${1 + Math.floor(rnd() * 250)}:8080${path}${query}`, `${host}${path}${query === '' ? '?via=proxy' : ''}`, `http://localhost:3000${path}${query}`]);
  const pay = paymentJson(rnd);
  const bodyText = pay.text;
  const p: GivenParts = { appId: `app_${chars(rnd, HEX, 6)}`, appSecret: `sk_test_${chars(rnd, ALNUM, 24)}`, method: 'POST', url: notifyUrl, timestamp: randomTimestamp(rnd), nonce: randomNonce(rnd), body: Buffer.from(bodyText, 'utf8') };
  const signed: GivenParts = defect === 'delivery-url' ? { ...p, url: deliveryUrl } : p;
  const { sign: s } = checkedSign(signed);
  const received = defect === 'tampered' ? tamper(rnd, bodyText) : bodyText;
  const authorization = defect === 'no-authorization' ? null : signedHeader(p, s);
  const problem = defect === 'valid' ? undefined : defect === 'no-authorization' ? { kind: 'no-authorization' } : { kind: 'sign-mismatch' };
  const inputs = { appId: p.appId, appSecret: p.appSecret, notifyUrl, deliveryUrl, method: 'POST', authorization, body: received };
  agree(verifyWebhook(inputs), problem, 'webhook');
  const flag = { valid: 'NotifyUrlAsSubmitted', tampered: 'Tampered', 'delivery-url': 'NotifyUrlAsSubmitted', 'no-authorization': 'NoAuthorization' }[defect];
  const base = verifyBase({ ...p, body: Buffer.from(received, 'utf8') }, [flag, ...(/[^\x00-\x7f]/.test(received) ? ['NonAscii'] : [])], problem, defect !== 'no-authorization');
  const comment = {
    valid: 'Generated: a 2.5 payload signed over the notifyUrl as submitted; it arrived on another URL (5.5, R10).',
    tampered: 'Generated: a signed webhook whose body had one byte changed after signing; it must be refused (5.5).',
    'delivery-url': 'Generated: a webhook signed over the URL it was delivered on, not the notifyUrl as submitted; it must be refused (R10).',
    'no-authorization': 'Generated: a webhook without Authorization; it must be refused (5.5).',
  }[defect];
  return { id: ids.next(), comment, spec: ['5.5', '2.5'], readings: ['R10'], ...base, inputs, provenance } as Omit<WebhookCase, 'kind'>;
}

/** Query encoding as a gateway does it: encodeURIComponent, or form style (space as "+"). */
function encodeQuery(text: string, form: boolean): string {
  const e = encodeURIComponent(text);
  return form ? e.replace(/%20/g, '+') : e;
}

function randomRedirectCase(rnd: () => number, ids: IdAllocator, provenance: Provenance): Omit<RedirectCase, 'kind'> {
  const defect: Defect<'tampered' | 'encoded-payment' | 'missing'> = pick(rnd, ['valid', 'valid', 'tampered', 'encoded-payment', 'missing']);
  const returnUrl = `${pick(rnd, ['https://shop.example.net', 'https://merchant.example.org:8443'])}${pick(rnd, ['/checkout/return', '/pay/done', '/r/'])}${pick(rnd, ['', '', `?order=${chars(rnd, HEX, 6)}`, '?lang=fr&ref=mail'])}`;
  const pay = paymentJson(rnd);
  const form = rnd() < 0.5;
  const encoded = encodeQuery(pay.text, form);
  const p: GivenParts = { appId: `app_${chars(rnd, HEX, 6)}`, appSecret: `sk_test_${chars(rnd, ALNUM, 24)}`, method: 'GET', url: returnUrl, timestamp: randomTimestamp(rnd), nonce: randomNonce(rnd), body: Buffer.from(`payment=${pay.text}`, 'utf8') };
  const signed: GivenParts = defect === 'encoded-payment' ? { ...p, body: Buffer.from(`payment=${encoded}`, 'utf8') } : p;
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
  const redirectUrl = `${returnUrl}${returnUrl.includes('?') ? '&' : '?'}${kept.map(([n, v]) => `${n}=${v}`).join('&')}`;
  const problem = defect === 'valid' ? undefined : defect === 'missing' ? { kind: 'redirect-parameter', parameter: missing } : { kind: 'sign-mismatch' };
  const inputs = { appId: p.appId, appSecret: p.appSecret, returnUrl, redirectUrl };
  const outcome = verifyRedirect(inputs);
  agree(outcome, problem, 'redirect');
  if (defect === 'valid' && outcome.payment !== pay.text) throw new GenerateCheckError('the reference verifier does not decode the generated payment to the text signed; nothing was written');
  const flags = [...(defect === 'valid' || defect === 'tampered' ? ['RedirectDecoded'] : defect === 'encoded-payment' ? ['RedirectEncodedPayment'] : ['RedirectParameterCount']), ...(form && / /.test(pay.text) ? ['RedirectPlusAsSpace'] : []), ...(/[^\x00-\x7f]/.test(pay.text) ? ['NonAscii'] : [])];
  const base = verifyBase({ ...p, body: Buffer.from(`payment=${receivedText}`, 'utf8') }, flags, problem, defect !== 'missing');
  if (defect === 'valid') base.expected['payment'] = pay.text;
  const comment = {
    valid: `Generated: the returnUrl with paymentNo, merchantTradeNo, payment and authorization added (${form ? 'form-encoded' : 'encodeURIComponent'}); signed over the decoded payment (5.6, R11).`,
    tampered: 'Generated: a redirect whose payment had one character changed after signing; it must be refused (5.6).',
    'encoded-payment': 'Generated: a redirect signed over the still-encoded payment value; it must be refused (R11).',
    missing: `Generated: a redirect without its ${missing} parameter; it must be refused (R11).`,
  }[defect];
  return { id: ids.next(), comment, spec: ['5.6', '2.5'], readings: ['R11'], ...base, inputs, provenance } as Omit<RedirectCase, 'kind'>;
}
