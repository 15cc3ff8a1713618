/**
 * Zoo member: the signer signs the body after JSON.parse + JSON.stringify (when it is
 * JSON), not the exact bytes sent (§5.1: "the exact JSON text that is sent"; R3).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { SIGNING_OPERATIONS, ZooSdk, zooSubject, type Parts } from './_sdk.js';

class ReserializingSdk extends ZooSdk {
  override content(p: Parts): Buffer {
    return super.content({ ...p, body: canonicalJson(p.body) });
  }
}

/** BUG: the body "as the object the caller passed", serialized again. */
function canonicalJson(body: Buffer): Buffer {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8')); // as JSON.parse(buffer) reads it
  } catch {
    return body; // not JSON: signed as it is
  }
  return Buffer.from(JSON.stringify(value), 'utf8');
}

/** The operations the bug reaches. */
export const routed = SIGNING_OPERATIONS;

export function createSubject(): Subject {
  return zooSubject('body-reserialized', new ReserializingSdk(), routed);
}
