/**
 * Judges one outcome against its expectation.
 *
 * Accepted = a 2xx status and, with `acceptBody`, a body equal to it (white space
 * around it ignored). Refused = an answer that is not accepted and is not 5xx: a 4xx,
 * a 3xx, or (with `acceptBody`) a 2xx with another body (R16: any non-success form).
 * A 5xx, a timeout, a reset connection or another transport error is neither: it fails
 * every accept, refuse and acceptable check with that reason ("answered 500": a merchant
 * must refuse a bad call cleanly, not crash on it). Advisory checks never fail; they say
 * what the merchant did.
 * @module
 */
import type { Expectation } from './plan.js';
import type { SendOutcome } from './send.js';
import { clip } from '../scheme/text.js';

/** What the merchant did with a call. */
export type Handling = 'accepted' | 'refused' | 'server-error' | 'timeout' | 'reset' | 'refused-connection' | 'transport-error';

/** The result of a check. */
export type CheckResult = 'pass' | 'fail' | 'advisory' | 'not-applicable';

/** The judgement of one check. */
export interface Judgement {
  readonly result: CheckResult;
  readonly handling: Handling | 'not-sent';
  /** One line: what happened and, for a failure, why it fails. */
  readonly reason: string;
}

/** What each handling means, for reports. */
export const HANDLING_TITLES: Readonly<Record<Handling, string>> = {
  accepted: 'accepted',
  refused: 'refused',
  'server-error': 'answered 5xx (server error)',
  timeout: 'no answer within the timeout (hangs or too slow)',
  reset: 'connection reset or closed without an answer',
  'refused-connection': 'connection refused (nothing listening)',
  'transport-error': 'transport error',
};

/**
 * Classifies what the merchant did with a call.
 * @param outcome - the outcome of the call
 * @param acceptBody - the body an accepting merchant answers, if required
 * @returns the handling
 * @example handlingOf({ kind: 'response', status: 200, body: '', ms: 1 }) // 'accepted'
 */
export function handlingOf(outcome: SendOutcome, acceptBody?: string): Handling {
  if (outcome.kind === 'error') {
    return outcome.error === 'timeout' ? 'timeout' : outcome.error === 'reset' ? 'reset' : outcome.error === 'refused' ? 'refused-connection' : 'transport-error';
  }
  if (outcome.status >= 500) return 'server-error';
  if (outcome.status >= 200 && outcome.status < 300 && (acceptBody === undefined || outcome.body.trim() === acceptBody.trim())) return 'accepted';
  return 'refused';
}

/**
 * Judges an outcome.
 * @param expect - the expectation of the check
 * @param outcome - the outcome
 * @param acceptBody - see {@link handlingOf}
 * @returns the judgement
 * @example judge('refuse', { kind: 'response', status: 401, body: '', ms: 1 }).result // 'pass'
 */
export function judge(expect: Expectation, outcome: SendOutcome, acceptBody?: string): Judgement {
  const handling = handlingOf(outcome, acceptBody);
  const what = outcome.kind === 'response' ? `${HANDLING_TITLES[handling]}: status ${outcome.status}${outcome.body ? `, body ${JSON.stringify(clip(outcome.body, 120))}` : ''}` : `${HANDLING_TITLES[handling]}: ${outcome.message}`;
  const ok = handling === 'accepted' || handling === 'refused';
  switch (expect) {
    case 'advisory':
      return { result: 'advisory', handling, reason: what };
    case 'acceptable':
      return ok ? { result: 'pass', handling, reason: `${what} (either is acceptable; the merchant ${handling} it)` } : { result: 'fail', handling, reason: `${what}; must be accepted or refused cleanly` };
    case 'accept':
      return handling === 'accepted' ? { result: 'pass', handling, reason: what } : { result: 'fail', handling, reason: `${what}; must be accepted${acceptBody !== undefined ? ` (2xx with body ${JSON.stringify(acceptBody)})` : ' (2xx)'}` };
    case 'refuse':
      return handling === 'refused'
        ? { result: 'pass', handling, reason: what }
        : { result: 'fail', handling, reason: handling === 'accepted' ? `${what}; must be refused` : `${what}; must be refused with a non-2xx answer below 500, not ${HANDLING_TITLES[handling]}` };
  }
}

// --- internal ---

