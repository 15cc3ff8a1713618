/**
 * Zoo member: the redirect verifier verifies over the decoded payment, but hands the
 * merchant the raw, still-encoded query value (R11: the payment text is the decoded value).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooSdk, zooSubject } from './_sdk.js';

class PaymentReturnedEncodedSdk extends ZooSdk {
  override paymentResult(raw: string): string {
    return raw; // BUG: returns the value it read from the URL, not the one it verified
  }
}

/** The operations the bug reaches. */
export const routed = ['redirect.verify'] as const;

export function createSubject(): Subject {
  return zooSubject('redirect-payment-returned-encoded', new PaymentReturnedEncodedSdk(), routed);
}
