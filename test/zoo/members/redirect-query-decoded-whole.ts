/**
 * Zoo member: the return handler decodes the whole query string, then splits it at "&"
 * and the first "=" (Java's `URLDecoder.decode(request.getQueryString(), "UTF-8")` followed
 * by `split("&")`), so an encoded "&" (%26) inside the payment value splits it (R11: split,
 * then decode each value).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooSdk, zooSubject, type Creds, type RedirectVerdict } from './_sdk.js';

class QueryDecodedWholeSdk extends ZooSdk {
  override verifyRedirect(creds: Creds, returnUrl: string, redirectUrl: string): RedirectVerdict {
    const landed = redirectUrl.split('#')[0] ?? redirectUrl;
    const query = landed.includes('?') ? landed.slice(landed.indexOf('?') + 1) : '';
    const decoded = this.decodeQuery(query); // BUG: decoded before it is split
    if (decoded === undefined) return { valid: false, reason: 'the query is not valid percent-encoded UTF-8' };
    const params = new Map<string, string[]>();
    for (const pair of decoded.split('&')) {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      params.set(name, [...(params.get(name) ?? []), eq < 0 ? '' : pair.slice(eq + 1)]);
    }
    const [payment, authorization] = [params.get('payment'), params.get('authorization')];
    if (payment?.length !== 1 || authorization?.length !== 1)
      return { valid: false, reason: 'not exactly one payment and one authorization' };
    const verdict = this.verify(
      creds,
      'GET',
      this.redirectUrlPart(returnUrl, redirectUrl),
      authorization[0] ?? '',
      Buffer.from(`payment=${payment[0] ?? ''}`, 'utf8'),
    );
    return verdict.valid ? { valid: true, payment: payment[0] ?? '' } : verdict;
  }
}

/** The operations the bug reaches. */
export const routed = ['redirect.verify'] as const;

export function createSubject(): Subject {
  return zooSubject('redirect-query-decoded-whole', new QueryDecodedWholeSdk(), routed);
}
