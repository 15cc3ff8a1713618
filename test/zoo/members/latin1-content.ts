/**
 * Zoo member: the signer builds the content as a string and hashes it encoded as
 * Latin-1 (`hash.update(text, 'latin1')`) instead of UTF-8 (§5.2, R3).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { SIGNING_OPERATIONS, ZooSdk, bodyText, zooSubject, type Parts } from './_sdk.js';

class Latin1Sdk extends ZooSdk {
  override content(p: Parts): Buffer {
    const text = [p.appId, p.appSecret, p.method, p.url, p.timestamp, p.nonce, bodyText(p.body)].join('\n') + '\n';
    return Buffer.from(text, 'latin1'); // BUG: one byte per character (code points above U+00FF keep their low byte)
  }
}

/** The operations the bug reaches. */
export const routed = SIGNING_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('latin1-content', new Latin1Sdk(), routed);
}
