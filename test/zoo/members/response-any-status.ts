/**
 * Zoo member: the client verifies every response like a 200 and takes any that verifies
 * as authentic, whatever its status (§5.4, R9: only HTTP 200 is verified).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooSdk, zooSubject } from './_sdk.js';

class AnyStatusSdk extends ZooSdk {
  override verifiesStatus(): boolean {
    return true; // BUG: the status is never looked at
  }
}

/** The operations the bug reaches. */
export const routed = ['response.verify'] as const;

export function createSubject(): Subject {
  return zooSubject('response-any-status', new AnyStatusSdk(), routed);
}
