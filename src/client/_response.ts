/**
 * What the client does with a gateway response before using anything in it: a 200
 * verified over the raw bytes with the request's method and URL (5.4, R9), anything
 * else refused (R16), then the envelope of 2.3 read in source order.
 * @module
 */
import { redact } from '../scheme/mask.js';
import { verifyResponse, type VerifyOptions } from '../scheme/verify.js';
import { singleHeader } from './_http.js';
import { isOrderedObject, parseOrderedJson, type OrderedJson } from './ordered-json.js';
import { ClientError } from './errors.js';
import type { SignedExchange } from './signed-request.js';
import { clip } from '../scheme/text.js';

/** The envelope of 2.3, read from verified bytes. */
export interface Envelope {
  readonly code: string;
  readonly errorMessage: string | null;
  /** The data member; undefined when absent or null. */
  readonly data: OrderedJson | undefined;
}

/**
 * Refuses a response that is not an authentic 200: another status
 * (PGV2_CLIENT_HTTP_STATUS, with the envelope's errorMessage when readable — unverified,
 * R16), or a 200 that does not verify over its raw bytes with the method and URL sent
 * (PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC: no Authorization, two of them, a malformed one,
 * another appId, a sign that does not match; 5.4, R9).
 * @param r - the exchange
 * @param merchant - the merchant's appId and secret, and the verifier's choices
 * @param what - the response named in messages, e.g. `the credentials response`
 * @throws {ClientError} when the response is not an authentic 200
 * @example
 * assertAuthentic(
 *   await signedRequest({ method: 'POST', url: `${baseUrl}/pg/v2/payment/create`, appId, appSecret, body }),
 *   { appId, appSecret },
 *   'the payment response',
 * );
 */
export function assertAuthentic(
  r: SignedExchange,
  merchant: { readonly appId: string; readonly appSecret: string; readonly verify?: VerifyOptions | undefined },
  what: string,
): void {
  const secrets = [merchant.appSecret];
  if (r.status !== 200) {
    const said = unverifiedEnvelope(r.body);
    const quoted =
      said.errorMessage !== undefined ? `: errorMessage ${JSON.stringify(clip(said.errorMessage, 200))}` : '';
    const code = said.code !== undefined ? ` (code ${JSON.stringify(clip(said.code, 200))})` : '';
    throw fail(
      'PGV2_CLIENT_HTTP_STATUS',
      `${what}: the gateway answered HTTP ${r.status}${quoted}${code}; not 200, so not used (R9, R16)`,
      secrets,
      {
        status: r.status,
        ...(said.code !== undefined ? { gatewayCode: said.code } : {}),
      },
    );
  }
  const authorization = singleHeader(r.headers, 'authorization');
  if (authorization === null) {
    throw fail(
      'PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC',
      `${what} is not authentic: it carries more than one Authorization header (5.4, R9); not used`,
      secrets,
      { status: 200 },
    );
  }
  const outcome = verifyResponse(
    {
      appId: merchant.appId,
      appSecret: merchant.appSecret,
      method: r.sent.method,
      url: r.sent.url,
      status: r.status,
      authorization: authorization ?? null,
      body: r.body,
    },
    merchant.verify ?? {},
  );
  if (!outcome.valid) {
    throw fail(
      'PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC',
      `${what} is not authentic: ${outcome.message} (5.4, R9); not used`,
      secrets,
      { status: 200, problem: outcome.problem },
    );
  }
}

/**
 * Reads the envelope of 2.3 from verified bytes: strict UTF-8, JSON in source order, an
 * object with a string `code`, `errorMessage` a string or null (or absent), `data` an
 * object (or absent, or null). Extra members are tolerated (R15).
 * @param body - the raw response bytes
 * @param what - the response named in messages
 * @param secrets - texts to mask in messages
 * @returns the envelope
 * @throws {ClientError} PGV2_CLIENT_MALFORMED_RESPONSE
 * @example
 * readEnvelope(utf8('{"code":"OK","errorMessage":null,"data":{}}'), 'the payment response', [
 *   appSecret,
 * ]).code // 'OK'
 */
export function readEnvelope(body: Uint8Array, what: string, secrets: readonly string[]): Envelope {
  const malformed = (why: string): ClientError =>
    fail('PGV2_CLIENT_MALFORMED_RESPONSE', `${what} is authentic but ${why} (2.3)`, secrets, { status: 200 });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw malformed('its body is not UTF-8');
  }
  let value: OrderedJson;
  try {
    value = parseOrderedJson(text);
  } catch (e) {
    throw malformed(`its body is ${(e as Error).message}`);
  }
  if (!isOrderedObject(value)) throw malformed('its body is not a JSON object');
  const code = value.get('code');
  if (typeof code !== 'string') throw malformed('its envelope has no string code');
  const errorMessage = value.get('errorMessage') ?? null;
  if (errorMessage !== null && typeof errorMessage !== 'string')
    throw malformed('its errorMessage is neither a string nor null');
  const data = value.get('data') ?? undefined;
  if (data !== undefined && data !== null && !isOrderedObject(data)) throw malformed('its data is not a JSON object');
  return { code, errorMessage, data: data ?? undefined };
}

/**
 * A ClientError whose message has every secret masked.
 * @param code - the code
 * @param message - the message
 * @param secrets - texts to mask
 * @param details - status, problem, envelope code, cause
 * @returns the error
 * @example fail('PGV2_CLIENT_MALFORMED_RESPONSE', 'no data', [appSecret]).code // 'PGV2_CLIENT_MALFORMED_RESPONSE'
 */
export function fail(
  code: ClientError['code'],
  message: string,
  secrets: readonly string[],
  details: ConstructorParameters<typeof ClientError>[2] = {},
): ClientError {
  return new ClientError(code, redact(message, secrets), details);
}

/**
 * A body's text for a message: UTF-8 (invalid sequences replaced), clipped.
 * @param body - bytes
 * @returns the clipped text
 * @example bodyText(new TextEncoder().encode('denied')) // 'denied'
 */
export function bodyText(body: Uint8Array): string {
  return clip(new TextDecoder('utf-8').decode(body), 200);
}

// --- internal ---

/** code and errorMessage of a body that may be an envelope, read without trusting it. */
function unverifiedEnvelope(body: Uint8Array): { code?: string; errorMessage?: string } {
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8').decode(body));
    if (typeof value !== 'object' || value === null) return {};
    const { code, errorMessage } = value as { code?: unknown; errorMessage?: unknown };
    return {
      ...(typeof code === 'string' ? { code } : {}),
      ...(typeof errorMessage === 'string' ? { errorMessage } : {}),
    };
  } catch {
    return {};
  }
}
