/**
 * Zoo member: the SDK signs and verifies with the secret of its own configuration, a test
 * secret fixed in the code when the environment names none, instead of the secret it is
 * given (§5.1: part 2 is the AppSecret issued to the merchant). Every content differs in
 * part 2: no known mistake reproduces it, and the run names it as one cause
 * (credentials-or-url).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { SIGNING_OPERATIONS, ZooSdk, zooSubject, type Parts } from './_sdk.js';

/** The SDK's own default, as its README's quick start shows it. */
const DEFAULT_SECRET = 'sk_test_00000000000000000000demo';

class WrongSecretSdk extends ZooSdk {
  override content(p: Parts): Buffer {
    // BUG: the configured secret wins over the one passed in
    return super.content({ ...p, appSecret: process.env['PGV2KIT_ZOO_SDK_SECRET'] ?? DEFAULT_SECRET });
  }
}

/** The operations the bug reaches: every content it builds. */
export const routed = SIGNING_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('wrong-secret', new WrongSecretSdk(), routed);
}
