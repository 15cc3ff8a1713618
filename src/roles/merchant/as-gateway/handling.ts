/**
 * What a merchant did with a call, from its outcome. Accepted = an answer that reads as
 * acceptance at the endpoint called (src/roles/merchant/as-gateway/acceptance.ts: the notify endpoint a 2xx, with
 * `acceptBody` one with that body; the return endpoint a 2xx or 3xx that is not the refusal page
 * the merchant named). Refused = an answer that is not accepted and is not 5xx (R16: any
 * non-success form). A 5xx, a timeout, a reset connection or another transport error is neither.
 * @module
 */
import { isAccepting, type AcceptanceRule, type Endpoint } from './acceptance.js';
import type { SendOutcome } from './send.js';

/** What the merchant did with a call. */
export type Handling =
  'accepted' | 'refused' | 'server-error' | 'timeout' | 'reset' | 'refused-connection' | 'transport-error';

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
 * @param endpoint - the endpoint called (notify or return)
 * @param rule - what counts as acceptance ({@link AcceptanceRule}: --accept-body, --return-refusal-body,
 * --return-refusal-location)
 * @param base - the URL a relative Location is resolved against (the returnUrl as registered)
 * @returns the handling
 * @example handlingOf({ kind: 'response', status: 200, body: '', ms: 1 }, 'notify') // 'accepted'
 */
export function handlingOf(
  outcome: SendOutcome,
  endpoint: Endpoint,
  rule: AcceptanceRule = {},
  base = 'http://localhost/',
): Handling {
  if (outcome.kind === 'error') {
    return outcome.error === 'timeout'
      ? 'timeout'
      : outcome.error === 'reset'
        ? 'reset'
        : outcome.error === 'refused'
          ? 'refused-connection'
          : 'transport-error';
  }
  if (outcome.status >= 500) return 'server-error';
  if (isAccepting(outcome, endpoint, rule, base)) return 'accepted';
  return 'refused';
}
