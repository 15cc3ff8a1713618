/**
 * Zoo member: the client verifies a response over its parsed and re-serialized JSON
 * (the HTTP library hands it `response.json()`), not the raw bytes (§5.4, R9).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooSdk, bodyText, zooSubject } from './_sdk.js';

class ParsedResponseSdk extends ZooSdk {
  override responseBody(raw: Buffer): Buffer {
    try {
      return Buffer.from(JSON.stringify(JSON.parse(bodyText(raw))), 'utf8'); // BUG: the parsed body, serialized again
    } catch {
      return raw;
    }
  }
}

/** The operations the bug reaches. */
export const routed = ['response.verify'] as const;

export function createSubject(): Subject {
  return zooSubject('response-reserialized', new ParsedResponseSdk(), routed);
}
