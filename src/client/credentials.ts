/**
 * Step 1 of the upload (spec §4.1): ask the gateway for upload credentials, verify the
 * answer over its raw bytes (5.4, R9), and read the credentials of 2.4 with formFields in
 * the order received (R14, R15).
 * @module
 */
import type { FormFields } from '../upload/form.js';
import { validateCredentialsRequest } from '../upload/credentials-request.js';
import { endpoint } from './_endpoint.js';
import { wireUrl } from './_http.js';
import { isOrderedObject, type OrderedObject } from './ordered-json.js';
import { assertAuthentic, fail, readEnvelope } from './_response.js';
import type { ClientOptions } from './options.js';
import { signedRequest } from './signed-request.js';

/**
 * The path of the credentials operation under the base URL (4.1).
 * @example new URL(CREDENTIALS_PATH, baseUrl)
 */
export const CREDENTIALS_PATH = '/pg/v2/file/generateUploadUrl';

/** The inputs of {@link requestUploadCredentials}. */
export interface CredentialsInput extends ClientOptions {
  /** The gateway's base address; a trailing "/" is dropped before the path is appended. */
  readonly baseUrl: string;
  readonly appId: string;
  /** Never printed: error messages mask it. */
  readonly appSecret: string;
  /** 2.1 filename. */
  readonly filename: string;
  /** 2.1 contentType; null or undefined leaves it out of the body. */
  readonly contentType?: string | null;
  /** 2.1 scene. */
  readonly scene: string;
  /**
   * Check the request against 2.1, 2.2 and 8 before sending it (validateCredentialsRequest,
   * with {@link fileSize}), and send nothing when it fails: PGV2_CLIENT_INVALID_REQUEST.
   * Default false: the gateway judges.
   */
  readonly preflight?: boolean;
  /** The size of the file to be uploaded, for the preflight check only (not sent: 2.1 has no such field). */
  readonly fileSize?: number;
}

/** The credentials of 2.4, verified. */
export interface UploadCredentials {
  readonly uploadUrl: string;
  readonly storageUri: string;
  readonly uploadNo: string;
  /**
   * formFields as [name, value] pairs in the order of the response's text (R14), every
   * entry kept, unknown ones included (R15). Read with a source-order JSON parser, so even
   * integer-like names ("0", "17"), which `JSON.parse` would move to the front, keep their place.
   */
  readonly formFields: FormFields;
  readonly httpMethod: string;
  /** The raw bytes of the verified response (5.4). */
  readonly responseBody: Uint8Array;
}

/**
 * Requests upload credentials (spec §4.1): POST `{baseUrl}/pg/v2/file/generateUploadUrl`
 * with the body `JSON.stringify({ filename, contentType?, scene })` — the bytes signed are
 * the bytes sent (5.1) — Content-Type and Accept application/json, the Authorization of
 * 5.3 (timestamp in ms, a random nonce). The response is used only when it is a 200 that
 * verifies over its raw bytes with this request's method and full URL and names this
 * merchant's appId (5.4, R9), its envelope's code is OK, and its data has uploadUrl,
 * storageUri, uploadNo, httpMethod (strings) and formFields (an object of strings).
 * @param input - base URL, credentials, the 2.1 fields, client options
 * @returns the credentials, formFields in the order received, and the raw response bytes
 * @throws {ClientError} (rejects) PGV2_CLIENT_INVALID_REQUEST (preflight), PGV2_CLIENT_NETWORK,
 *   PGV2_CLIENT_TIMEOUT, PGV2_CLIENT_RESPONSE_TOO_LARGE, PGV2_CLIENT_HTTP_STATUS,
 *   PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC, PGV2_CLIENT_MALFORMED_RESPONSE, PGV2_CLIENT_GATEWAY_CODE
 * @throws {TypeError} (rejects) when an input has the wrong type
 * @throws {RangeError} (rejects) when baseUrl is not an http(s) URL without query or fragment
 * @example
 * const c = await requestUploadCredentials({ baseUrl, appId, appSecret,
 *   filename: 'evidence.pdf', contentType: 'application/pdf', scene: 'DISPUTE_EVIDENCE' });
 * c.formFields // [['bucket', '…'], ['key', '…'], …] in the order received
 */
