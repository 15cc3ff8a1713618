/**
 * Zoo member: the header parser splits each item at the LAST "=", so a value that holds
 * "=" (base64 padding in a nonce, say) loses its head to the name (R8: split at the first "=").
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { HEADER_OPERATIONS, ZooSdk, zooSubject } from './_sdk.js';

class LastEqualsParserSdk extends ZooSdk {
  override splitItem(item: string): [string, string] | undefined {
    const eq = item.lastIndexOf('='); // BUG: lastIndexOf instead of indexOf
    return eq < 0 ? undefined : [item.slice(0, eq), item.slice(eq + 1)];
  }
}

/** The operations the bug reaches. */
export const routed = HEADER_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('header-split-last-equals', new LastEqualsParserSdk(), routed);
}
