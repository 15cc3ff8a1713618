/**
 * Zoo member: the signer writes the digest in base64, as the HMAC snippet it was copied from
 * did (`createHash('sha256').update(content).digest('base64')`; §5.2: 64 lower-case hex
 * digits). Its verifier writes its own digest the same way and compares the text.
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { SIGNING_OPERATIONS, ZooSdk, zooSubject } from './_sdk.js';

class SignBase64Sdk extends ZooSdk {
  override hex(digest: Buffer): string {
    return digest.toString('base64'); // BUG: base64, not hex
  }

  override signMatches(computed: Buffer, sign: string): boolean {
    return this.hex(computed) === sign;
  }
}

/** The operations the bug reaches: signature.sign writes the sign, every verifier compares it. */
export const routed = SIGNING_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('sign-base64', new SignBase64Sdk(), routed);
}
