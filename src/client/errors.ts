/**
 * The reference client's runtime failures: one error class with a stable `code`
 * (as undici's `UND_ERR_*`), and a table giving each code a title and a description.
 * Misuse (a wrong type, a value that cannot be sent) is a `TypeError` or `RangeError`,
 * never a {@link ClientError}.
 * @module
 */
import type { VerifyProblem } from '../scheme/verify.js';
import { Pgv2kitError } from '../errors.js';

/**
 * Every code a {@link ClientError} can carry.
 * @example CLIENT_ERROR_CODES.includes('PGV2_CLIENT_TIMEOUT') // true
 */
export const CLIENT_ERROR_CODES = [
  'PGV2_CLIENT_NETWORK',
  'PGV2_CLIENT_TIMEOUT',
  'PGV2_CLIENT_RESPONSE_TOO_LARGE',
  'PGV2_CLIENT_HTTP_STATUS',
  'PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC',
  'PGV2_CLIENT_MALFORMED_RESPONSE',
  'PGV2_CLIENT_GATEWAY_CODE',
  'PGV2_CLIENT_INVALID_REQUEST',
  'PGV2_CLIENT_UPLOAD_FAILED',
] as const;

/** One of {@link CLIENT_ERROR_CODES}. */
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

/** What the kit says about one {@link ClientErrorCode}. */
export interface ClientErrorInfo {
  readonly title: string;
  readonly description: string;
  /** Sections of the spec and readings the rule comes from. */
  readonly sources: readonly string[];
}

/**
 * Each {@link ClientErrorCode} with a title, a description and its sources.
 * @example CLIENT_ERRORS.PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC.title // 'Response not authentic'
 */
export const CLIENT_ERRORS: Readonly<Record<ClientErrorCode, ClientErrorInfo>> = Object.freeze({
  PGV2_CLIENT_NETWORK: {
    title: 'Network failure',
    description: 'The connection could not be made, or broke before a whole response arrived.',
    sources: [],
  },
  PGV2_CLIENT_TIMEOUT: {
    title: 'Timed out',
    description: 'The connection, the response headers or the next piece of the body took longer than the timeout.',
    sources: [],
  },
  PGV2_CLIENT_RESPONSE_TOO_LARGE: {
    title: 'Response too large',
    description: 'The response body is larger than the client reads (maxResponseBytes); it was not used.',
    sources: [],
  },
  PGV2_CLIENT_HTTP_STATUS: {
    title: 'Gateway refused',
    description:
      'The gateway answered with an HTTP status other than 200. Such a response is not ' +
      'verified (R9) and never used as success; its errorMessage is quoted when readable (R16).',
    sources: ['5.4', '7', 'R9', 'R16'],
  },
  PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC: {
    title: 'Response not authentic',
    description:
      'An HTTP 200 whose signature does not verify over the raw response bytes: no Authorization, ' +
      'a malformed one, another appId, or a sign that does not match. Nothing in it is used.',
    sources: ['5.4', '7', 'R9'],
  },
  PGV2_CLIENT_MALFORMED_RESPONSE: {
    title: 'Malformed response',
    description: 'A verified response whose body is not the envelope of 2.3 with the data the operation needs (2.4).',
    sources: ['2.3', '2.4'],
  },
  PGV2_CLIENT_GATEWAY_CODE: {
    title: 'Gateway code not OK',
    description: 'A verified envelope whose code is not OK (the credentials were not issued).',
    sources: ['2.3', '7', 'R16'],
  },
  PGV2_CLIENT_INVALID_REQUEST: {
    title: 'Request refused before sending',
    description:
      'The preflight check (option preflight) found the credentials ' +
      'request or the file outside 2.1, 2.2 and 8; nothing was sent.',
    sources: ['2.1', '2.2', '8', 'R13'],
  },
  PGV2_CLIENT_UPLOAD_FAILED: {
    title: 'Upload failed',
    description: 'The upload address answered with something other than HTTP 204; the file is not stored.',
    sources: ['3', '4.2', '7', 'R16'],
  },
});

/** Details a {@link ClientError} may carry. */
export interface ClientErrorDetails {
  /** The HTTP status of the response concerned, when there was one. */
  readonly status?: number;
  /** Why a 200 did not verify (PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC). */
  readonly problem?: VerifyProblem;
  /** The envelope's code (PGV2_CLIENT_GATEWAY_CODE, and PGV2_CLIENT_HTTP_STATUS when readable). */
  readonly gatewayCode?: string;
  /** The underlying error. */
  readonly cause?: unknown;
}

/**
 * A runtime failure of the reference client, with a stable `code` and a message naming
 * why. Messages never contain the application secret (they pass through `redact`).
 * @example
 * const e = await createPayment({
 *   baseUrl: 'http://127.0.0.1:9',
 *   appId,
 *   appSecret,
 *   payment: { merchantTradeNo: 'M1', amount: '1.00', currency: 'EUR' },
 * }).catch((e) => e);
 * e instanceof ClientError && e.code // 'PGV2_CLIENT_NETWORK' — nothing listens on port 9
 */
export class ClientError extends Pgv2kitError {
  override readonly name = 'ClientError';
  /** One of {@link CLIENT_ERROR_CODES}. */
  override readonly code: ClientErrorCode;
  /** A failure (exit 3). */
  override readonly exit = 'failure';
  /** The HTTP status of the response concerned, when there was one. */
  readonly status: number | undefined;
  /** Why a 200 did not verify, for PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC. */
  readonly problem: VerifyProblem | undefined;
  /** The envelope's code, when one was read. */
  readonly gatewayCode: string | undefined;

  /**
   * @param code - the stable code
   * @param message - what happened, without secrets
   * @param details - status, verification problem, envelope code, cause
   */
  constructor(code: ClientErrorCode, message: string, details: ClientErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.status = details.status;
    this.problem = details.problem;
    this.gatewayCode = details.gatewayCode;
  }
}
