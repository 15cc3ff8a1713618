/**
 * Zoo member: the header parser compares item names without regard to case (R8 (e) allows it)
 * but checks duplicates by the name as written and stores values under the folded name, the first
 * one kept: `appid=evil,appId=…` gives appId "evil" (R8: a duplicate that appears only after
 * folding must be refused by a parser that folds).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { HEADER_OPERATIONS, HeaderError, ZooSdk, zooSubject } from './_sdk.js';

const NAMES = ['appId', 'sign', 'timestamp', 'nonce'];

class FoldedFirstWinsSdk extends ZooSdk {
  private written = new Set<string>();
  private lastWritten = '';

  override parseHeader(header: string): ReturnType<ZooSdk['parseHeader']> {
    this.written = new Set();
    return super.parseHeader(header);
  }

  override splitItem(item: string): [string, string] | undefined {
    const split = super.splitItem(item);
    if (!split) return split;
    this.lastWritten = split[0];
    return [NAMES.find((n) => n.toLowerCase() === split[0].toLowerCase()) ?? split[0], split[1]];
  }

  override storeItem(found: Map<string, string>, name: string, value: string): void {
    if (this.written.has(this.lastWritten)) throw new HeaderError(`item ${this.lastWritten} appears twice`);
    this.written.add(this.lastWritten);
    if (!found.has(name)) found.set(name, value); // BUG: keyed by the folded name, putIfAbsent: the first copy wins
  }
}

/** The operations the bug reaches. */
export const routed = HEADER_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('header-folded-first-wins', new FoldedFirstWinsSdk(), routed);
}
