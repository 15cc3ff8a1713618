/**
 * Client zoo member: the client signs the compact JSON text of the payload, but its
 * transport serializes the payload again, pretty-printed, and sends that (§5.1: "the
 * body is the exact JSON text that is sent; it must not be changed after signing"; R3).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooClient, clientSubject } from './_client.js';

class PrettyTransportClient extends ZooClient {
  override wireBody(payload: object, _signed: string): string {
    // BUG: the transport writes the payload itself, indented "for readable gateway logs"; the signed text is dropped
    return JSON.stringify(payload, null, 2);
  }
}

export function createSubject(): Subject {
  return clientSubject('body-signed-not-sent', new PrettyTransportClient());
}
