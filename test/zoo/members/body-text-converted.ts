/**
 * Zoo member: the signer takes the body as a string (`body.toString()`, as an SDK whose
 * API takes text does) and signs it encoded back to UTF-8: bytes that are not UTF-8
 * become U+FFFD, EF BF BD (§5.1: the exact bytes; R3).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { SIGNING_OPERATIONS, ZooSdk, zooSubject, type Parts } from './_sdk.js';

class TextBodySdk extends ZooSdk {
  override content(p: Parts): Buffer {
    const text = p.body.toString('utf8'); // BUG: a lossy decode
    return super.content({ ...p, body: Buffer.from(text, 'utf8') });
  }
}

/** The operations the bug reaches: the content builder is shared by signing and verification. */
export const routed = SIGNING_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('body-text-converted', new TextBodySdk(), routed);
}
