/**
 * Client zoo member: the client never verifies a gateway response; a 200 with code OK is
 * used whatever its Authorization says (§5.4: the receiver must verify; §7: a 200 with a
 * mismatching signature is invalid; R9).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooClient, clientSubject, type Creds, type Exchange } from './_client.js';

class UnverifiedClient extends ZooClient {
  override authentic(_ex: Exchange, _creds: Creds): boolean {
    return true; // BUG: "the connection is TLS, so the response is the gateway's": the signature is never checked
  }
}

export function createSubject(): Subject {
  return clientSubject('no-response-verification', new UnverifiedClient());
}
