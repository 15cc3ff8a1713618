/**
 * How the reference gateway's API refuses a request. The spec gives no error codes or
 * statuses (§7 "List of response codes: not shown"; R16: any non-2xx status or any
 * envelope whose code is not OK is a failure), so these are the gateway's choices:
 * the HTTP status says the class of failure, the 2.3 envelope's code names it, and its
 * errorMessage says exactly why, in words, naming the field, rule or header item.
 * @module
 */

/** The envelope code of every refusal of the API (code OK marks success, 2.3). */
export type FailureCode =
  | 'UNAUTHORIZED'
  | 'INVALID_ARGUMENT'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'NOT_ACCEPTABLE'
  | 'PAYLOAD_TOO_LARGE'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'REQUEST_TIMEOUT'
  | 'BAD_REQUEST'
  | 'INTERNAL';

/** What the gateway says about one {@link FailureCode}. */
export interface FailureInfo {
  /** The HTTP status the refusal carries. */
  readonly status: number;
  readonly title: string;
  readonly description: string;
  /** Sections of the spec and readings the rule comes from. */
  readonly sources: readonly string[];
}

/**
 * Each {@link FailureCode} with its HTTP status, a title and a description (R16: the
 * failure form is the gateway's own).
 * @example API_FAILURES.UNAUTHORIZED.status // 401
 */
export const API_FAILURES: Readonly<Record<FailureCode, FailureInfo>> = Object.freeze({
  UNAUTHORIZED: {
    status: 401,
    title: 'Signature not verified',
    description:
      'No Authorization header, a malformed one (R8), an unknown appId, or a sign that does not match the ' +
      'signature content (5.1–5.3). errorMessage names the problem and, for a sign mismatch, the known signer ' +
      'mistake that reproduces the sign.',
    sources: ['5.1', '5.2', '5.3', '7', 'R16'],
  },
  INVALID_ARGUMENT: {
    status: 400,
    title: 'Body refused',
    description:
      'The body is not UTF-8 JSON, not an object, or breaks a rule of 2.1/2.2 (credentials request) or a type of ' +
      '2.5 (payment creation). errorMessage names the field and the rule.',
    sources: ['2.1', '2.2', '2.5', '8', 'R13', 'R16'],
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    title: 'Content-Type not application/json',
    description:
      'The request has no Content-Type, or one whose media type is not application/json (a charset other than ' +
      'UTF-8 included).',
    sources: ['4.1', 'R16'],
  },
  NOT_ACCEPTABLE: {
    status: 406,
    title: 'Accept does not name application/json',
    description: 'The request has no Accept header, or one that does not list application/json (with a non-zero q).',
    sources: ['4.1', 'R16'],
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    title: 'Body too large',
    description: 'The body is larger than the API reads (64 KiB); refused as soon as the limit is crossed.',
    sources: ['R16'],
  },
  NOT_FOUND: {
    status: 404,
    title: 'No such operation',
    description:
      'The path is not an operation of the gateway (/pg/v2/file/generateUploadUrl, /pg/v2/payment/create), with or ' +
      'without a /s/<scenario id> prefix.',
    sources: ['4.1', '4.3'],
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    title: 'Method not POST',
    description: 'Every operation of the gateway is a POST.',
    sources: ['4.1', '4.3'],
  },
  REQUEST_TIMEOUT: {
    status: 408,
    title: 'Body stopped arriving',
    description: 'The body stopped half-way for longer than the body timeout.',
    sources: ['R16'],
  },
  BAD_REQUEST: {
    status: 400,
    title: 'Not a readable HTTP request',
    description:
      'The HTTP parser refused the request (a malformed request line or header, or a connection closed half-way ' +
      'through the body); 431 when the headers are too large.',
    sources: ['R16'],
  },
  INTERNAL: {
    status: 500,
    title: 'Internal error',
    description: 'A bug in the gateway: logged, never expected for any input.',
    sources: [],
  },
});

/** A refusal: the code and why. */
export interface ApiFailure {
  readonly code: FailureCode;
  readonly message: string;
}

/**
 * A refusal with its message.
 * @param code - the failure code
 * @param message - why, in words
 * @returns the failure
 * @example failure('NOT_FOUND', 'no operation at /x').code // 'NOT_FOUND'
 */
export function failure(code: FailureCode, message: string): ApiFailure {
  return { code, message };
}
