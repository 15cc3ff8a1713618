/**
 * Zoo member: the verifier never compares the header's appId with the merchant's own
 * (R9); it builds the content from its own credentials, as it always does.
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { VERIFY_OPERATIONS, ZooSdk, zooSubject } from './_sdk.js';

class AppIdUncheckedSdk extends ZooSdk {
  override appIdMatches(): boolean {
    return true; // BUG: "the sign proves it anyway"
  }
}

/** The operations the bug reaches. */
export const routed = VERIFY_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('app-id-not-checked', new AppIdUncheckedSdk(), routed);
}
