/**
 * Zoo member: the signer puts the request path (and query) in part 4 instead of the
 * full URL, as a server framework's `req.url` gives it (§5.1 part 4, R4).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { SIGNING_OPERATIONS, ZooSdk, zooSubject, type Parts } from './_sdk.js';

class PathOnlySdk extends ZooSdk {
  override content(p: Parts): Buffer {
    const u = new URL(p.url);
    const target = u.pathname + u.search; // BUG: the request target, not scheme://host/…
    const head = [p.appId, p.appSecret, p.method, target, p.timestamp, p.nonce].join('\n') + '\n';
    return Buffer.concat([Buffer.from(head, 'utf8'), p.body, Buffer.from('\n')]);
  }
}

/** The operations the bug reaches. */
export const routed = SIGNING_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('url-path-only', new PathOnlySdk(), routed);
}
