/**
 * Verification of signed messages (spec §5.4–§5.6): requests, responses, webhook
 * calls. Outcomes are data: `{ valid: true }` or `{ valid: false, problem }`, the
 * problem discriminated on `kind`, with a message that never contains the secret.
 * @module
 */
import {
  parseAuthorization,
  type AuthorizationItems,
  type HeaderProblem,
  describeHeaderProblem,
  type ParseOptions,
  type Tolerance,
} from './authorization.js';
import { signEquals } from './constant-time.js';
import type { SignatureParts } from './parts.js';
import { sign } from './sign.js';

/** Why a signed message did not verify. */
export type VerifyProblem =
  | { readonly kind: 'no-authorization' }
  | { readonly kind: 'malformed-authorization'; readonly header: HeaderProblem }
  | { readonly kind: 'app-id-mismatch'; readonly expected: string; readonly got: string }
  | { readonly kind: 'malformed-sign'; readonly reason: 'length' | 'non-hex' }
  | { readonly kind: 'uppercase-sign' }
  | { readonly kind: 'sign-mismatch' }
  | { readonly kind: 'status-not-verified'; readonly status: number }
  | { readonly kind: 'redirect-parameter'; readonly parameter: 'payment' | 'authorization'; readonly count: number }
  | { readonly kind: 'redirect-encoding'; readonly parameter: 'payment' | 'authorization' };

/** Kinds of {@link VerifyProblem}. */
export type VerifyProblemKind = VerifyProblem['kind'];

/** The outcome of a verification. */
export type VerifyOutcome =
  | { readonly valid: true; readonly items: AuthorizationItems; readonly tolerated: readonly Tolerance[] }
  | { readonly valid: false; readonly problem: VerifyProblem; readonly message: string };

/** Choices a verifier may make where the readings leave them open. */
export interface VerifyOptions {
  /** R7: accept the right digest written in upper-case hex. Default false (refused). */
  readonly acceptUppercaseHex?: boolean;
  /** R8: refuse white space, extra items and a lower-case scheme. Default false (tolerated). */
  readonly strictHeader?: boolean;
  /** R8 (d), (e): the parser's further choices (empty list elements ignored, item names folded). Default: neither. */
  readonly header?: Pick<ParseOptions, 'ignoreEmpty' | 'foldNames'>;
}

/** A merchant's credentials: the appId it expects in headers and its secret. */
export interface Credentials {
  readonly appId: string;
  readonly appSecret: string;
}

/** The inputs of {@link verifyRequest}. */
export interface SignedRequest extends Credentials {
  /** The method as sent (R5). */
  readonly method: string;
  /** The full URL as sent (R4). */
  readonly url: string;
  /** The Authorization header value, or null when the request had none. */
  readonly authorization: string | null;
  /** The body bytes as received (R3). */
  readonly body: Uint8Array | string;
}

/**
 * Verifies a signed request as the gateway does (spec §5.1–§5.3, readings R3–R8).
 * @param request - credentials, method, URL, Authorization and body as received
 * @param options - {@link VerifyOptions}
 * @returns valid with the header items, or the problem
 * @example verifyRequest({ appId, appSecret, method: 'POST', url, authorization, body }).valid // true
 */
export function verifyRequest(request: SignedRequest, options: VerifyOptions = {}): VerifyOutcome {
  return verifySigned(request, request.authorization, options);
}

/** The inputs of {@link verifyResponse}. */
export interface SignedResponse extends Credentials {
  /** Method of the request the response answers (R9). */
  readonly method: string;
  /** Full URL of the request the response answers (R9). */
  readonly url: string;
  /** HTTP status of the response; only 200 is verified (§5.4, R9). */
  readonly status: number;
  /** The response's Authorization header, or null. */
  readonly authorization: string | null;
  /** The raw response bytes (§5.4, R9): never parsed and re-serialized. */
  readonly body: Uint8Array | string;
}

/**
 * Verifies a gateway response (spec §5.4, reading R9): only a 200 can be authentic;
 * a 200 without Authorization is invalid; the header's appId must be the merchant's own.
 * @param response - the response as received, with the request's method and URL
 * @param options - {@link VerifyOptions}
 * @returns valid, or the problem
 * @example verifyResponse({ appId, appSecret, method: 'POST', url, status: 200, authorization, body }).valid
 */
export function verifyResponse(response: SignedResponse, options: VerifyOptions = {}): VerifyOutcome {
  if (response.status !== 200) return refuse({ kind: 'status-not-verified', status: response.status });
  return verifySigned(response, response.authorization, options);
}

