/**
 * Zoo member: the redirect verifier takes the payment value from the query string as it
 * stands, still percent-encoded: it verifies over it and hands it back (R11: decode it).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooSdk, zooSubject } from './_sdk.js';

class EncodedPaymentSdk extends ZooSdk {
  override readPayment(raw: string): string {
    return raw; // BUG: the query value as it appears in the URL
  }
}

/** The operations the bug reaches. */
export const routed = ['redirect.verify'] as const;

export function createSubject(): Subject {
  return zooSubject('redirect-payment-encoded', new EncodedPaymentSdk(), routed);
}
