/**
 * The properties every target is held to, as data (spec §5.1–§5.3; readings R1–R8): each
 * draws inputs that reach real bugs (./inputs.ts), calls the target's protocol operations,
 * and judges the answer by the reference and the readings — the R8 answers on parsing and
 * verification included — so no property fails a defensible implementation.
 * @module
 */
import fc from 'fast-check';
import { findMistakes, mistakenContents } from '../diagnosis/mistakes.js';
import type { Diagnosis } from '../diagnosis/diagnosis.js';
import type { CounterexampleVector } from '../vectors/counterexample.js';
import {
  ITEM_NAMES,
  formatAuthorization,
  parseAuthorization,
  type AuthorizationItems,
  type ItemName,
} from '../scheme/authorization.js';
import { bytesEqual, fromBase64, toBase64 } from '../scheme/bytes.js';
import { signatureContent } from '../scheme/content.js';
import { judgeHeader, parserAnswer } from '../scheme/header-answers.js';
import { sign } from '../scheme/sign.js';
import { verifyAnswers } from '../scheme/verify-answers.js';
import { itemsArb, itemOrderArb } from '../fuzz/arbitraries.js';
import type { Operation } from '../protocol/operations.js';
import type { Answer, Json, Subject } from '../subjects/subject.js';
import { anyPartsArb, changeArb, propertyPartsArb, type Change, type PropertyParts } from './inputs.js';

/** Why one input breaks a property: the operation, what was expected and got, a known mistake. */
export interface PropertyFailure {
  readonly op: Operation;
  readonly reason: string;
  readonly expected: Json;
  readonly got: Json;
  /** The known mistakes that explain the answer: worked out only for the final counterexample (it can be costly). */
  readonly diagnose?: () => readonly Diagnosis[];
}

/** A property: an id, what it stands for, the operations it calls, its inputs and its judgement. */
export interface PropertyDef<T> {
  /** Stable id, `property.<family>.<name>`. */
  readonly id: string;
  readonly comment: string;
  readonly spec: readonly string[];
  readonly readings: readonly string[];
  /** The operations it calls; it runs only against a target that offers every one. */
  readonly operations: readonly Operation[];
  readonly arbitrary: fc.Arbitrary<T>;
  /** What is wrong with the target's answers for one input, or undefined. */
  judge(input: T, subject: Subject, id: string): Promise<PropertyFailure | undefined>;
  /** The input as data, for reports (bodies as base64). */
  show(input: T): Json;
  /** The counterexample as a vector case's data, when one can hold it (`--save`). */
  asVector?(input: T, failure: PropertyFailure): CounterexampleVector | undefined;
}

/**
 * Declares a property (identity function that fixes the types).
 * @param p - the property
 * @returns the same property
 * @example defineProperty(PROPERTIES[0]) === PROPERTIES[0] // true
 */
export function defineProperty<T>(p: PropertyDef<T>): PropertyDef<T> {
  return p;
}

/** The input of verify.exact: a message, signed genuinely, then perhaps changed by one byte. */
interface Tampered {
  readonly parts: PropertyParts;
  readonly change: Change;
  readonly order: readonly ItemName[];
}

