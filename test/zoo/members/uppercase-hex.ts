/**
 * Zoo member: the signer writes the digest in upper-case hex (§5.2 and R7: lower case).
 * Its verifier compares digests as bytes (decoded hex), so verification is unaffected.
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { SIGNING_OPERATIONS, ZooSdk, zooSubject } from './_sdk.js';

class UppercaseHexSdk extends ZooSdk {
  override hex(digest: Buffer): string {
    return digest.toString('hex').toUpperCase(); // BUG: "hex digits look better in capitals"
  }
}

/** The operations the bug reaches (only signature.sign writes hex; the others go through the SDK too). */
export const routed = SIGNING_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('uppercase-hex', new UppercaseHexSdk(), routed);
}
