/**
 * Payment creation (spec §4.3, body of 2.5) through the reference client, the response
 * verified like every other (5.4, R9).
 * @module
 */
import { endpoint } from './_endpoint.js';
import { assertAuthentic, fail, readEnvelope } from './_response.js';
import type { ClientOptions } from './options.js';
import { signedRequest } from './signed-request.js';

/**
 * The path of the payment-creation operation under the base URL (4.3).
 * @example new URL(PAYMENT_CREATE_PATH, baseUrl)
 */
export const PAYMENT_CREATE_PATH = '/pg/v2/payment/create';

/** The inputs of {@link createPayment}. */
export interface CreatePaymentInput extends ClientOptions {
  /** The gateway's base address; a trailing "/" is dropped before the path is appended. */
  readonly baseUrl: string;
  readonly appId: string;
  /** Never printed: error messages mask it. */
  readonly appSecret: string;
  /** The payment-creation body of 2.5, as a JSON object; sent as `JSON.stringify(payment)`. */
  readonly payment: { readonly [key: string]: unknown };
}

/** What the gateway answered, verified. */
export interface CreatePaymentResult {
  /** The envelope's code (2.3): OK on success. */
  readonly code: string;
  /** data.paymentNo, or null when the gateway gave none. */
  readonly paymentNo: string | null;
  /** The raw bytes of the verified response (5.4). */
  readonly responseBody: Uint8Array;
}

/**
 * Creates a payment: POST `{baseUrl}/pg/v2/payment/create`, the body
 * `JSON.stringify(payment)` exactly as signed (5.1), signed as 5.3. The response is used
 * only when it is a 200 that verifies over its raw bytes (5.4, R9). A verified envelope is
 * returned whatever its code: the result carries the code, so a refusal the gateway signed
 * (code other than OK) is returned, not thrown.
 * @param input - base URL, credentials, the payment object, client options
 * @returns the envelope's code and data.paymentNo (or null), and the raw response bytes
 * @throws {ClientError} (rejects) PGV2_CLIENT_NETWORK, PGV2_CLIENT_TIMEOUT,
 *   PGV2_CLIENT_RESPONSE_TOO_LARGE, PGV2_CLIENT_HTTP_STATUS, PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC,
 *   PGV2_CLIENT_MALFORMED_RESPONSE
 * @throws {TypeError} (rejects) when payment is not a plain JSON object
 * @throws {RangeError} (rejects) when baseUrl is not an http(s) URL without query or fragment
 * @example
 * const { code, paymentNo } = await createPayment({ baseUrl, appId, appSecret,
 *   payment: { merchantTradeNo: 'MT1', amount: '149.90', currency: 'EUR' } });
 */
export async function createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult> {
  const { payment, appSecret } = input;
  if (typeof payment !== 'object' || payment === null || Array.isArray(payment))
    throw new TypeError('payment must be a JSON object');
  const url = endpoint(input.baseUrl, PAYMENT_CREATE_PATH);
  const r = await signedRequest({ ...input, method: 'POST', url, body: JSON.stringify(payment) });
  const what = `the payment response (POST ${r.sent.url})`;
  assertAuthentic(r, input, what);
  const envelope = readEnvelope(r.body, what, [appSecret]);
  const paymentNo = envelope.data instanceof Map ? (envelope.data.get('paymentNo') ?? null) : null;
  if (paymentNo !== null && typeof paymentNo !== 'string') {
    throw fail(
      'PGV2_CLIENT_MALFORMED_RESPONSE',
      `${what} is authentic but data.paymentNo is neither a string nor null (2.3)`,
      [appSecret],
      { status: 200, gatewayCode: envelope.code },
    );
  }
  return { code: envelope.code, paymentNo, responseBody: r.body };
}
