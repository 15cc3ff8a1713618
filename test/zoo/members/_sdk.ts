/**
 * The zoo's mini SDK: a small, correct client/merchant-side implementation of the
 * V2_SHA256 scheme written the way an SDK is written (node:crypto, Buffer, one method
 * per step), and the wrapper that turns it into a subject.
 *
 * A zoo member subclasses {@link ZooSdk}, overrides the ONE method that holds its bug
 * (the content builder, the hex encoder, one step of the header parser, the appId check,
 * the status check, the redirect's decoding, the form's part order, the length count…)
 * and hands {@link zooSubject} the operations whose code path goes through that method.
 * Every other operation is answered by the reference subject unchanged. Because the
 * methods call each other as a real SDK's do (verify builds the content with
 * `this.content`, parses with `this.parseHeader`), a bug reaches every operation that
 * uses the method, and no other.
 *
 * The SDK itself (no override, every operation routed to it) passes every vector: the
 * zoo test checks that as the "control" run, so a member's failures are its bug's.
 * @module
 */
import { isUtf8 } from 'node:buffer';
import { createHash, timingSafeEqual } from 'node:crypto';
import { decodeQueryComponent, queryParameters } from '../../../src/scheme/redirect.js';
import { createReferenceSubject } from '../../../src/subjects/reference.js';
import type { Operation } from '../../../src/protocol/operations.js';
import type { Answer, Json, OperationInput, Subject } from '../../../src/subjects/subject.js';
import { buildUploadForm, validateCredentialsRequest, CREDENTIALS_LIMITS } from '../../../src/upload/index.js';

/** The seven parts of §5.1, the body as the bytes sent. */
export interface Parts {
  readonly appId: string;
  readonly appSecret: string;
  readonly method: string;
  readonly url: string;
  readonly timestamp: string;
  readonly nonce: string;
  readonly body: Buffer;
}

/** The four items of the Authorization header (§5.3). */
export interface Items {
  appId: string;
  sign: string;
  timestamp: string;
  nonce: string;
}

/** The merchant's own credentials. */
export interface Creds {
  readonly appId: string;
  readonly appSecret: string;
}

/** A verification result. */
export type Verdict = { readonly valid: true } | { readonly valid: false; readonly reason: string };

/** A verified redirect also yields the payment text. */
export type RedirectVerdict =
  (Verdict & { readonly valid: true; readonly payment: string }) | (Verdict & { readonly valid: false });

/** The header parser refused the header. */
export class HeaderError extends Error {}

/** A [name, value] form field, in the order the credentials response gave it. */
export type FormField = readonly [string, string];

const LF = Buffer.from('\n');
const ITEM_NAMES = ['appId', 'sign', 'timestamp', 'nonce'] as const;
const WS = /^[ \t]+|[ \t]+$/g;

/** The mini SDK, correct as written; members override one method. */
export class ZooSdk {
  // --- signing (§5.1, §5.2) ---

  /** The signature content: parts 1–6 as UTF-8 each followed by LF, then the body bytes and one LF. */
  content(p: Parts): Buffer {
    const head = [p.appId, p.appSecret, p.method, p.url, p.timestamp, p.nonce].join('\n') + '\n';
    return Buffer.concat([Buffer.from(head, 'utf8'), p.body, LF]);
  }

  /** SHA-256 of the content. */
  digest(content: Buffer): Buffer {
    return createHash('sha256').update(content).digest();
  }

  /** The digest as the sign is written: hex. */
  hex(digest: Buffer): string {
    return digest.toString('hex');
  }

  /** The sign of the seven parts. */
  sign(p: Parts): string {
    return this.hex(this.digest(this.content(p)));
  }

  // --- the Authorization header (§5.3, R8) ---

  /**
   * Parses `V2_SHA256 name=value,…`: white space around items, a lower-case scheme and
   * unknown extra items tolerated (R8 "either way"); refuses what R8 refuses.
   */
  parseHeader(header: string): Items {
    if (header.trim() === '') throw new HeaderError('empty Authorization');
    const text = header.replace(WS, '');
    const gap = /[ \t]+/.exec(text);
    const scheme = gap ? text.slice(0, gap.index) : text;
    if (scheme.toUpperCase() !== 'V2_SHA256') throw new HeaderError(`scheme ${scheme} is not V2_SHA256`);
    if (!gap) throw new HeaderError('no items');
    const pairs: Array<[string, string]> = [];
    const found = new Map<string, string>();
    for (const raw of text.slice(gap.index + gap[0].length).split(',')) {
      const split = this.splitItem(raw.replace(WS, ''));
      if (!split || split[0] === '') throw new HeaderError(`item ${raw} is not name=value`);
      const [name, value] = split;
      if (value === '') throw new HeaderError(`item ${name} has an empty value`);
      pairs.push([name, value]);
      if ((ITEM_NAMES as readonly string[]).includes(name)) this.storeItem(found, name, value);
    }
    return this.readItems(found, pairs);
  }

