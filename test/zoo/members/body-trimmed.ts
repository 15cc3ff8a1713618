/**
 * Zoo member: the signer trims the body (String.prototype.trim: white space, line ends
 * and a BOM) before signing (R3: no trimming).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { SIGNING_OPERATIONS, ZooSdk, bodyText, zooSubject, type Parts } from './_sdk.js';

class TrimmingSdk extends ZooSdk {
  override content(p: Parts): Buffer {
    const text = bodyText(p.body);
    const trimmed = text.trim(); // BUG: "clean up" the body before signing
    return super.content({ ...p, body: trimmed === text ? p.body : Buffer.from(trimmed, 'utf8') });
  }
}

/** The operations the bug reaches. */
export const routed = SIGNING_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('body-trimmed', new TrimmingSdk(), routed);
}
