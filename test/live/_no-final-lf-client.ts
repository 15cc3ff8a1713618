/**
 * A client that drops the final LF (the zoo's `no-final-lf` bug, test/zoo/members/no-final-lf.ts, in the client zoo's
 * mini SDK): it joins the seven parts of 5.1 with LF, so nothing follows the body (R1). Its client operations go to
 * the gateway a run names (`run --module <this> --gateway <url>`); test/live/proxy-cli.test.ts sends them through
 * the proxy. The sign is computed here with node:crypto, never with the kit's signer.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Subject } from '../../src/subjects/subject.js';
import { ZooClient, clientSubject, type Creds } from '../zoo/clients/_client.js';

class NoFinalLfClient extends ZooClient {
  override authorization(creds: Creds, method: string, url: string, body: string): string {
    const timestamp = String(Date.now());
    const nonce = randomBytes(16).toString('hex');
    // BUG: "join with \n" puts LFs between the parts only: the body is last and gets none
    const content = [creds.appId, creds.appSecret, method, url, timestamp, nonce, body].join('\n');
    const sign = createHash('sha256').update(content, 'utf8').digest('hex');
    return `V2_SHA256 appId=${creds.appId},sign=${sign},timestamp=${timestamp},nonce=${nonce}`;
  }
}

export function createSubject(): Subject {
  return clientSubject('no-final-lf', new NoFinalLfClient());
}
