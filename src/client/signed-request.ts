/**
 * A signed request to the gateway (spec §5.1–§5.3) and its raw response: the lowest
 * level of the reference client. The gateway-role checks use its `mutate` option to send
 * requests that were tampered with after signing, one thing at a time.
 * @module
 */
import { AUTH_SCHEME, ITEM_NAMES, formatAuthorization, type AuthorizationItems } from '../scheme/authorization.js';
import { utf8 } from '../scheme/bytes.js';
import { sign } from '../scheme/sign.js';
import { exchange, wireUrl, type WireRequest, type WireResponse } from './_http.js';
import { maskError } from './_mask.js';
import { nonceOf, timestampOf, type ClientOptions } from './options.js';

/**
 * One change made after signing, so that what is sent differs from what was signed in
 * exactly one respect. Discriminated on `kind`.
 */
export type Mutation =
  /** Send this body instead of the signed one. */
  | { readonly kind: 'body'; readonly body: Uint8Array | string }
  /** Send to this URL instead of the signed one. */
  | { readonly kind: 'url'; readonly url: string }
  /** Send with this method instead of the signed one. */
  | { readonly kind: 'method'; readonly method: string }
  /** The header carries this timestamp; the sign is over the original. */
  | { readonly kind: 'timestamp'; readonly timestamp: string }
  /** The header carries this nonce; the sign is over the original. */
  | { readonly kind: 'nonce'; readonly nonce: string }
  /** The header names this appId; the sign is over the original. */
  | { readonly kind: 'appId'; readonly appId: string }
  /** The sign is computed with this secret instead of the merchant's. */
  | { readonly kind: 'secret'; readonly appSecret: string }
  /**
   * The Authorization header is rewritten from the signed items and the header as it
   * would have been sent (another item order, white space, a lower-case scheme, an item
   * dropped, an upper-case sign, …); null sends no Authorization header.
   */
  | { readonly kind: 'authorization'; readonly form: (items: AuthorizationItems, header: string) => string | null }
  /** Send this Content-Type instead of application/json; null sends none. */
  | { readonly kind: 'contentType'; readonly value: string | null }
  /** Send this Accept instead of application/json; null sends none. */
  | { readonly kind: 'accept'; readonly value: string | null };

/** Kinds of {@link Mutation}. */
export type MutationKind = Mutation['kind'];

/** The inputs of {@link signedRequest}. */
export interface SignedRequestInput extends ClientOptions {
  /** The method, signed as given (R5: upper case on the wire). */
  readonly method: string;
  /** The full URL (R4): signed and sent as written, without a fragment. */
  readonly url: string;
  readonly appId: string;
  /** Never printed: error messages mask it. */
  readonly appSecret: string;
  /** The body: exactly these bytes are signed and sent (a string as its UTF-8). */
  readonly body: Uint8Array | string;
  /**
   * Headers sent after Content-Type, Accept and Authorization; one with the same name
   * (compared case-insensitively) replaces the default instead.
   */
  readonly headers?: ReadonlyArray<readonly [string, string]>;
  /** One change made after signing. */
  readonly mutate?: Mutation;
  /**
   * Where the request goes when not to `url`, which is still what part 4 signs, exactly as
   * written: a webhook signs the notifyUrl as the merchant registered it and is delivered
   * through a proxy or to a local port (R10). Not a change after signing: a `url` mutation
   * still sends elsewhere.
   */
  readonly deliverTo?: string;
}

/** What was signed: the parts of 5.1 other than the secret, and the sign. */
export interface SignedParts {
  readonly appId: string;
  readonly method: string;
  readonly url: string;
  readonly timestamp: string;
  readonly nonce: string;
  readonly body: Uint8Array;
  readonly sign: string;
}

/** The outcome of {@link signedRequest}: the response as received, what was signed, what was sent. */
export interface SignedExchange extends WireResponse {
  readonly signed: SignedParts;
  readonly sent: WireRequest;
}

