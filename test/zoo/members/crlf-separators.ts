/**
 * Zoo member: the signer ends every part with CR LF instead of LF (§5.1).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { SIGNING_OPERATIONS, ZooSdk, zooSubject, type Parts } from './_sdk.js';

const EOL = '\r\n'; // BUG: a Windows-minded "line ending" constant

class CrlfSdk extends ZooSdk {
  override content(p: Parts): Buffer {
    const head = [p.appId, p.appSecret, p.method, p.url, p.timestamp, p.nonce].map((part) => part + EOL).join('');
    return Buffer.concat([Buffer.from(head, 'utf8'), p.body, Buffer.from(EOL, 'utf8')]);
  }
}

/** The operations the bug reaches. */
export const routed = SIGNING_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('crlf-separators', new CrlfSdk(), routed);
}
