/**
 * The response envelope of spec §2.3 as bytes, and its signature (§5.4; reading R9).
 *
 * The bytes come in the styles a scenario asks for ({@link ResponseBytes}): all valid
 * JSON, only `compact` canonical, so that a client verifying parsed or re-serialized
 * data instead of the bytes received fails (§5.4 "the original response bytes must be
 * used"). The signature covers exactly the bytes sent, with the method and full URL of
 * the request the response answers (R9), and comes in the forms a scenario asks for
 * ({@link ResponseSignature}): correct, tampered, for another appId, with another
 * secret, or absent.
 * @module
 */
import { formatAuthorization } from '../scheme/authorization.js';
import { sign } from '../scheme/sign.js';
import type { Merchant } from './merchants.js';
import type { ResponseBytes, ResponseSignature } from '../vectors/scenario.js';

/**
 * Name/value pairs written as a JSON object in exactly this order, whatever the names
 * (`JSON.stringify` would put integer-like names first): formFields must reach the
 * client in the order issued (R14).
 * @example new OrderedPairs([['b', '1'], ['0', '2']])
 */
export class OrderedPairs {
  /** @param entries - the pairs, in order */
  constructor(readonly entries: ReadonlyArray<readonly [string, string]>) {}
}

/** A JSON value the envelope writer takes. */
export type JsonOut =
  null | boolean | number | string | readonly JsonOut[] | OrderedPairs | { readonly [key: string]: JsonOut };

/** The envelope of §2.3. */
export interface Envelope {
  /** OK marks success. */
  readonly code: string;
  /** null on success (§7). */
  readonly errorMessage: string | null;
  /** The operation's data on success; absent on a refusal. */
  readonly data?: { readonly [key: string]: JsonOut };
}

/** What the extra-fields style writes besides the envelope. */
export interface EnvelopeExtras {
  /** An id for the response (extra-fields). */
  readonly requestId: string;
  /** The gateway's clock in milliseconds (extra-fields). */
  readonly serverTime: number;
}

/**
 * The bytes of an envelope in one style:
 * - `compact` — `JSON.stringify` of code, errorMessage, data, in that order (canonical);
 * - `pretty` — indented by two spaces, ending in LF (R1 for responses);
 * - `reordered` — every object's keys in reverse order (formFields kept in issue order, R14);
 * - `unicode-escapes` — `/` as `\/`, `< > & = +` and every non-ASCII character as `\uXXXX`;
 * - `null-fields` — unknown fields whose value is null (`subCode`, `data.remark`);
 * - `extra-fields` — unknown fields of every JSON type (`requestId`, `serverTime`, `data.traceTags`, `data.meta`).
 *
 * @param envelope - the envelope
 * @param style - the style (default compact)
 * @param extras - values of the extra-fields style
 * @returns the UTF-8 bytes
 * @throws {RangeError} for a number that JSON cannot carry (NaN, Infinity)
 * @example
 * new TextDecoder().decode(
 *   envelopeBytes({ code: 'OK', errorMessage: null }),
 * ) // '{"code":"OK","errorMessage":null}'
 */
export function envelopeBytes(
  envelope: Envelope,
  style: ResponseBytes = 'compact',
  extras: EnvelopeExtras = { requestId: '0', serverTime: 0 },
): Uint8Array {
  const base: { [key: string]: JsonOut } = { code: envelope.code, errorMessage: envelope.errorMessage };
  if (envelope.data !== undefined) base['data'] = envelope.data;
  let value: JsonOut = base;
  if (style === 'reordered') value = reversed(base);
  if (style === 'null-fields') {
    value = { code: envelope.code, errorMessage: envelope.errorMessage, subCode: null };
    if (envelope.data !== undefined) value = { ...value, data: { ...envelope.data, remark: null } };
  }
  if (style === 'extra-fields') {
    value = { ...base, requestId: extras.requestId, serverTime: extras.serverTime };
    if (envelope.data !== undefined)
      value = {
        ...value,
        data: {
          ...envelope.data,
          traceTags: ['pgv2kit', 'reference'],
          meta: { version: 2, nested: { flag: true, ratio: 0.5, none: null } },
        },
      };
  }
  const text = write(value, style === 'pretty' ? '  ' : '', '', style === 'unicode-escapes');
  return new TextEncoder().encode(style === 'pretty' ? `${text}\n` : text);
}