/**
 * Signs a request (spec §5.1–§5.3) and sends it: Content-Type and Accept
 * application/json, `Authorization: V2_SHA256 appId=…,sign=…,timestamp=…,nonce=…`, the
 * body exactly as signed. The response is returned as received (status, headers, raw
 * body bytes) and not verified here. Never follows a redirect.
 * @param input - method, URL, credentials, body, extra headers, one mutation, client options
 * @returns the response, what was signed and what was sent
 * @throws {ClientError} PGV2_CLIENT_NETWORK, PGV2_CLIENT_TIMEOUT, PGV2_CLIENT_RESPONSE_TOO_LARGE (rejects)
 * @throws {TypeError} (rejects) when an input has the wrong type
 * @throws {RangeError} (rejects) when the URL is not an absolute http(s) URL, appId,
 *   timestamp or nonce cannot be written in a 5.3 header (empty, or with a comma), or
 *   undici refuses the method or a header
 * @example
 * const r = await signedRequest({ method: 'POST', url: `${baseUrl}/pg/v2/payment/create`, appId, appSecret,
 *   body: '{"amount":"1.00"}', mutate: { kind: 'body', body: '{"amount":"9.00"}' } });
 * r.status // the gateway must refuse: the body is not the one signed
 */
export async function signedRequest(input: SignedRequestInput): Promise<SignedExchange> {
  for (const name of ['method', 'url', 'appId', 'appSecret'] as const) {
    if (typeof input[name] !== 'string') throw new TypeError(`${name} must be a string`);
  }
  if (typeof input.body !== 'string' && !(input.body instanceof Uint8Array))
    throw new TypeError('body must be a string or a Uint8Array');
  const m = input.mutate;
  // R10: a URL signed but not sent is signed as written (as registered); one sent, as it goes on the wire
  const onTheWire = wireUrl(input.url).url;
  const url = input.deliverTo !== undefined ? input.url : onTheWire;
  const body = utf8(input.body);
  const timestamp = timestampOf(input);
  const nonce = nonceOf(input);
  const secret = m?.kind === 'secret' ? m.appSecret : input.appSecret;
  const signature = sign({ appId: input.appId, appSecret: secret, method: input.method, url, timestamp, nonce, body });
  const items: AuthorizationItems = { appId: input.appId, sign: signature, timestamp, nonce };
  const header = formatAuthorization(items);
  const signed: SignedParts = {
    appId: input.appId,
    method: input.method,
    url,
    timestamp,
    nonce,
    body,
    sign: signature,
  };

  let authorization: string | null = header;
  if (m?.kind === 'timestamp') authorization = rawHeader({ ...items, timestamp: m.timestamp });
  if (m?.kind === 'nonce') authorization = rawHeader({ ...items, nonce: m.nonce });
  if (m?.kind === 'appId') authorization = rawHeader({ ...items, appId: m.appId });
  if (m?.kind === 'authorization') authorization = m.form(items, header);
  const contentType = m?.kind === 'contentType' ? m.value : 'application/json';
  const accept = m?.kind === 'accept' ? m.value : 'application/json';

  const headers: Array<[string, string]> = [];
  if (contentType !== null) headers.push(['Content-Type', contentType]);
  if (accept !== null) headers.push(['Accept', accept]);
  if (authorization !== null) headers.push(['Authorization', authorization]);
  for (const [name, value] of input.headers ?? []) {
    const at = headers.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
    if (at >= 0) headers.splice(at, 1, [name, value]);
    else headers.push([name, value]);
  }

  const sent: WireRequest = {
    method: m?.kind === 'method' ? m.method : input.method,
    url: m?.kind === 'url' ? wireUrl(m.url).url : input.deliverTo !== undefined ? wireUrl(input.deliverTo).url : url,
    headers,
    body: m?.kind === 'body' ? utf8(m.body) : body,
  };
  try {
    return { ...(await exchange(sent, input)), signed, sent };
  } catch (e) {
    throw maskError(e, [input.appSecret, secret]);
  }
}

// --- internal ---

/** A 5.3 header written as given, without the checks of formatAuthorization (a mutation may break them on purpose). */
function rawHeader(items: AuthorizationItems): string {
  return `${AUTH_SCHEME} ${ITEM_NAMES.map((n) => `${n}=${items[n]}`).join(',')}`;
}
