/**
 * Zoo member: the signer joins the seven parts with LF, so nothing follows the body
 * (§5.1 wants an LF after every part, the last included; R1).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { SIGNING_OPERATIONS, ZooSdk, zooSubject, type Parts } from './_sdk.js';

class NoFinalLfSdk extends ZooSdk {
  override content(p: Parts): Buffer {
    const head = [p.appId, p.appSecret, p.method, p.url, p.timestamp, p.nonce].join('\n') + '\n';
    // BUG: "join with \n" puts LFs between parts only: the body is last and gets none.
    return Buffer.concat([Buffer.from(head, 'utf8'), p.body]);
  }
}

/** The operations the bug reaches. */
export const routed = SIGNING_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('no-final-lf', new NoFinalLfSdk(), routed);
}
