/**
 * Zoo member: the header parser takes a missing item as the empty string instead of
 * refusing the header (R8: each item exactly once).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { HEADER_OPERATIONS, ZooSdk, zooSubject, type Items } from './_sdk.js';

class MissingAsEmptySdk extends ZooSdk {
  override readItems(found: ReadonlyMap<string, string>): Items {
    // BUG: `?? ''` where a refusal belongs
    return {
      appId: found.get('appId') ?? '',
      sign: found.get('sign') ?? '',
      timestamp: found.get('timestamp') ?? '',
      nonce: found.get('nonce') ?? '',
    };
  }
}

/** The operations the bug reaches. */
export const routed = HEADER_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('header-missing-as-empty', new MissingAsEmptySdk(), routed);
}
