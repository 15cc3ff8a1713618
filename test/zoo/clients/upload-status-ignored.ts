/**
 * Client zoo member: the client does not look at the upload's answer: the request went
 * out, so the file is stored (§3: stored only on HTTP 204; §7: a refused upload fails).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooClient, clientSubject } from './_client.js';

class FireAndForgetClient extends ZooClient {
  override uploaded(_status: number): boolean {
    return true; // BUG: `await fetch(uploadUrl, …)` without checking the status
  }
}

export function createSubject(): Subject {
  return clientSubject('upload-status-ignored', new FireAndForgetClient());
}
