/**
 * What a merchant did with a call, from its outcome. Accepted = a 2xx status and, with
 * `acceptBody`, a body equal to it (white space around it ignored). Refused = an answer that is
 * not accepted and is not 5xx: a 4xx, a 3xx, or (with `acceptBody`) a 2xx with another body (R16:
 * any non-success form). A 5xx, a timeout, a reset connection or another transport error is
 * neither.
 * @module
 */
import type { SendOutcome } from './send.js';

/** What the merchant did with a call. */
export type Handling = 'accepted' | 'refused' | 'server-error' | 'timeout' | 'reset' | 'refused-connection' | 'transport-error';

/**
 * What each handling means, for messages and reports.
 * @example HANDLING_TITLES['server-error'] // 'answered 5xx (server error)'
 */
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