/** Every property, in report order. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one list of properties over inputs of different types
export const PROPERTIES: ReadonlyArray<PropertyDef<any>> = [
  defineProperty<PropertyParts>({
    id: 'property.lf.content',
    comment:
      'The signature content is the seven parts, each followed by one LF, the body as its exact ' +
      'bytes (bodies up to 64 KiB, ending in LF, CRLF, white space; bytes that are not UTF-8).',
    spec: ['5.1'],
    readings: ['R1', 'R2', 'R3'],
    operations: ['signature.content'],
    arbitrary: anyPartsArb,
    async judge(parts, subject, id) {
      const expected = signatureContent(parts);
      const answer = await subject.call('signature.content', { ...partsInput(parts) }, id);
      const got = field(answer, 'contentB64');
      if (typeof got !== 'string') return notAnswered('signature.content', answer, toBase64(expected));
      let bytes: Uint8Array;
      try {
        bytes = fromBase64(got);
      } catch {
        return { op: 'signature.content', reason: 'contentB64 is not base64', expected: toBase64(expected), got };
      }
      if (bytesEqual(bytes, expected)) return undefined;
      const diagnose = (): Diagnosis[] =>
        mistakenContents(parts)
          .filter(({ content }) => bytesEqual(content, bytes))
          .map(({ mistake }) => asDiagnosis(mistake, 'content'));
      return {
        op: 'signature.content',
        reason:
          `content differs from the expected (expected ${expected.byteLength} ` +
          `bytes, got ${bytes.byteLength}; body of ${parts.body.byteLength} bytes)`,
        expected: toBase64(expected),
        got,
        diagnose,
      };
    },
    show: showParts,
    asVector: (parts) => signatureVector(parts),
  }),
  defineProperty<PropertyParts>({
    id: 'property.lf.sign',
    comment: 'The sign is the SHA-256 of the content of 5.1, whatever the body (up to 64 KiB, any bytes, any ending).',
    spec: ['5.1', '5.2'],
    readings: ['R1', 'R2', 'R3'],
    operations: ['signature.sign'],
    arbitrary: anyPartsArb,
    async judge(parts, subject, id) {
      const expected = sign(parts);
      const answer = await subject.call('signature.sign', { ...partsInput(parts) }, id);
      const got = field(answer, 'sign');
      if (typeof got !== 'string') return notAnswered('signature.sign', answer, expected);
      if (got.toLowerCase() === expected) return undefined;
      const diagnose = (): Diagnosis[] => findMistakes(parts, got).map((m) => asDiagnosis(m, 'sign'));
      return {
        op: 'signature.sign',
        reason: `sign differs from the SHA-256 of the content (body of ${parts.body.byteLength} bytes)`,
        expected,
        got,
        diagnose,
      };
    },
    show: showParts,
    asVector: (parts) => signatureVector(parts),
  }),
  defineProperty<PropertyParts>({
    id: 'property.hex.lowercase',
    comment: 'A signer writes the sign as 64 lower-case hex digits, two per byte.',
    spec: ['5.2'],
    readings: ['R7'],
    operations: ['signature.sign'],
    arbitrary: propertyPartsArb,
    async judge(parts, subject, id) {
      const answer = await subject.call('signature.sign', { ...partsInput(parts) }, id);
      const got = field(answer, 'sign');
      if (typeof got !== 'string') return notAnswered('signature.sign', answer, '64 lower-case hex digits');
      if (/^[0-9a-f]{64}$/.test(got)) return undefined;
      const upper = /^[0-9a-fA-F]{64}$/.test(got);
      return {
        op: 'signature.sign',
        reason: upper
          ? 'the sign has upper-case hex digits (R7: signers emit lower case)'
          : `the sign is not 64 hex digits (${got.length} characters)`,
        expected: '64 lower-case hex digits',
        got,
        ...(upper
          ? {
              diagnose: () => [
                {
                  mistake: 'uppercase-hex',
                  message: 'your sign is the right digest in upper-case hex',
                  ref: '§5.2, R7',
                },
              ],
            }
          : {}),
      };
    },
    show: showParts,
    asVector: (parts) => signatureVector(parts),
  }),
  defineProperty<{ readonly items: AuthorizationItems; readonly order: readonly ItemName[] }>({
    id: 'property.header.order',
    comment:
      'A parser returns the four values exactly as written, whatever ' +
      'the item order (header-safe values: "=" inside, non-ASCII, long).',
    spec: ['5.3'],
    readings: ['R8'],
    operations: ['authorization.parse'],
    arbitrary: fc.record({ items: itemsArb, order: itemOrderArb }),
    async judge({ items, order }, subject, id) {
      const header = formatAuthorization(items, order);
      return judgeParse(subject, header, id, { ...items });
    },
    show: ({ items, order }) => ({ header: formatAuthorization(items, order) }),
    asVector: ({ items, order }) => ({
      area: 'authorization',
      header: formatAuthorization(items, order),
      flags: ['HeaderOrder'],
    }),
  }),
  defineProperty<{
    readonly items: AuthorizationItems;
    readonly order: readonly ItemName[];
    readonly name: ItemName;
    readonly other: AuthorizationItems | undefined;
    readonly at: number;
  }>({
    id: 'property.header.duplicate',
    comment:
      'A parser refuses a header that carries one of the four items ' +
      'twice (any item, any position, the same or another value).',
    spec: ['5.3'],
    readings: ['R8'],
    operations: ['authorization.parse'],
    arbitrary: fc.record({
      items: itemsArb,
      order: itemOrderArb,
      name: fc.constantFrom(...ITEM_NAMES),
      other: fc.option(itemsArb, { nil: undefined }),
      at: fc.nat(),
    }),
    async judge(d, subject, id) {
      return judgeParse(subject, duplicated(d), id, 'refuse');
    },
    show: (d) => ({ header: duplicated(d) }),
    asVector: (d) => ({ area: 'authorization', header: duplicated(d) }),
  }),
  defineProperty<{
    readonly items: AuthorizationItems;
    readonly order: readonly ItemName[];
    readonly missing: ItemName;
  }>({
    id: 'property.header.missing',
    comment: 'A parser refuses a header that lacks one of the four items.',
    spec: ['5.3'],
    readings: ['R8'],
    operations: ['authorization.parse'],
    arbitrary: fc.record({ items: itemsArb, order: itemOrderArb, missing: fc.constantFrom(...ITEM_NAMES) }),
    async judge(m, subject, id) {
      return judgeParse(subject, withoutItem(m), id, 'refuse');
    },
    show: (m) => ({ header: withoutItem(m) }),
    asVector: (m) => ({ area: 'authorization', header: withoutItem(m) }),
  }),
  defineProperty<AuthorizationItems>({
    id: 'property.header.roundtrip',
    comment:
      'A formatter writes a header R8 parses back to the same ' +
      'four values; the target parses its own header back to them.',
    spec: ['5.3'],
    readings: ['R8'],
    operations: ['authorization.format'],
    arbitrary: itemsArb,
    async judge(items, subject, id) {
      const answer = await subject.call('authorization.format', { ...items }, id);
      const header = field(answer, 'header');
      if (typeof header !== 'string') return notAnswered('authorization.format', answer, { ...items });
      const back = parseAuthorization(header, { strict: true });
      if (!back.ok)
        return {
          op: 'authorization.format',
          reason: `the header does not follow 5.3 strictly: ${back.message}`,
          expected: { ...items },
          got: header,
        };
      const wrong = ITEM_NAMES.find((n) => back.items[n] !== items[n]);
      if (wrong)
        return {
          op: 'authorization.format',
          reason:
            `the header carries ${wrong}=${JSON.stringify(back.items[wrong])}, ` +
            `not ${JSON.stringify(items[wrong])}`,
          expected: { ...items },
          got: header,
        };
      if (!subject.operations.includes('authorization.parse')) return undefined;
      return judgeParse(subject, header, `${id}.parse`, { ...items });
    },
    show: (items) => ({ ...items }),
    // the formatter's failure is a format case; its parser's failure on its own header has no case of its own
    asVector: (items, failure) =>
      failure.op === 'authorization.format' ? { area: 'authorization', items: { ...items } } : undefined,
  }),
  exactness(
    'request.verify',
    'property.verify.exact',
    'A verifier accepts the message as signed and refuses it when one byte of the body, the URL, ' +
      'the method, the timestamp, the nonce or the appId changed after signing (bodies up to 64 KiB).',
    ['5.1', '5.2', '5.3'],
    ['R3', 'R4', 'R5', 'R6', 'R8', 'R9'],
  ),
  exactness(
    'response.verify',
    'property.verify.response-exact',
    'A client accepts a 200 response as signed over its raw bytes and refuses it when one byte of the ' +
      'body, the request URL or method, the timestamp, the nonce or the appId changed (bodies up to 64 KiB).',
    ['5.4'],
    ['R3', 'R6', 'R8', 'R9'],
  ),
  exactness(
    'webhook.verify',
    'property.verify.webhook-exact',
    'A merchant accepts a webhook as signed over its raw body and notifyUrl and refuses it when one byte of ' +
      'the body, the notifyUrl, the method, the timestamp, the nonce or the appId changed (bodies up to 64 KiB).',
    ['5.5'],
    ['R3', 'R6', 'R8', 'R10'],
  ),
  defineProperty<PropertyParts>({
    id: 'property.verify.self',
    comment: 'A target that signs and verifies accepts what it signed itself.',
    spec: ['5.1', '5.2', '5.3'],
    readings: ['R3', 'R6'],
    operations: ['signature.sign', 'request.verify'],
    arbitrary: propertyPartsArb,
    async judge(parts, subject, id) {
      const signed = await subject.call('signature.sign', { ...partsInput(parts) }, id);
      const s = field(signed, 'sign');
      if (typeof s !== 'string') return notAnswered('signature.sign', signed, sign(parts));
      let header: string;
      try {
        header = formatAuthorization({ appId: parts.appId, sign: s, timestamp: parts.timestamp, nonce: parts.nonce });
      } catch {
        return {
          op: 'signature.sign',
          reason: 'the sign cannot be carried in an Authorization header',
          expected: sign(parts),
          got: s,
        };
      }
      const answer = await subject.call(
        'request.verify',
        {
          appId: parts.appId,
          appSecret: parts.appSecret,
          method: parts.method,
          url: parts.url,
          authorization: header,
          bodyB64: toBase64(parts.body),
        },
        `${id}.verify`,
      );
      const valid = 'rejected' in answer ? false : field(answer, 'valid');
      if (valid === true) return undefined;
      if (typeof valid !== 'boolean') return notAnswered('request.verify', answer, 'accept');
      return {
        op: 'request.verify',
        reason: `refused a message it signed itself (body of ${parts.body.byteLength} bytes)`,
        expected: 'accept',
        got: answer as unknown as Json,
      };
    },
    show: showParts,
    asVector: (parts) => signatureVector(parts),
  }),
];

// --- internal ---

type VerifyOp = 'request.verify' | 'response.verify' | 'webhook.verify';

/** The exactness property of one verify operation: the genuine message accepted, one byte changed refused. */
function exactness(
  op: VerifyOp,
  id: string,
  comment: string,
  spec: readonly string[],
  readings: readonly string[],
): PropertyDef<Tampered> {
  return defineProperty<Tampered>({
    id,
    comment,
    spec,
    readings,
    operations: [op],
    arbitrary: fc.record({ parts: propertyPartsArb, change: changeArb, order: itemOrderArb }),
    async judge(t, subject, caseId) {
      // the message as signed must be accepted; the same message with one byte changed, refused
      const genuine = await verifyOne(
        op,
        subject,
        t.parts,
        t.parts,
        formatAuthorization(signedItems(t.parts), t.order),
        caseId,
      );
      if (genuine !== undefined) return genuine;
      const { received, header, what } = tamper(t);
      return verifyOne(op, subject, t.parts, received, header, `${caseId}.changed`, what);
    },
    show: (t) => ({ parts: showParts(t.parts), change: { ...t.change }, header: tamper(t).header }),
    // a case of the operation's own kind: the genuine message refused (must be accepted), or the changed one accepted
    // (must be refused)
    asVector: (t, failure) => {
      const area = op === 'request.verify' ? 'request' : op === 'response.verify' ? 'response' : 'webhook';
      const genuine = failure.expected === 'accept';
      const { received, header } = genuine
        ? { received: t.parts, header: formatAuthorization(signedItems(t.parts), t.order) }
        : tamper(t);
      const message = {
        appId: t.parts.appId,
        appSecret: t.parts.appSecret,
        method: received.method,
        url: received.url,
        authorization: header,
        bodyB64: toBase64(received.body),
      };
      return genuine
        ? { area, result: 'valid', message }
        : { area, result: 'invalid', changed: t.change.part, message };
    },
  });
}