/** What {@link responseAuthorization} signs. */
export interface ResponseToSign {
  /** The merchant the response is for. */
  readonly merchant: Merchant;
  /** Method of the request answered (R9). */
  readonly method: string;
  /** Full URL of the request answered, as the client sent it (R4, R9). */
  readonly url: string;
  /** The exact response bytes. */
  readonly body: Uint8Array;
  /** Part 5. */
  readonly timestamp: string;
  /** Part 6. */
  readonly nonce: string;
}

/**
 * The Authorization header of a response (§5.3, §5.4) in one of the scenario forms:
 * - `valid` — the merchant's appId, signed with its secret over the exact bytes;
 * - `tampered` — as valid, with the sign's last hex digit changed;
 * - `foreign-app-id` — a genuine signature of another merchant (its appId and secret);
 * - `wrong-secret` — the merchant's appId, signed with another secret;
 * - `missing` — no header (undefined).
 * @param response - what to sign
 * @param variant - the form (default valid)
 * @returns the header value, or undefined for `missing`
 * @example
 * responseAuthorization({
 *   merchant: { appId, appSecret },
 *   method: 'POST',
 *   url,
 *   body,
 *   timestamp: '1',
 *   nonce: 'n',
 * })
 */
export function responseAuthorization(
  response: ResponseToSign,
  variant: ResponseSignature = 'valid',
): string | undefined {
  if (variant === 'missing') return undefined;
  const { merchant, method, url, body, timestamp, nonce } = response;
  const signer: Merchant =
    variant === 'foreign-app-id'
      ? foreignMerchant(merchant)
      : variant === 'wrong-secret'
        ? { appId: merchant.appId, appSecret: `${merchant.appSecret}-not-this-one` }
        : merchant;
  let value = sign({ appId: signer.appId, appSecret: signer.appSecret, method, url, timestamp, nonce, body });
  if (variant === 'tampered') value = value.slice(0, -1) + ((parseInt(value.slice(-1), 16) + 1) % 16).toString(16);
  return formatAuthorization({ appId: signer.appId, sign: value, timestamp, nonce });
}

/**
 * The other merchant whose genuine signature the `foreign-app-id` form carries: never
 * the merchant itself.
 * @param merchant - the merchant the response is for
 * @returns another merchant's credentials
 * @example foreignMerchant({ appId: 'a', appSecret: 's' }).appId // 'pgv2kit-foreign'
 */
export function foreignMerchant(merchant: Merchant): Merchant {
  const appId = merchant.appId === FOREIGN.appId ? `${FOREIGN.appId}-2` : FOREIGN.appId;
  return { appId, appSecret: FOREIGN.appSecret };
}

// --- internal ---

const FOREIGN: Merchant = { appId: 'pgv2kit-foreign', appSecret: 'pgv2kit-foreign-secret' };

function reversed(value: JsonOut): JsonOut {
  if (value === null || typeof value !== 'object' || value instanceof OrderedPairs) return value;
  if (Array.isArray(value)) return value.map(reversed);
  const entries = Object.entries(value as { readonly [key: string]: JsonOut }).reverse();
  return Object.fromEntries(entries.map(([k, v]) => [k, reversed(v)]));
}

const ESCAPED = /[/<>&=+\u0080-\uffff]/g;

function quote(text: string, escape: boolean): string {
  const json = JSON.stringify(text);
  if (!escape) return json;
  return json.replace(ESCAPED, (c) => (c === '/' ? '\\/' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

function write(value: JsonOut, indent: string, at: string, escape: boolean): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`JSON cannot carry the number ${value}`);
    return JSON.stringify(value);
  }
  if (typeof value === 'string') return quote(value, escape);
  const inner = at + indent;
  const nl = indent === '' ? '' : '\n';
  const colon = indent === '' ? ':' : ': ';
  const list = (items: string[], open: string, close: string): string =>
    items.length === 0
      ? `${open}${close}`
      : `${open}${nl}${items.map((i) => inner + i).join(`,${nl}`)}${nl}${at}${close}`;
  if (Array.isArray(value))
    return list(
      value.map((v: JsonOut) => write(v, indent, inner, escape)),
      '[',
      ']',
    );
  const entries: ReadonlyArray<readonly [string, JsonOut]> =
    value instanceof OrderedPairs ? value.entries : Object.entries(value as { readonly [key: string]: JsonOut });
  return list(
    entries.map(([k, v]) => `${quote(k, escape)}${colon}${write(v, indent, inner, escape)}`),
    '{',
    '}',
  );
}
