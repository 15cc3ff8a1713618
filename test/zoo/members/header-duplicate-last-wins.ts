/**
 * Zoo member: the header parser accepts an item given twice, the last value winning
 * (R8: a duplicate item must be refused).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { HEADER_OPERATIONS, ZooSdk, zooSubject } from './_sdk.js';

class LastWinsParserSdk extends ZooSdk {
  override storeItem(found: Map<string, string>, name: string, value: string): void {
    found.set(name, value); // BUG: a plain map assignment; the second occurrence overwrites the first
  }
}

/** The operations the bug reaches. */
export const routed = HEADER_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('header-duplicate-last-wins', new LastWinsParserSdk(), routed);
}
