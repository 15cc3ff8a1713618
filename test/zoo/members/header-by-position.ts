/**
 * Zoo member: the header parser checks that the four items are there, then reads their
 * values by position, assuming the spec's example order appId, sign, timestamp, nonce
 * (§5.3: "The four items may appear in any order"; R8).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { HEADER_OPERATIONS, ZooSdk, zooSubject, type Items } from './_sdk.js';

class PositionalParserSdk extends ZooSdk {
  override readItems(found: ReadonlyMap<string, string>, pairs: ReadonlyArray<readonly [string, string]>): Items {
    super.readItems(found, pairs); // all four present, by name
    // BUG: ... but the values are taken in the order of the spec's example
    const [appId, sign, timestamp, nonce] = pairs.map(([, value]) => value);
    return { appId: appId ?? '', sign: sign ?? '', timestamp: timestamp ?? '', nonce: nonce ?? '' };
  }
}

/** The operations the bug reaches. */
export const routed = HEADER_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('header-by-position', new PositionalParserSdk(), routed);
}
