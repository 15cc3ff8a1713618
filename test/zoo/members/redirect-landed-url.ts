/**
 * Zoo member: the return handler verifies over the URL the request arrived on
 * (`request.getRequestURL() + "?" + request.getQueryString()`, `$_SERVER['REQUEST_URI']`),
 * taking out only the authorization parameter, which cannot sign itself (§5.6, R11: part 4
 * is the returnUrl as submitted, without the added parameters).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooSdk, zooSubject } from './_sdk.js';

class LandedUrlSdk extends ZooSdk {
  override redirectUrlPart(_returnUrl: string, redirectUrl: string): string {
    const landed = redirectUrl.split('#')[0] ?? redirectUrl; // browsers never send the fragment
    return landed.replace(/[?&]authorization=[^&]*/, ''); // BUG: paymentNo, merchantTradeNo and payment stay in part 4
  }
}

/** The operations the bug reaches. */
export const routed = ['redirect.verify'] as const;

export function createSubject(): Subject {
  return zooSubject('redirect-landed-url', new LandedUrlSdk(), routed);
}
