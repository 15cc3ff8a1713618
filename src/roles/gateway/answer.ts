/**
 * The gateway's answer to an API request, read and judged (spec §2.3, §2.4, §4.1, §5.4, §7; R9, R16): the
 * envelope, the response signature over the method and URL of the request it answers and the raw bytes, the
 * Content-Type, the errorMessage and the data. The gateway role reads every answer of the gateway under test with
 * {@link readGatewayAnswer} and judges a genuine request's with {@link genuineAnswerProblem}; the live-traffic judge
 * (src/live/judge.ts) reads and judges a real gateway's answers with the same two: one judge of an answer.
 * @module
 */
import { judgeAnswer } from '../../refusal.js';
import { verifyResponse } from '../../scheme/verify.js';
import type { Json } from '../../protocol/messages.js';

/** The API operations of the gateway role. */
export type GatewayApiOperation = 'gateway.generateUploadUrl' | 'gateway.createPayment';

/** An answer as received, with the request it answers (R9), for {@link readGatewayAnswer}. */
export interface GatewayAnswer {
  readonly op: GatewayApiOperation;
  /** The merchant's credentials: the appId the response header must carry and the secret (never printed). */
  readonly appId: string;
  readonly appSecret: string;
  /** The method of the request the gateway answered (R9). */
  readonly method: string;
  /** The full URL of the request the gateway answered, as it was sent (R9, R4). */
  readonly url: string;
  readonly status: number;
  /** The response's Authorization header, or null. */
  readonly authorization: string | null;
  /** The response's Content-Type header, or null. */
  readonly contentType: string | null;
  /** The raw response bytes (5.4). */
  readonly body: Uint8Array;
  /** The contentType the credentials request asked for ({@link requestedContentType}), if any. */
  readonly requestedContentType: string | undefined;
}

/** What {@link readGatewayAnswer} read: the status, code and errorMessage always, the rest for HTTP 200. */
export type GatewayAnswerRecord = {
  status: number;
  code: string | null;
  errorMessage: string | null;
} & { [key: string]: Json };

/**
 * What an answer holds, as the gateway check reads it: `status`, `code` and `errorMessage` (null unless strings),
 * and for HTTP 200 `verified` (5.4, R9), `verifyProblem`, `contentType`, `errorMessageRaw` (when the envelope has
 * the member: absent or null pass, 2.3) and `dataProblem` (2.4).
 * @param a - the answer and the request it answers
 * @returns the record {@link genuineAnswerProblem} judges
 * @example
 * readGatewayAnswer({
 *   op: 'gateway.createPayment',
 *   appId: 'app',
 *   appSecret: 's',
 *   method: 'POST',
 *   url: 'http://gw/pg/v2/payment/create',
 *   status: 401,
 *   authorization: null,
 *   contentType: 'application/json',
 *   body: new TextEncoder().encode('{"code":"UNAUTHORIZED","errorMessage":"no"}'),
 *   requestedContentType: undefined,
 * }) // { status: 401, code: 'UNAUTHORIZED', errorMessage: 'no' }
 */
export function readGatewayAnswer(a: GatewayAnswer): GatewayAnswerRecord {
  const text = Buffer.from(a.body).toString('utf8');
  let envelope: { code?: unknown; errorMessage?: unknown; data?: unknown } | undefined;
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    envelope = undefined;
  }
  const result: GatewayAnswerRecord = {
    status: a.status,
    code: typeof envelope?.code === 'string' ? envelope.code : null,
    errorMessage: typeof envelope?.errorMessage === 'string' ? envelope.errorMessage : null,
  };
  if (a.status !== 200) return result;
  const verdict = verifyResponse({
    appId: a.appId,
    appSecret: a.appSecret,
    method: a.method,
    url: a.url,
    status: 200,
    authorization: a.authorization,
    body: a.body,
  });
  result['verified'] = verdict.valid;
  if (!verdict.valid) result['verifyProblem'] = verdict.message;
  result['contentType'] = a.contentType;
  // present and not null is what 2.3/7 rule out on success: absent or null both pass
  if (typeof envelope === 'object' && envelope !== null && 'errorMessage' in envelope)
    result['errorMessageRaw'] = (envelope.errorMessage ?? null) as Json;
  const problem = envelope ? dataProblem(a.op, envelope.data, a.requestedContentType) : 'the body is not JSON';
  if (problem) result['dataProblem'] = problem;
  return result;
}

/**
 * Why the answer to a genuine request is not the one it must get, or undefined when it is: HTTP `want` (a 5xx is
 * no refusal but still wrong, R16), code OK (2.3), Content-Type application/json for the credentials operation
 * (4.1), errorMessage absent or null (2.3, 7), a response that verifies (5.4) and valid data (2.4). An upload
 * needs only its status.
 * @param op - the operation answered
 * @param r - the answer as {@link readGatewayAnswer} reads it (an upload's: its status)
 * @param want - the status a genuine request gets (200; 204 for an upload)
 * @returns the reason, or undefined
 * @example genuineAnswerProblem('gateway.upload', { status: 204 }, 204) // undefined
 */
