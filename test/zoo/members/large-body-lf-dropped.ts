/**
 * Zoo member: the signer drops the LF after the body when the body is larger than 8 KiB —
 * as a streaming signer does that writes the final LF only on its small-body path (§5.1, R1).
 * Every vector body is smaller: only the properties' large bodies show it.
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { SIGNING_OPERATIONS, ZooSdk, zooSubject, type Parts } from './_sdk.js';

const SMALL = 8 * 1024;

class LargeBodyLfDroppedSdk extends ZooSdk {
  override content(p: Parts): Buffer {
    const content = super.content(p);
    // BUG: the large-body path streams the body and never writes the LF after it
    return p.body.byteLength > SMALL ? content.subarray(0, content.byteLength - 1) : content;
  }
}

/** The operations the bug reaches. */
export const routed = SIGNING_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('large-body-lf-dropped', new LargeBodyLfDroppedSdk(), routed);
}
