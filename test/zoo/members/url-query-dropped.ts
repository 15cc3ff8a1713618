/**
 * Zoo member: the signer drops the query string from part 4 (R4: the full URL as sent,
 * query included).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { SIGNING_OPERATIONS, ZooSdk, zooSubject, type Parts } from './_sdk.js';

class QueryDroppedSdk extends ZooSdk {
  override content(p: Parts): Buffer {
    const url = p.url.split('?')[0] ?? p.url; // BUG: "the URL" taken as everything before "?"
    const head = [p.appId, p.appSecret, p.method, url, p.timestamp, p.nonce].join('\n') + '\n';
    return Buffer.concat([Buffer.from(head, 'utf8'), p.body, Buffer.from('\n')]);
  }
}

/** The operations the bug reaches. */
export const routed = SIGNING_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('url-query-dropped', new QueryDroppedSdk(), routed);
}
