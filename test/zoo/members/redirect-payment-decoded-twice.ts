/**
 * Zoo member: the return handler decodes the payment value again after the framework
 * already decoded it (PHP's `urldecode($_GET['payment'])`, Java's
 * `URLDecoder.decode(request.getParameter("payment"), "UTF-8")`), so a "%41" or "+" the
 * payment holds is decoded twice (R11: decoded once); Java's decoder throws on a "%" that
 * starts no escape, and the handler refuses the redirect.
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooSdk, zooSubject } from './_sdk.js';

class DecodedTwiceSdk extends ZooSdk {
  override readPayment(raw: string): string | undefined {
    const once = this.decodeQuery(raw); // what request.getParameter("payment") gives
    return once === undefined ? undefined : this.decodeQuery(once); // BUG: decoded again
  }
}

/** The operations the bug reaches. */
export const routed = ['redirect.verify'] as const;

export function createSubject(): Subject {
  return zooSubject('redirect-payment-decoded-twice', new DecodedTwiceSdk(), routed);
}
