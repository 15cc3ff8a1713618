/**
 * The verdicts readings R7 and R8 allow a verifier to give for a signed message: whether
 * accepting it and whether refusing it can be conformant. A header has several allowed
 * parse answers ({@link headerAnswers}); the message may be accepted when one of them
 * verifies (R7: an upper-case sign may also be refused), and may be refused when the header
 * may be refused or when one of them does not verify.
 * @module
 */
import { ITEM_NAMES, type AuthorizationItems } from './authorization.js';
import { headerAnswers } from './header-answers.js';
import type { SignatureParts } from './parts.js';
import { sign } from './sign.js';

/** What a verifier may answer for one message. */
export interface VerifyAnswers {
  /** Accepting is conformant: some allowed parse of the header verifies. */
  readonly mayAccept: boolean;
  /** Refusing is conformant. */
  readonly mayRefuse: boolean;
}

/** The one-word form of {@link VerifyAnswers}, as vector results write it. */
export type VerifyResult = 'valid' | 'invalid' | 'acceptable';

/**
 * Which verdicts are conformant for a message (spec §5.1–§5.5, readings R6–R9).
 * @param parts - every part but timestamp and nonce, which come from the header (R6);
 *   the receiver's own appId (R9) and secret
 * @param authorization - the header value, or null/undefined when there is none
 * @returns whether accepting and whether refusing is conformant
 * @example verifyAnswers({ appId, appSecret, method: 'POST', url, body }, authorization).mayAccept // true
 */
export function verifyAnswers(
  parts: Omit<SignatureParts, 'timestamp' | 'nonce'>,
  authorization: string | null | undefined,
): VerifyAnswers {
  if (authorization === null || authorization === undefined) return { mayAccept: false, mayRefuse: true };
  const answers = headerAnswers(authorization);
  let mayAccept = false;
  let mayRefuse = answers.refusable;
  for (const items of answers.accepted) {
    const verdict = itemsVerify(parts, items);
    if (verdict !== 'refused') mayAccept = true;
    if (verdict !== 'verified') mayRefuse = true;
  }
  return { mayAccept, mayRefuse };
}

/**
 * The vector result a set of verdicts stands for.
 * @param answers - from {@link verifyAnswers}
 * @returns valid (must accept), invalid (must refuse) or acceptable (either)
 * @example verifyResult({ mayAccept: true, mayRefuse: true }) // 'acceptable'
 */
export function verifyResult(answers: VerifyAnswers): VerifyResult {
  if (!answers.mayAccept) return 'invalid';
  return answers.mayRefuse ? 'acceptable' : 'valid';
}

/**
 * Whether a verifier may accept a message whose header carries exactly these items as
 * genuine: `verified` (must be accepted), `upper-case` (the right digest in upper-case hex:
 * either way, R7), or `refused`.
 * @param parts - every part but timestamp and nonce
 * @param items - the header's items
 * @returns the verdict
 * @example
 * itemsVerify(
 *   { appId, appSecret, method: 'POST', url, body },
 *   parseAuthorization(authorization).items,
 * ) // 'verified'
 */
export function itemsVerify(
  parts: Omit<SignatureParts, 'timestamp' | 'nonce'>,
  items: AuthorizationItems,
): 'verified' | 'upper-case' | 'refused' {
  if (items.appId !== parts.appId || !/^[0-9a-fA-F]{64}$/.test(items.sign)) return 'refused';
  if (sign({ ...parts, timestamp: items.timestamp, nonce: items.nonce }) !== items.sign.toLowerCase()) return 'refused';
  return /[A-F]/.test(items.sign) ? 'upper-case' : 'verified';
}

/**
 * Whether two sets of items carry the same four values.
 * @param a - items
 * @param b - items
 * @returns true when every value is equal
 * @example sameItems(parseAuthorization(authorization).items, { ...parseAuthorization(authorization).items }) // true
 */
export function sameItems(a: AuthorizationItems, b: AuthorizationItems): boolean {
  return ITEM_NAMES.every((n) => a[n] === b[n]);
}