export async function requestUploadCredentials(input: CredentialsInput): Promise<UploadCredentials> {
  const { appSecret } = input;
  for (const name of ['filename', 'scene'] as const)
    if (typeof input[name] !== 'string') throw new TypeError(`${name} must be a string`);
  const contentType = input.contentType ?? undefined;
  if (contentType !== undefined && typeof contentType !== 'string')
    throw new TypeError('contentType must be a string, null or undefined');
  if (input.preflight) {
    const outcome = validateCredentialsRequest({
      filename: input.filename,
      contentType,
      scene: input.scene,
      fileSize: input.fileSize,
    });
    if (!outcome.valid)
      throw fail('PGV2_CLIENT_INVALID_REQUEST', `the credentials request was not sent: ${outcome.message}`, [
        appSecret,
      ]);
  }
  const url = endpoint(input.baseUrl, CREDENTIALS_PATH);
  const body = JSON.stringify({ filename: input.filename, contentType, scene: input.scene });
  const r = await signedRequest({ ...input, method: 'POST', url, body });
  const what = `the credentials response (POST ${r.sent.url})`;
  assertAuthentic(r, input, what);

  const envelope = readEnvelope(r.body, what, [appSecret]);
  if (envelope.code !== 'OK') {
    const said = envelope.errorMessage === null ? '' : `: errorMessage ${JSON.stringify(envelope.errorMessage)}`;
    throw fail(
      'PGV2_CLIENT_GATEWAY_CODE',
      `${what} is authentic but its code is ${JSON.stringify(envelope.code)}, not OK${said} (2.3)`,
      [appSecret],
      {
        status: 200,
        gatewayCode: envelope.code,
      },
    );
  }
  const malformed = (why: string) =>
    fail('PGV2_CLIENT_MALFORMED_RESPONSE', `${what} is authentic but ${why} (2.4)`, [appSecret], {
      status: 200,
      gatewayCode: 'OK',
    });
  if (!isOrderedObject(envelope.data)) throw malformed('it has no data object');
  const data = envelope.data;
  const text = (name: string): string => {
    const v = data.get(name);
    if (typeof v !== 'string' || v === '')
      throw malformed(`data.${name} is ${v === undefined ? 'missing' : 'not a non-empty string'}`);
    return v;
  };
  const uploadUrl = text('uploadUrl');
  try {
    wireUrl(uploadUrl);
  } catch (e) {
    throw malformed(`data.uploadUrl cannot be sent to: ${(e as Error).message}`);
  }
  const httpMethod = text('httpMethod');
  if (!TOKEN.test(httpMethod)) throw malformed(`data.httpMethod ${JSON.stringify(httpMethod)} is not an HTTP method`);
  return {
    uploadUrl,
    storageUri: text('storageUri'),
    uploadNo: text('uploadNo'),
    formFields: formFieldsOf(data, malformed),
    httpMethod,
    responseBody: r.body,
  };
}

// --- internal ---

/** RFC 9110 token: what a method must be. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function formFieldsOf(data: OrderedObject, malformed: (why: string) => Error): FormFields {
  const fields = data.get('formFields');
  if (!isOrderedObject(fields))
    throw malformed(`data.formFields is ${fields === undefined ? 'missing' : 'not a JSON object'}`);
  const pairs: Array<readonly [string, string]> = [];
  for (const [name, value] of fields) {
    if (typeof value !== 'string') throw malformed(`data.formFields entry ${JSON.stringify(name)} is not a string`);
    pairs.push([name, value]);
  }
  return pairs;
}
