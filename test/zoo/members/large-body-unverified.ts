/**
 * Zoo member: the verifier skips the sign comparison when the body is larger than 8 KiB (a
 * "too expensive to hash" shortcut), so any large body passes once the header is well formed
 * (§5.1–§5.4). Every vector body is smaller: only the properties' large bodies show it.
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooSdk, zooSubject, type Creds, type Verdict } from './_sdk.js';

const SMALL = 8 * 1024;

class LargeBodyUnverifiedSdk extends ZooSdk {
  override verify(creds: Creds, method: string, url: string, authorization: string | null, body: Buffer): Verdict {
    const verdict = super.verify(creds, method, url, authorization, body);
    // BUG: past 8 KiB only the header is checked, never the sign
    if (body.byteLength > SMALL && !verdict.valid && verdict.reason === 'sign mismatch') return { valid: true };
    return verdict;
  }
}

/** The operations the bug reaches. */
export const routed = ['request.verify', 'response.verify', 'webhook.verify'] as const;

export function createSubject(): Subject {
  return zooSubject('large-body-unverified', new LargeBodyUnverifiedSdk(), routed);
}