function partsInput(p: PropertyParts): Record<string, Json> {
  return {
    appId: p.appId,
    appSecret: p.appSecret,
    method: p.method,
    url: p.url,
    timestamp: p.timestamp,
    nonce: p.nonce,
    bodyB64: toBase64(p.body),
  };
}

/** The parts as data for a report: a long body by its length, first and last bytes (the replay gives it whole). */
function signatureVector(p: PropertyParts): CounterexampleVector {
  return {
    area: 'signature',
    parts: {
      appId: p.appId,
      appSecret: p.appSecret,
      method: p.method,
      url: p.url,
      timestamp: p.timestamp,
      nonce: p.nonce,
      bodyB64: toBase64(p.body),
    },
  };
}

function showParts(p: PropertyParts): Json {
  const n = p.body.byteLength;
  const body: Record<string, Json> =
    n <= 96
      ? { bodyB64: toBase64(p.body) }
      : { bodyFirst48B64: toBase64(p.body.subarray(0, 48)), bodyLast48B64: toBase64(p.body.subarray(n - 48)) };
  return {
    appId: p.appId,
    method: p.method,
    url: p.url,
    timestamp: p.timestamp,
    nonce: p.nonce,
    bodyLength: n,
    ...body,
  };
}

function field(answer: Answer, name: string): unknown {
  return 'result' in answer ? answer.result[name] : undefined;
}

