/**
 * What counts as acceptance, per endpoint of the merchant (spec 5.5, 5.6; R16). The notify
 * endpoint answers the gateway: accepted is a 2xx, or with `acceptBody` (`--accept-body`) a
 * 2xx whose body is that text. The return endpoint answers a browser with a page: accepted is
 * a 2xx or a 3xx, refused a 4xx — unless the merchant says how its refusal page looks: a 2xx or
 * 3xx whose body contains `returnRefusalBody` (`--return-refusal-body`), or a 3xx whose Location
 * starts with `returnRefusalLocation` (`--return-refusal-location`: an http(s) URL, or a path
 * prefix `/…` compared with the Location's path and query) is a refusal too. A 5xx is neither
 * here: R16 judges it ({@link judgeAnswer} in src/refusal.ts).
 * @module
 */

/** The merchant's two endpoints: notify (webhooks, 5.5) and return (redirects, 5.6). */
export type Endpoint = 'notify' | 'return';

/** How the merchant's answers read: the options of certify and run --merchant. */
export interface AcceptanceRule {
  /** Notify endpoint: an accepting answer is a 2xx whose body equals this text (white space around it ignored). */
  readonly acceptBody?: string;
  /** Return endpoint: a 2xx or 3xx whose body contains this text is a refusal. */
  readonly returnRefusalBody?: string;
  /**
   * Return endpoint: a 3xx whose Location starts with this (an http(s) URL, or a path prefix starting with "/") is a
   * refusal.
   */
  readonly returnRefusalLocation?: string;
}

/** An HTTP answer as far as acceptance goes. */
export interface AnswerRead {
  readonly status: number;
  readonly body: string;
  readonly location?: string;
}

/**
 * The endpoint an operation calls.
 * @param op - merchant.webhook or merchant.redirect
 * @returns notify or return
 * @example endpointOf('merchant.redirect') // 'return'
 */
export function endpointOf(op: 'merchant.webhook' | 'merchant.redirect'): Endpoint {
  return op === 'merchant.webhook' ? 'notify' : 'return';
}

/**
 * Whether an answer that is not a 5xx reads as acceptance.
 * @param answer - status, body and Location of the answer
 * @param endpoint - the endpoint that answered
 * @param rule - the acceptance options
 * @param base - the URL a relative Location is resolved against (the returnUrl as registered: what the browser sees)
 * @returns true when it reads as acceptance
 * @example isAccepting({ status: 302, body: '' }, 'return', {}, 'https://shop.example/r') // true
 */
export function isAccepting(answer: AnswerRead, endpoint: Endpoint, rule: AcceptanceRule, base: string): boolean {
  const { status } = answer;
  if (endpoint === 'notify')
    return (
      status >= 200 && status < 300 && (rule.acceptBody === undefined || answer.body.trim() === rule.acceptBody.trim())
    );
  if (status < 200 || status >= 400) return false;
  if (rule.returnRefusalBody !== undefined && answer.body.includes(rule.returnRefusalBody)) return false;
  if (
    status >= 300 &&
    rule.returnRefusalLocation !== undefined &&
    answer.location !== undefined &&
    locationMatches(answer.location, rule.returnRefusalLocation, base)
  )
    return false;
  return true;
}

/**
 * What counts as acceptance at an endpoint, in words (help, messages, the certification report).
 * @param endpoint - the endpoint
 * @param rule - the acceptance options
 * @returns e.g. `a 2xx with body "SUCCESS"`, or `a 2xx or 3xx, except a 3xx to "/pay/failed…"`
 * @example acceptanceWords('notify', {}) // 'any 2xx'
 */
export function acceptanceWords(endpoint: Endpoint, rule: AcceptanceRule): string {
  if (endpoint === 'notify')
    return rule.acceptBody !== undefined ? `a 2xx with body ${JSON.stringify(rule.acceptBody)}` : 'any 2xx';
  const except = [
    ...(rule.returnRefusalBody !== undefined
      ? [`a page whose body contains ${JSON.stringify(rule.returnRefusalBody)}`]
      : []),
    ...(rule.returnRefusalLocation !== undefined
      ? [`a 3xx to ${JSON.stringify(`${rule.returnRefusalLocation}…`)}`]
      : []),
  ];
  return `a 2xx or 3xx${except.length ? `, except ${except.join(' or ')}` : ''}`;
}

/**
 * Why the return endpoint's refusal options make no sense, if they do not.
 * @param rule - the acceptance options
 * @returns the problem in one line, naming the option, or undefined
 * @example
 * const problem = acceptanceProblem({ returnRefusalLocation: 'failed' });
 * problem // '--return-refusal-location must be an http(s):// URL or a path starting with "/" (…), not "failed"'
 */
export function acceptanceProblem(rule: AcceptanceRule): string | undefined {
  if (rule.returnRefusalBody !== undefined && rule.returnRefusalBody.trim() === '')
    return (
      '--return-refusal-body needs a text the return page shows only when it refuses ' +
      '(e.g. "could not be verified"), not an empty one'
    );
  const l = rule.returnRefusalLocation;
  if (l !== undefined && !(/^https?:\/\/[^/]/.test(l) || /^\/(?!\/)/.test(l)))
    return (
      '--return-refusal-location must be an http(s):// URL or a path starting with "/" ' +
      `(where the return endpoint redirects a refused payment), not ${JSON.stringify(l)}`
    );
  if (l !== undefined && l.includes('#'))
    return (
      '--return-refusal-location must not have a fragment ' +
      '(a browser never sends one, and a Location compared by it would never match)'
    );
  return undefined;
}

// --- internal ---

function locationMatches(location: string, prefix: string, base: string): boolean {
  let resolved: URL;
  try {
    resolved = new URL(location, base);
  } catch {
    return false;
  }
  return prefix.startsWith('/')
    ? `${resolved.pathname}${resolved.search}`.startsWith(prefix)
    : resolved.href.startsWith(prefix);
}
