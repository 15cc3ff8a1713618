/**
 * The gateway's judgement of an API request (spec §4.1, §4.3, §5, §2.1, §2.2, §2.5; R16), apart from answering
 * it: the path and method, Content-Type application/json and an Accept naming it (4.1), the signature (5; the
 * outcome of {@link authenticateRequest}), the body UTF-8 JSON with no member twice, valid for its operation. The
 * reference gateway answers by it, and the live-traffic judge (`pgv2kit proxy`, `pgv2kit check`) judges a
 * client's request by it: one judge of a request wherever the kit meets one.
 * @module
 */
import { parseContentType } from '../upload/content-type.js';
import { duplicateMember } from './_duplicate-members.js';
import { quoteText } from './_ajv.js';
import { checkCredentialsBody, type CredentialsBodyOutcome } from './credentials-schema.js';
import { failure, type ApiFailure } from './failures.js';
import type { Merchant } from './merchants.js';
import { checkPaymentBody, type PaymentRequest } from './payment.js';
import type { AuthOutcome } from './request-auth.js';

/**
 * The operation paths of the API.
 * @example new URL(API_PATHS.generateUploadUrl, gateway.baseUrl)
 */
export const API_PATHS = Object.freeze({
  generateUploadUrl: '/pg/v2/file/generateUploadUrl',
  createPayment: '/pg/v2/payment/create',
});

/** An API request as received, for {@link judgeApiRequest}. */
export interface ApiRequestToJudge {
  readonly method: string;
  /** The path, without a scenario prefix and without the query. */
  readonly path: string;
  /** The Content-Type header, or undefined. */
  readonly contentType: string | undefined;
  /** The Accept header, or undefined. */
  readonly accept: string | undefined;
  /** The body bytes as received. */
  readonly body: Uint8Array;
  /** The signature's verification ({@link authenticateRequest}). */
  readonly auth: AuthOutcome;
}

/** What {@link judgeApiRequest} found: the request as the gateway takes it, or the refusal it answers with. */
export type ApiJudgement =
  | {
      readonly ok: true;
      readonly operation: 'generateUploadUrl';
      readonly merchant: Merchant;
      readonly credentials: Extract<CredentialsBodyOutcome, { valid: true }>;
    }
  | {
      readonly ok: true;
      readonly operation: 'createPayment';
      readonly merchant: Merchant;
      readonly payment: PaymentRequest;
    }
  | { readonly ok: false; readonly failure: ApiFailure };

/**
 * Judges an API request as the reference gateway does, in its order: path (404), method (405), Content-Type (415),
 * Accept (406), signature (401), the body JSON (400) and valid for the operation (400).
 * @param r - the request
 * @returns the operation and what the body holds, or the refusal (its code and why)
 * @example
 * judgeApiRequest({
 *   method: 'GET',
 *   path: '/pg/v2/payment/create',
 *   contentType: undefined,
 *   accept: undefined,
 *   body: new Uint8Array(),
 *   auth: { valid: false, problem: { kind: 'no-authorization' }, message: 'no', mistakes: [] },
 * }).ok // false — METHOD_NOT_ALLOWED: /pg/v2/payment/create takes POST
 */
export function judgeApiRequest(r: ApiRequestToJudge): ApiJudgement {
  const refuse = (f: ApiFailure): ApiJudgement => ({ ok: false, failure: f });
  const isCredentials = r.path === API_PATHS.generateUploadUrl;
  if (!isCredentials && r.path !== API_PATHS.createPayment)
    return refuse(
      failure(
        'NOT_FOUND',
        `no operation at ${quoteText(r.path)}; the operations are POST ${API_PATHS.generateUploadUrl} ` +
          `and POST ${API_PATHS.createPayment}`,
      ),
    );
  if (r.method !== 'POST')
    return refuse(failure('METHOD_NOT_ALLOWED', `method ${quoteText(r.method)} is not allowed; ${r.path} takes POST`));
  const typeProblem = contentTypeProblem(r.contentType);
  if (typeProblem) return refuse(failure('UNSUPPORTED_MEDIA_TYPE', typeProblem));
  const acceptProblem = acceptHeaderProblem(r.accept);
  if (acceptProblem) return refuse(failure('NOT_ACCEPTABLE', acceptProblem));
  if (!r.auth.valid) return refuse(failure('UNAUTHORIZED', r.auth.message));
  const parsed = parseJsonBody(r.body);
  if (!parsed.ok) return refuse(failure('INVALID_ARGUMENT', parsed.message));
  if (isCredentials) {
    const checked = checkCredentialsBody(parsed.value);
    if (!checked.valid) return refuse(failure('INVALID_ARGUMENT', checked.problem.message));
    return { ok: true, operation: 'generateUploadUrl', merchant: r.auth.merchant, credentials: checked };
  }
  const checked = checkPaymentBody(parsed.value);
  if (!checked.valid) return refuse(failure('INVALID_ARGUMENT', checked.problem.message));
  return { ok: true, operation: 'createPayment', merchant: r.auth.merchant, payment: checked.payment };
}

// --- internal ---

/** §4.1: only application/json (a charset parameter, if any, UTF-8). */
function contentTypeProblem(value: string | undefined): string | undefined {
  if (value === undefined) return 'no Content-Type header: only application/json is accepted (4.1)';
  const parsed = parseContentType(value.trim());
  if (!parsed || parsed.type !== 'application' || parsed.subtype !== 'json')
    return `Content-Type ${quoteText(value)} is not application/json (4.1)`;
  const charset = parsed.params['charset'];
  if (charset !== undefined && !/^utf-?8$/i.test(charset))
    return `Content-Type charset ${quoteText(charset)} is not UTF-8 (4.1, 5.2)`;
  return undefined;
}

/** §4.1: the Accept header must name application/json (with a q other than 0). */
function acceptHeaderProblem(value: string | undefined): string | undefined {
  if (value === undefined) return 'no Accept header: only application/json is accepted (4.1)';
  const named = value.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((p) => p.trim());
    if (type.toLowerCase() !== 'application/json') return false;
    const q = params.find((p) => /^q=/i.test(p));
    return q === undefined || Number(q.slice(2)) > 0;
  });
  return named ? undefined : `Accept ${quoteText(value)} does not name application/json (4.1)`;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function parseJsonBody(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false; message: string } {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { ok: false, message: 'the body is not valid UTF-8 (5.1, R3)' };
  }
  if (text.startsWith('\ufeff'))
    return { ok: false, message: 'the body starts with a byte order mark, which JSON text must not (RFC 8259 §8.1)' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `the body is not JSON: ${(e as Error).message}` };
  }
  const twice = duplicateMember(text);
  if (twice) {
    const where = twice.pointer === '' ? 'the body' : `the object at ${quoteText(twice.pointer)}`;
    return {
      ok: false,
      message:
        `the member ${quoteText(twice.name)} appears twice in ${where}: ` +
        'which value counts is not defined (RFC 8259 §4), so the body is refused',
    };
  }
  return { ok: true, value };
}