export function genuineAnswerProblem(
  op: GatewayApiOperation | 'gateway.upload',
  r: { readonly [key: string]: Json },
  want: number,
): string | undefined {
  const status = r['status'] as number;
  const code = typeof r['code'] === 'string' ? r['code'] : null;
  const accepting = status >= 200 && status < 300 && (code === null || code === 'OK');
  const genuine = judgeAnswer('accept', status, accepting);
  if (genuine.serverError) return `expected HTTP ${want}: ${genuine.problem ?? ''}`;
  if (status !== want) return `expected HTTP ${want}`;
  if (op === 'gateway.upload') return undefined;
  if (code !== 'OK') return 'the envelope code is not OK (2.3: the value OK marks success)';
  const mediaType = typeof r['contentType'] === 'string' ? r['contentType'] : null;
  // 4.1 names the credentials response's Content-Type; 4.3 leaves the payment response's headers not shown
  if (op === 'gateway.generateUploadUrl' && !isJsonMediaType(mediaType))
    return (
      `the response Content-Type is ${JSON.stringify(mediaType)}, not application/json ` +
      '(4.1: HTTP 200 with headers Content-Type (application/json))'
    );
  if ('errorMessageRaw' in r && r['errorMessageRaw'] !== null)
    return (
      `errorMessage is ${JSON.stringify(r['errorMessageRaw'])} on success ` +
      '(2.3, 7: success is code OK with errorMessage null; absent or null pass)'
    );
  if (r['verified'] !== true) {
    const why = typeof r['verifyProblem'] === 'string' ? r['verifyProblem'] : 'no reason';
    return `the response does not verify (5.4): ${why}`;
  }
  if (r['dataProblem']) return `data is not valid: ${String(r['dataProblem'])}`;
  return undefined;
}

/**
 * The contentType a credentials body asked for, when it is a JSON object with a string contentType (2.4: the
 * formFields Content-Type entry equals it).
 * @param text - the request body as sent
 * @returns the contentType, or undefined
 * @example requestedContentType('{"filename":"a.pdf","contentType":"application/pdf"}') // 'application/pdf'
 */
export function requestedContentType(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const value = (parsed as Record<string, unknown>)['contentType'];
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

// --- internal ---

/**
 * The media type of a Content-Type value is application/json, whatever its parameters (`; charset=utf-8`): RFC 9110
 * §8.3.1 compares type and subtype without regard to case.
 */
function isJsonMediaType(value: string | null): boolean {
  if (value === null) return false;
  return (value.split(';')[0] ?? '').trim().toLowerCase() === 'application/json';
}

function dataProblem(op: GatewayApiOperation, data: unknown, contentType: string | undefined): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'data is not an object';
  const d = data as Record<string, unknown>;
  if (op === 'gateway.createPayment')
    return typeof d['paymentNo'] === 'string' ? undefined : 'data.paymentNo is not a string';
  // httpMethod: a string; "POST in the shown case" (2.4) is no rule, the client uses what is returned (4.2)
  for (const f of ['uploadUrl', 'storageUri', 'uploadNo', 'httpMethod'])
    if (typeof d[f] !== 'string') return `data.${f} is not a string (2.4)`;
  if (!/^[a-z][a-z0-9+.-]*:\/\/.+\/[^/]+\.[^./]+$/i.test(String(d['storageUri'])))
    return 'data.storageUri is not <scheme>://<path>/<name>.<extension> (2.4)';
  if (!/^\d+-[0-9a-f]+$/i.test(String(d['uploadNo']))) return 'data.uploadNo is not <digits>-<hex> (2.4)';
  const ff = d['formFields'];
  if (
    typeof ff !== 'object' ||
    ff === null ||
    Array.isArray(ff) ||
    !Object.values(ff).every((v) => typeof v === 'string')
  )
    return 'data.formFields is not an object of strings (2.4)';
  // 2.4: the Content-Type entry "equals the requested contentType"; without a requested one, any value passes. The
  // name is matched without regard to case, as the upload form's field names are (S3 POST policies)
  const typeEntry = Object.entries(ff).find(([n]) => n.toLowerCase() === 'content-type');
  if (contentType !== undefined && typeEntry && typeEntry[1] !== contentType)
    return (
      `data.formFields ${JSON.stringify(typeEntry[0])} is ${JSON.stringify(typeEntry[1])}, not the requested ` +
      `contentType ${JSON.stringify(contentType)} (2.4: equals the requested contentType)`
    );
  return undefined;
}
