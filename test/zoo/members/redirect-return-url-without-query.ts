/**
 * Zoo member: the redirect verifier puts the returnUrl without its own query in part 4
 * (R11: the returnUrl exactly as submitted, its own query included).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooSdk, zooSubject } from './_sdk.js';

class ReturnUrlWithoutQuerySdk extends ZooSdk {
  override redirectUrlPart(returnUrl: string): string {
    return returnUrl.split('?')[0] ?? returnUrl; // BUG: "strip the query the gateway added" strips the merchant's too
  }
}

/** The operations the bug reaches. */
export const routed = ['redirect.verify'] as const;

export function createSubject(): Subject {
  return zooSubject('redirect-return-url-without-query', new ReturnUrlWithoutQuerySdk(), routed);
}
