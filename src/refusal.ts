/**
 * How an HTTP answer to a message counts (spec §7, reading R16), the one rule the gateway
 * role (src/checks/gateway.ts), `fuzz --gateway` / `--merchant-notify` (src/fuzz/http.ts)
 * and the merchant role with certification (src/roles/merchant/check.ts, src/roles/merchant/certify/) share:
 * any answer that does not read as acceptance is a refusal (a non-2xx; at a merchant's return
 * endpoint, a page, what src/roles/merchant/as-gateway/acceptance.ts says); a 5xx answer to a forged, malformed or
 * refused message counts as a refusal too, reported as an advisory ("answered with a server error, not a
 * refusal"); a 5xx answer to a genuine message is a failure, as any refusal of it is.
 * @module
 */

/** What a message must get: accepted (genuine), refused (forged, malformed), or either (the readings allow both). */
export type AnswerExpectation = 'accept' | 'refuse' | 'either';

/** The advisory every role reports for a 5xx that counts as a refusal (R16). */
export const SERVER_ERROR_ADVISORY = 'answered with a server error, not a refusal (R16)';

/** How one answer counts against what the message must get. */
export interface AnswerJudgement {
  /** The answer is what the message must get (a 5xx counts as a refusal). */
  readonly ok: boolean;
  /** What the answer counts as. */
  readonly counted: 'accepted' | 'refused';
  /** The answer was a 5xx. */
  readonly serverError: boolean;
  /** Set when a 5xx counted as a refusal that was allowed: {@link SERVER_ERROR_ADVISORY}. */
  readonly advisory?: string;
  /**
   * Set when not ok: why, in one line (e.g. `answered 500 to a genuine message: a server error is a failure
   * (R16)`).
   */
  readonly problem?: string;
}

/**
 * Judges an HTTP answer by R16.
 * @param expect - what the message must get
 * @param status - the HTTP status of the answer
 * @param accepting - whether the answer otherwise reads as acceptance (a 2xx, an envelope code OK, the
 *   accept body the merchant was asked for); ignored for a 5xx
 * @returns whether the answer is allowed, what it counts as, and the advisory or the problem
 * @throws {RangeError} when status is not an HTTP status (100–599)
 * @example
 * const judged = judgeAnswer('refuse', 500, false);
 * judged // { ok: true, counted: 'refused', serverError: true, advisory: SERVER_ERROR_ADVISORY }
 * @example judgeAnswer('accept', 503, false).ok // false
 */
export function judgeAnswer(expect: AnswerExpectation, status: number, accepting: boolean): AnswerJudgement {
  if (!Number.isInteger(status) || status < 100 || status > 599)
    throw new RangeError(`judgeAnswer: status must be an HTTP status (100-599), got ${String(status)}`);
  const serverError = status >= 500;
  const counted = !serverError && accepting ? 'accepted' : 'refused';
  if (expect === 'accept') {
    if (counted === 'accepted') return { ok: true, counted, serverError };
    return {
      ok: false,
      counted,
      serverError,
      problem: serverError
        ? `answered ${status} to a genuine message: a server error is a failure (R16)`
        : `refused a genuine message (HTTP ${status})`,
    };
  }
  if (expect === 'refuse' && counted === 'accepted')
    return { ok: false, counted, serverError, problem: `accepted (HTTP ${status}) a message that must be refused` };
  return { ok: true, counted, serverError, ...(serverError ? { advisory: SERVER_ERROR_ADVISORY } : {}) };
}