function notAnswered(op: Operation, answer: Answer, expected: Json): PropertyFailure {
  const got = answer as unknown as Json;
  if ('failed' in answer) return { op, reason: `the implementation failed: ${answer.failed.reason}`, expected, got };
  if ('unsupported' in answer)
    return { op, reason: `answered unsupported: ${answer.unsupported.reason}`, expected, got };
  if ('rejected' in answer) return { op, reason: `rejected: ${answer.rejected.reason}`, expected, got };
  return { op, reason: 'the answer lacks the field the operation returns', expected, got };
}

function asDiagnosis(
  m: { readonly id: string; readonly description: string; readonly ref: string },
  what: 'content' | 'sign',
): Diagnosis {
  return {
    mistake: m.id,
    message:
      what === 'content'
        ? `your content is the content in which ${m.description}`
        : `your sign is the sign of the content in which ${m.description}`,
    ref: m.ref,
  };
}

async function judgeParse(
  subject: Subject,
  header: string,
  id: string,
  expected: Json,
): Promise<PropertyFailure | undefined> {
  const answer = await subject.call('authorization.parse', { header }, id);
  if (!('rejected' in answer) && !('result' in answer)) return notAnswered('authorization.parse', answer, expected);
  const judged = judgeHeader(header, parserAnswer(answer));
  return judged.ok
    ? undefined
    : {
        op: 'authorization.parse',
        reason: `${judged.reason} (header ${JSON.stringify(header).slice(0, 120)})`,
        expected,
        got: answer as unknown as Json,
      };
}