  /** One item into name and value, split at the first "=" (R8: a value may hold "="). */
  splitItem(item: string): [string, string] | undefined {
    const eq = item.indexOf('=');
    return eq < 0 ? undefined : [item.slice(0, eq), item.slice(eq + 1)];
  }

  /** Keeps an item; a second one of the same name is refused (R8). */
  storeItem(found: Map<string, string>, name: string, value: string): void {
    if (found.has(name)) throw new HeaderError(`item ${name} appears twice`);
    found.set(name, value);
  }

  /** The four items by name; each must be there (R8). */
  readItems(found: ReadonlyMap<string, string>, _pairs: ReadonlyArray<readonly [string, string]>): Items {
    const get = (name: (typeof ITEM_NAMES)[number]): string => {
      const value = found.get(name);
      if (value === undefined) throw new HeaderError(`item ${name} is missing`);
      return value;
    };
    return { appId: get('appId'), sign: get('sign'), timestamp: get('timestamp'), nonce: get('nonce') };
  }

  // --- verification (§5.4–§5.6, R9–R11) ---

  /** Whether the header's appId is the merchant's own (R9). */
  appIdMatches(headerAppId: string, own: string): boolean {
    return headerAppId === own;
  }

  /** Verifies a signed message: header, appId, sign form, then the digest compared in constant time. */
  verify(creds: Creds, method: string, url: string, authorization: string | null, body: Buffer): Verdict {
    if (authorization === null) return { valid: false, reason: 'no Authorization' };
    let items: Items;
    try {
      items = this.parseHeader(authorization);
    } catch (e) {
      if (e instanceof HeaderError) return { valid: false, reason: `Authorization refused: ${e.message}` };
      throw e;
    }
    if (!this.appIdMatches(items.appId, creds.appId))
      return { valid: false, reason: `appId ${items.appId} is not ours` };
    const computed = this.digest(
      this.content({ ...creds, method, url, timestamp: items.timestamp, nonce: items.nonce, body }),
    );
    return this.signMatches(computed, items.sign) ? { valid: true } : { valid: false, reason: 'sign mismatch' };
  }

  /** Whether the header's sign is the computed digest: 64 hex digits (R7), compared as bytes in constant time. */
  signMatches(computed: Buffer, sign: string): boolean {
    return /^[0-9a-fA-F]{64}$/.test(sign) && timingSafeEqual(computed, Buffer.from(sign, 'hex'));
  }

  /** Whether a response with this status is verified at all; only a 200 can be authentic (§5.4, R9). */
  verifiesStatus(status: number): boolean {
    return status === 200;
  }

  /** The response bytes that go into part 7: the raw bytes (§5.4). */
  responseBody(raw: Buffer): Buffer {
    return raw;
  }

  /** Verifies a gateway response (§5.4, R9). */
  verifyResponse(
    creds: Creds,
    method: string,
    url: string,
    status: number,
    authorization: string | null,
    body: Buffer,
  ): Verdict {
    if (!this.verifiesStatus(status)) return { valid: false, reason: `status ${status} is not 200` };
    return this.verify(creds, method, url, authorization, this.responseBody(body));
  }

  /** Verifies a webhook call: part 4 is the notifyUrl as submitted (§5.5, R10). */
  verifyWebhook(creds: Creds, notifyUrl: string, method: string, authorization: string | null, body: Buffer): Verdict {
    return this.verify(creds, method, notifyUrl, authorization, body);
  }

  /** Query decoding of a redirect parameter (R11): "+" as space, percent-decoding as UTF-8. */
  decodeQuery(raw: string): string | undefined {
    return decodeQueryComponent(raw);
  }

  /** The payment text read from the redirect: the decoded value (R11). */
  readPayment(raw: string): string | undefined {
    return this.decodeQuery(raw);
  }

  /** The payment text handed back to the merchant's code. */
  paymentResult(_raw: string, read: string): string {
    return read;
  }

