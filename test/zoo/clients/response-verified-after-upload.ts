/**
 * Client zoo member: the client verifies the credentials response, but only after it has
 * used the credentials to upload ("don't hold the upload for the crypto"): a response
 * that does not verify is refused, too late — the file has gone to an address nobody
 * authenticated (§5.4, §7; the check: "a response that does not verify must stop the upload").
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooClient, clientSubject, type UploadArgs } from './_client.js';

class LateVerificationClient extends ZooClient {
  override async upload(args: UploadArgs): Promise<{ storageUri: string; uploadNo: string }> {
    const ex = await this.requestCredentials(args);
    const c = this.readCredentials(ex);
    await this.sendFile(c, args);
    this.assertAuthentic(ex, args, 'credentials'); // BUG: verified once the file is up, not before it is sent
    return { storageUri: c.storageUri, uploadNo: c.uploadNo };
  }
}

export function createSubject(): Subject {
  return clientSubject('response-verified-after-upload', new LateVerificationClient());
}