/** A strict header with one item written twice (R8: refused by every reading). */
function duplicated(d: {
  readonly items: AuthorizationItems;
  readonly order: readonly ItemName[];
  readonly name: ItemName;
  readonly other: AuthorizationItems | undefined;
  readonly at: number;
}): string {
  const pairs = d.order.map((n) => `${n}=${d.items[n]}`);
  pairs.splice(d.at % (pairs.length + 1), 0, `${d.name}=${(d.other ?? d.items)[d.name]}`);
  return `V2_SHA256 ${pairs.join(',')}`;
}

/** A strict header without one item. */
function withoutItem(m: {
  readonly items: AuthorizationItems;
  readonly order: readonly ItemName[];
  readonly missing: ItemName;
}): string {
  return `V2_SHA256 ${m.order
    .filter((n) => n !== m.missing)
    .map((n) => `${n}=${m.items[n]}`)
    .join(',')}`;
}

/** The items of a genuine signature over the parts. */
function signedItems(p: PropertyParts): Record<ItemName, string> {
  return { appId: p.appId, sign: sign(p), timestamp: p.timestamp, nonce: p.nonce };
}

/**
 * One verification of a message, judged by R7–R10 over every parse R8 allows (`changed`: what changed after
 * signing, if anything).
 */
async function verifyOne(
  op: VerifyOp,
  subject: Subject,
  signed: PropertyParts,
  received: PropertyParts,
  header: string,
  id: string,
  changed?: string,
): Promise<PropertyFailure | undefined> {
  const allowed = verifyAnswers(
    {
      appId: signed.appId,
      appSecret: signed.appSecret,
      method: received.method,
      url: received.url,
      body: received.body,
    },
    header,
  );
  const creds = {
    appId: signed.appId,
    appSecret: signed.appSecret,
    authorization: header,
    bodyB64: toBase64(received.body),
  };
  const input: Record<string, Json> =
    op === 'webhook.verify'
      ? { ...creds, notifyUrl: received.url, method: received.method }
      : op === 'response.verify'
        ? { ...creds, method: received.method, url: received.url, status: 200 }
        : { ...creds, method: received.method, url: received.url };
  const answer = await subject.call(op, input, id);
  const valid = 'rejected' in answer ? false : field(answer, 'valid');
  if (typeof valid !== 'boolean') return notAnswered(op, answer, allowed.mayRefuse ? 'refuse' : 'accept');
  const size = `body of ${received.body.byteLength} bytes`;
  if (valid && !allowed.mayAccept)
    return {
      op,
      reason: `accepted a message whose ${changed ?? 'content'} changed after signing (${size})`,
      expected: 'refuse',
      got: answer as unknown as Json,
    };
  if (!valid && !allowed.mayRefuse)
    return {
      op,
      reason: `refused the message exactly as signed (${size})`,
      expected: 'accept',
      got: answer as unknown as Json,
    };
  return undefined;
}