/** The inputs of {@link verifyWebhook}. */
export interface SignedWebhook extends Credentials {
  /** notifyUrl exactly as the merchant submitted it when creating the order (R10). */
  readonly notifyUrl: string;
  /** The webhook's method (POST). */
  readonly method: string;
  /** The Authorization header, or null. */
  readonly authorization: string | null;
  /** The body bytes as received (§5.5). */
  readonly body: Uint8Array | string;
}

/**
 * Verifies a webhook call (spec §5.5, reading R10): part 4 is the notifyUrl as
 * submitted, never the URL the call arrived on.
 * @param webhook - the call as received, with the notifyUrl as submitted
 * @param options - {@link VerifyOptions}
 * @returns valid, or the problem
 * @example
 * verifyWebhook({
 *   appId,
 *   appSecret,
 *   notifyUrl,
 *   method: 'POST',
 *   authorization,
 *   body,
 * }).valid // false — signed for url, not notifyUrl
 */
export function verifyWebhook(webhook: SignedWebhook, options: VerifyOptions = {}): VerifyOutcome {
  return verifySigned({ ...webhook, url: webhook.notifyUrl }, webhook.authorization, options);
}

/**
 * The verification shared by every signed message: parse the header (R8), check the
 * appId (R9), the sign's form (R7), then compare the sign in constant time.
 * @param parts - the parts other than timestamp and nonce, which come from the header (R6)
 * @param authorization - the header value, or null
 * @param options - {@link VerifyOptions}
 * @returns valid, or the problem
 * @example verifySigned({ appId, appSecret, method: 'POST', url, body }, authorization).valid // true
 */
export function verifySigned(
  parts: Omit<SignatureParts, 'timestamp' | 'nonce'>,
  authorization: string | null | undefined,
  options: VerifyOptions = {},
): VerifyOutcome {
  if (authorization === null || authorization === undefined) return refuse({ kind: 'no-authorization' });
  const parsed = parseAuthorization(authorization, { ...options.header, strict: options.strictHeader ?? false });
  if (!parsed.ok) return refuse({ kind: 'malformed-authorization', header: parsed.problem });
  const { items } = parsed;
  if (items.appId !== parts.appId) return refuse({ kind: 'app-id-mismatch', expected: parts.appId, got: items.appId });
  if (items.sign.length !== 64) return refuse({ kind: 'malformed-sign', reason: 'length' });
  if (!/^[0-9a-fA-F]{64}$/.test(items.sign)) return refuse({ kind: 'malformed-sign', reason: 'non-hex' });
  const uppercase = /[A-F]/.test(items.sign);
  if (uppercase && !options.acceptUppercaseHex) return refuse({ kind: 'uppercase-sign' });
  const computed = sign({ ...parts, timestamp: items.timestamp, nonce: items.nonce });
  if (!signEquals(computed, uppercase ? items.sign.toLowerCase() : items.sign))
    return refuse({ kind: 'sign-mismatch' });
  return { valid: true, items, tolerated: parsed.tolerated };
}

/**
 * A one-line description of a verification problem (no secret, no computed sign).
 * @param problem - the problem
 * @returns the message
 * @example describeVerifyProblem({ kind: 'sign-mismatch' }) // 'sign does not match the signature content'
 */
export function describeVerifyProblem(problem: VerifyProblem): string {
  switch (problem.kind) {
    case 'no-authorization':
      return 'no Authorization';
    case 'malformed-authorization':
      return `Authorization refused: ${describeHeaderProblem(problem.header)}`;
    case 'app-id-mismatch':
      return `appId ${JSON.stringify(problem.got)} is not the expected ${JSON.stringify(problem.expected)}`;
    case 'malformed-sign':
      return problem.reason === 'length'
        ? 'sign is not 64 hex digits long'
        : 'sign has a character that is not a hex digit';
    case 'uppercase-sign':
      return 'sign is in upper-case hex (R7: this verifier refuses it)';
    case 'sign-mismatch':
      return 'sign does not match the signature content';
    case 'status-not-verified':
      return `HTTP status ${problem.status} is not 200: only a 200 is verified as authentic (R9)`;
    case 'redirect-parameter':
      return `redirect has ${problem.count} ${problem.parameter} parameters, not exactly one (R11)`;
    case 'redirect-encoding':
      return `redirect parameter ${problem.parameter} is not valid percent-encoded UTF-8 (R11)`;
  }
}

/**
 * A refused outcome with its message (shared by the verifiers of this folder).
 * @param problem - the problem
 * @returns the outcome
 * @example refuse({ kind: 'sign-mismatch' }).valid // false
 */
export function refuse(problem: VerifyProblem): VerifyOutcome {
  return { valid: false, problem, message: describeVerifyProblem(problem) };
}