  /** Part 4 of a redirect: the returnUrl as submitted, its own query included (R11), not the URL landed on. */
  redirectUrlPart(returnUrl: string, _redirectUrl: string): string {
    return returnUrl;
  }

  /** Verifies a return redirect (§5.6, R11). */
  verifyRedirect(creds: Creds, returnUrl: string, redirectUrl: string): RedirectVerdict {
    const params = queryParameters(redirectUrl);
    const only = (name: string): string | undefined => {
      const found = params.filter(([n]) => n === name);
      return found.length === 1 ? found[0]?.[1] : undefined;
    };
    const rawPayment = only('payment');
    const rawAuthorization = only('authorization');
    if (rawPayment === undefined || rawAuthorization === undefined)
      return { valid: false, reason: 'not exactly one payment and one authorization' };
    const payment = this.readPayment(rawPayment);
    const authorization = this.decodeQuery(rawAuthorization);
    if (payment === undefined || authorization === undefined)
      return { valid: false, reason: 'a parameter is not valid percent-encoded UTF-8' };
    const verdict = this.verify(
      creds,
      'GET',
      this.redirectUrlPart(returnUrl, redirectUrl),
      authorization,
      Buffer.from(`payment=${payment}`, 'utf8'),
    );
    return verdict.valid ? { valid: true, payment: this.paymentResult(rawPayment, payment) } : verdict;
  }

  // --- the upload (§2.1, §4.2, R13, R14) ---

  /** How a length is counted: code points (R13). */
  textLength(text: string): number {
    return [...text].length;
  }

  /** Client-side check of the credentials request: its own length check, then the gateway's rules. */
  validateCredentials(request: { filename?: Json; contentType?: Json; scene?: Json; fileSize?: Json }): Verdict {
    for (const field of ['filename', 'contentType', 'scene'] as const) {
      const value = request[field];
      if (typeof value === 'string' && this.textLength(value) > CREDENTIALS_LIMITS[field])
        return { valid: false, reason: `${field} is longer than ${CREDENTIALS_LIMITS[field]}` };
    }
    const outcome = validateCredentialsRequest(request);
    return outcome.valid ? { valid: true } : { valid: false, reason: outcome.message };
  }

  /** The formFields that go into the form: all of them, as received (R14, R15). */
  formFieldsToSend(fields: readonly FormField[]): FormField[] {
    return [...fields];
  }

  /** Builds the upload form: the formFields as text parts in order, then the file part last (§4.2). */
  buildForm(
    fields: readonly FormField[],
    filename: string,
    contentType: string,
    file: Buffer,
  ): { contentType: string; body: Buffer } {
    const form = buildUploadForm({ formFields: this.formFieldsToSend(fields), filename, contentType, file });
    return { contentType: form.contentType, body: Buffer.from(form.body) };
  }
}

/**
 * Text of a body for SDKs that hold the body as a string: UTF-8, or (bytes that are not
 * UTF-8, which a string SDK could not have been given) one character per byte.
 * @param body - the body bytes
 * @returns the text
 */
export function bodyText(body: Buffer): string {
  return isUtf8(body) ? body.toString('utf8') : body.toString('latin1');
}

/**
 * A subject: the reference, with the given operations answered by the SDK instead.
 * @param name - the member's name
 * @param sdk - the (buggy) SDK
 * @param routed - the operations whose code path goes through the SDK's bug
 * @returns the subject
 */
export function zooSubject(name: string, sdk: ZooSdk, routed: readonly Operation[]): Subject {
  const reference = createReferenceSubject();
  return {
    implementation: { name: `zoo/${name}`, version: '0', language: 'typescript' },
    operations: reference.operations,
    async call(op: Operation, input: OperationInput, caseId: string): Promise<Answer> {
      const handler = HANDLERS[op];
      if (!routed.includes(op) || !handler) return reference.call(op, input, caseId);
      try {
        return handler(sdk, new In(input));
      } catch (e) {
        // as the reference does: an input it cannot take is refused, anything else is a crash
        if (e instanceof InputError || e instanceof RangeError || e instanceof TypeError)
          return { rejected: { reason: e.message } };
        throw e;
      }
    },
  };
}

// --- internal ---

class InputError extends Error {}

