/**
 * Client zoo member: the client verifies a response over its parsed and re-serialized
 * JSON (`JSON.stringify(JSON.parse(bytes))`), not over the bytes received (§5.4: "the
 * original response bytes must be used"; R9).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooClient, clientSubject } from './_client.js';

class ReserializingClient extends ZooClient {
  override verifiedBytes(raw: Buffer): Uint8Array {
    // BUG: the HTTP layer hands the SDK parsed JSON; the verifier signs it again as JSON.stringify writes it
    return Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8'))), 'utf8');
  }
}

export function createSubject(): Subject {
  return clientSubject('response-verified-reserialized', new ReserializingClient());
}
