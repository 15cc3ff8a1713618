/**
 * Client zoo member: the SDK's HTTP stack sends the merchant's Authorization header on
 * every request — the upload to the storage address included (R14: the gateway's
 * Authorization signs another request and is never sent to the upload address, where it
 * could be replayed; S3 refuses it). Written as an OkHttp `Interceptor` or an axios request
 * interceptor is: the signer stores the header on the client, and one hook stamps it on
 * every outgoing request that has none.
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooClient, clientSubject, type Creds, type Exchange } from './_client.js';

class StampingClient extends ZooClient {
  #lastAuthorization: string | undefined;

  override authorization(creds: Creds, method: string, url: string, body: string): string {
    const header = super.authorization(creds, method, url, body);
    this.#lastAuthorization = header;
    return header;
  }

  override async send(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | Buffer,
  ): Promise<Exchange> {
    // BUG: "every request to the payment provider is authenticated": the interceptor adds the
    // last Authorization to any request without one — the presigned upload POST included
    const stamped =
      this.#lastAuthorization !== undefined && !('Authorization' in headers)
        ? { ...headers, Authorization: this.#lastAuthorization }
        : headers;
    return super.send(method, url, stamped, body);
  }
}

export function createSubject(): Subject {
  return clientSubject('authorization-on-every-request', new StampingClient());
}
