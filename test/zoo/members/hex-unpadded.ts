/**
 * Zoo member: the signer writes each byte of the digest with `b.toString(16)`, without
 * `padStart(2, '0')` (Java's `Integer.toHexString(b & 0xff)`, Python's `hex(b)[2:]`), so a
 * byte below 0x10 loses its leading zero (§5.2: two digits per byte, 64 in all). Its
 * verifier signs the message itself and compares the two signs as text, as such SDKs do.
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { SIGNING_OPERATIONS, ZooSdk, zooSubject } from './_sdk.js';

class HexUnpaddedSdk extends ZooSdk {
  override hex(digest: Buffer): string {
    let out = '';
    for (const b of digest) out += b.toString(16); // BUG: 0x02 becomes "2", not "02"
    return out;
  }

  override signMatches(computed: Buffer, sign: string): boolean {
    return this.hex(computed) === sign;
  }
}

/** The operations the bug reaches: signature.sign writes hex, every verifier compares it. */
export const routed = SIGNING_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('hex-unpadded', new HexUnpaddedSdk(), routed);
}
