/**
 * Zoo member: the signer leaves part 2 (the AppSecret) out of the content, treating the
 * secret as a key that "must never be sent" (§5.1 lists it as part 2).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { SIGNING_OPERATIONS, ZooSdk, zooSubject, type Parts } from './_sdk.js';

class SecretOmittedSdk extends ZooSdk {
  override content(p: Parts): Buffer {
    // BUG: six parts; the secret is not one of them.
    const head = [p.appId, p.method, p.url, p.timestamp, p.nonce].join('\n') + '\n';
    return Buffer.concat([Buffer.from(head, 'utf8'), p.body, Buffer.from('\n')]);
  }
}

/** The operations the bug reaches. */
export const routed = SIGNING_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('secret-omitted', new SecretOmittedSdk(), routed);
}
