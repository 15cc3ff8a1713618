/**
 * Verification of the return-URL redirect (spec §5.6, reading R11).
 * @module
 */
import {
  refuse,
  verifySigned,
  type Credentials,
  type VerifyOptions,
  type VerifyOutcome,
  type VerifyProblem,
} from './verify.js';

/**
 * The parameters the gateway adds to the returnUrl at redirect (§5.6, §6).
 * @example REDIRECT_PARAMETERS.includes('payment') // true
 */
export const REDIRECT_PARAMETERS = ['paymentNo', 'merchantTradeNo', 'payment', 'authorization'] as const;

/** The inputs of {@link verifyRedirect}. */
export interface ReturnRedirect extends Credentials {
  /** The returnUrl exactly as the merchant submitted it, its own query included (R11). */
  readonly returnUrl: string;
  /** The whole URL the payer landed on. */
  readonly redirectUrl: string;
}

/** A verified redirect also yields the decoded payment text. */
export type RedirectOutcome = VerifyOutcome & { readonly payment?: string };

/**
 * Verifies a return redirect (spec §5.6, R11): part 3 is GET, part 4 the returnUrl as
 * submitted, part 7 `payment=` followed by the payment value after query decoding
 * (percent-decoding as UTF-8, `+` as space); the authorization value is decoded
 * likewise. Exactly one `payment` and one `authorization` parameter, else invalid.
 * @param redirect - credentials, returnUrl as submitted, and the URL landed on
 * @param options - {@link VerifyOptions}
 * @returns valid with the decoded payment text, or the problem
 * @example verifyRedirect(vectorCase('redirect.basic').inputs).valid // true
 */
export function verifyRedirect(redirect: ReturnRedirect, options: VerifyOptions = {}): RedirectOutcome {
  const values = redirectValues(redirect.redirectUrl);
  if ('problem' in values) return refuse(values.problem);
  const { payment, authorization } = values;
  const outcome = verifySigned(
    {
      appId: redirect.appId,
      appSecret: redirect.appSecret,
      method: 'GET',
      url: redirect.returnUrl,
      body: `payment=${payment}`,
    },
    authorization,
    options,
  );
  return outcome.valid ? { ...outcome, payment } : outcome;
}

/**
 * The payment and authorization values of a redirect (R11): exactly one parameter of each,
 * query-decoded; else the problem.
 * @param redirectUrl - the whole URL the payer landed on
 * @returns the decoded values, or why there are none
 * @example
 * redirectValues(
 *   'https://m/r?payment=%7B%7D&authorization=V2_SHA256+a%3D1',
 * ) // { payment: '{}', authorization: 'V2_SHA256 a=1' }
 */
export function redirectValues(
  redirectUrl: string,
): { readonly payment: string; readonly authorization: string } | { readonly problem: VerifyProblem } {
  const params = queryParameters(redirectUrl);
  const values: Partial<Record<'payment' | 'authorization', string>> = {};
  for (const name of ['payment', 'authorization'] as const) {
    const found = params.filter(([n]) => n === name);
    if (found.length !== 1) return { problem: { kind: 'redirect-parameter', parameter: name, count: found.length } };
    const decoded = decodeQueryComponent(found[0]?.[1] ?? '');
    if (decoded === undefined) return { problem: { kind: 'redirect-encoding', parameter: name } };
    values[name] = decoded;
  }
  return { payment: values.payment ?? '', authorization: values.authorization ?? '' };
}

/**
 * The query parameters of a URL as [name, raw value] pairs, names decoded; the
 * fragment is dropped. Values stay encoded (see {@link decodeQueryComponent}).
 * @param url - a URL
 * @returns the pairs, in order
 * @example queryParameters('https://m/r?a=1&b=x%20y#f') // [['a','1'],['b','x%20y']]
 */
export function queryParameters(url: string): Array<[string, string]> {
  const hash = url.indexOf('#');
  const noFragment = hash >= 0 ? url.slice(0, hash) : url;
  const q = noFragment.indexOf('?');
  if (q < 0) return [];
  return noFragment
    .slice(q + 1)
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      const name = eq >= 0 ? p.slice(0, eq) : p;
      return [decodeQueryComponent(name) ?? name, eq >= 0 ? p.slice(eq + 1) : ''];
    });
}

/**
 * Query decoding of R11: `+` as space, then percent-decoding as UTF-8.
 * @param raw - an encoded query component
 * @returns the decoded text, or undefined when the encoding is not valid UTF-8
 * @example decodeQueryComponent('a+b%26c') // 'a b&c'
 */
export function decodeQueryComponent(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