/**
 * The message as received after the change, its header (the genuine sign, items in the drawn order), and what changed.
 */
function tamper(t: Tampered): { received: PropertyParts; header: string; what: string } {
  const p = t.parts;
  const items = signedItems(p);
  const c = t.change;
  let received = p;
  let what = 'nothing';
  if (c.part === 'body') {
    const body = new Uint8Array(p.body.byteLength === 0 ? 1 : p.body.byteLength);
    body.set(p.body);
    const at = c.at % body.byteLength;
    body[at] = ((body[at] ?? 0) ^ c.delta) & 0xff;
    received = { ...p, body };
    what = `body (byte ${at})`;
  } else if (c.part === 'url') {
    received = { ...p, url: changeUrl(p.url, c.at, c.delta) };
    what = 'URL';
  } else if (c.part === 'method') {
    received = { ...p, method: changeChar(p.method, c.at, c.delta, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') };
    what = 'method';
  } else if (c.part === 'timestamp') {
    items.timestamp = changeChar(p.timestamp, c.at, c.delta, '0123456789');
    what = 'timestamp';
  } else if (c.part === 'nonce') {
    items.nonce = changeChar(p.nonce, c.at, c.delta, 'abcdefghijklmnopqrstuvwxyz0123456789');
    what = 'nonce';
  } else if (c.part === 'appId') {
    items.appId = changeChar(p.appId, c.at, c.delta, 'abcdefghijklmnopqrstuvwxyz0123456789');
    what = 'appId';
  }
  return { received, header: formatAuthorization(items, t.order), what };
}

/** One character replaced by another of the alphabet that differs from it, letter case ignored. */
function changeChar(text: string, at: number, delta: number, alphabet: string): string {
  const chars = [...text];
  if (chars.length === 0) return alphabet[0] ?? 'x';
  const i = at % chars.length;
  const old = (chars[i] ?? '').toLowerCase();
  let k = delta % alphabet.length;
  let next = alphabet[k] ?? 'x';
  while (next.toLowerCase() === old) next = alphabet[(k = (k + 1) % alphabet.length)] ?? 'x';
  chars[i] = next;
  return chars.join('');
}

/** One letter or digit of the path or query changed (outside percent-escapes, which RFC 3986 equates by case). */
function changeUrl(url: string, at: number, delta: number): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const candidates: number[] = [];
  for (let i = Math.max(start, 0); i < url.length; i++) {
    const inEscape = url[i - 1] === '%' || url[i - 2] === '%';
    if (!inEscape && /[A-Za-z0-9]/.test(url[i] ?? '')) candidates.push(i);
  }
  if (start < 0 || candidates.length === 0) return `${url}${start < 0 ? '/' : ''}x`;
  const i = candidates[at % candidates.length] ?? 0;
  const changed = changeChar(url[i] ?? 'a', 0, delta, 'abcdefghijklmnopqrstuvwxyz0123456789');
  return `${url.slice(0, i)}${changed}${url.slice(i + 1)}`;
}