class In {
  constructor(private readonly input: OperationInput) {}
  str(name: string): string {
    const v = this.input[name];
    if (typeof v !== 'string') throw new InputError(`input ${name} must be a string`);
    return v;
  }
  num(name: string): number {
    const v = this.input[name];
    if (typeof v !== 'number') throw new InputError(`input ${name} must be a number`);
    return v;
  }
  raw(name: string): Json | undefined {
    return this.input[name];
  }
  bytes(name: string): Buffer {
    return Buffer.from(this.str(name), 'base64');
  }
  auth(): string | null {
    const v = this.input['authorization'];
    return typeof v === 'string' ? v : null;
  }
  creds(): Creds {
    return { appId: this.str('appId'), appSecret: this.str('appSecret') };
  }
  parts(): Parts {
    return {
      ...this.creds(),
      method: this.str('method'),
      url: this.str('url'),
      timestamp: this.str('timestamp'),
      nonce: this.str('nonce'),
      body: this.bytes('bodyB64'),
    };
  }
  pairs(name: string): FormField[] {
    const v = this.input[name];
    if (!Array.isArray(v)) throw new InputError(`input ${name} must be an array`);
    return v.map((p) => {
      if (!Array.isArray(p) || typeof p[0] !== 'string' || typeof p[1] !== 'string')
        throw new InputError(`input ${name} must hold [name, value] pairs`);
      return [p[0], p[1]] as const;
    });
  }
}

function answer(verdict: Verdict, extra: { [key: string]: Json } = {}): Answer {
  return { result: verdict.valid ? { valid: true, ...extra } : { valid: false, reason: verdict.reason } };
}

const HANDLERS: Partial<Record<Operation, (sdk: ZooSdk, i: In) => Answer>> = {
  'signature.content': (sdk, i) => ({ result: { contentB64: sdk.content(i.parts()).toString('base64') } }),
  'signature.sign': (sdk, i) => ({ result: { sign: sdk.sign(i.parts()) } }),
  'authorization.parse': (sdk, i): Answer => {
    try {
      return { result: { ...sdk.parseHeader(i.str('header')) } };
    } catch (e) {
      if (e instanceof HeaderError) return { rejected: { reason: e.message } };
      throw e;
    }
  },
  'request.verify': (sdk, i) =>
    answer(sdk.verify(i.creds(), i.str('method'), i.str('url'), i.auth(), i.bytes('bodyB64'))),
  'response.verify': (sdk, i) =>
    answer(sdk.verifyResponse(i.creds(), i.str('method'), i.str('url'), i.num('status'), i.auth(), i.bytes('bodyB64'))),
  'webhook.verify': (sdk, i) =>
    answer(sdk.verifyWebhook(i.creds(), i.str('notifyUrl'), i.str('method'), i.auth(), i.bytes('bodyB64'))),
  'redirect.verify': (sdk, i): Answer => {
    const verdict = sdk.verifyRedirect(i.creds(), i.str('returnUrl'), i.str('redirectUrl'));
    if (verdict.valid) return { result: { valid: true, payment: verdict.payment } };
    return { result: { valid: false, payment: null, reason: verdict.reason } };
  },
  'upload.validate': (sdk, i) =>
    answer(
      sdk.validateCredentials({
        filename: i.raw('filename'),
        contentType: i.raw('contentType'),
        scene: i.raw('scene'),
        fileSize: i.raw('fileSize'),
      }),
    ),
  'upload.form': (sdk, i): Answer => {
    const form = sdk.buildForm(i.pairs('formFields'), i.str('filename'), i.str('contentType'), i.bytes('fileB64'));
    return { result: { contentType: form.contentType, bodyB64: form.body.toString('base64') } };
  },
};

/** Every operation the SDK answers (the control run routes them all to it). */
export const SDK_OPERATIONS = Object.keys(HANDLERS) as Operation[];

/** Operations that build or check a signature content: a signer's bug reaches them all. */
export const SIGNING_OPERATIONS: readonly Operation[] = [
  'signature.content',
  'signature.sign',
  'request.verify',
  'response.verify',
  'webhook.verify',
  'redirect.verify',
];

/** Operations that read an Authorization header: a parser's bug reaches them all. */
export const HEADER_OPERATIONS: readonly Operation[] = [
  'authorization.parse',
  'request.verify',
  'response.verify',
  'webhook.verify',
  'redirect.verify',
];

/** Operations that verify a signed message. */
export const VERIFY_OPERATIONS: readonly Operation[] = [
  'request.verify',
  'response.verify',
  'webhook.verify',
  'redirect.verify',
];
