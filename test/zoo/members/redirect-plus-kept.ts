/**
 * Zoo member: the redirect verifier decodes query values with decodeURIComponent alone,
 * so a "+" stays a "+" instead of a space (R11: "+" as space).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooSdk, zooSubject } from './_sdk.js';

class PlusKeptSdk extends ZooSdk {
  override decodeQuery(raw: string): string | undefined {
    try {
      return decodeURIComponent(raw); // BUG: URI decoding, not form/query decoding
    } catch {
      return undefined;
    }
  }
}

/** The operations the bug reaches. */
export const routed = ['redirect.verify'] as const;

export function createSubject(): Subject {
  return zooSubject('redirect-plus-kept', new PlusKeptSdk(), routed);
}
