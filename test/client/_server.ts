/**
 * A bare node:http server for the client's own tests: records every request exactly as
 * it arrived (method, target, raw headers, body bytes) and answers with a handler.
 * Responses are signed by hand with node:crypto, independently of src/scheme.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly method: string;
  /** The request target as sent: path and query. */
  readonly target: string;
  /** Header names and values, in order, names as sent. */
  readonly headers: Array<[string, string]>;
  readonly body: Buffer;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly received: Received[];
  close(): Promise<void>;
}

export type Handler = (req: Received, res: ServerResponse) => void | Promise<void>;

export async function serve(handler: Handler): Promise<TestServer> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Array<[string, string]> = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        headers.push([req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '']);
      const r: Received = { method: req.method ?? '', target: req.url ?? '', headers, body: Buffer.concat(chunks) };
      received.push(r);
      void Promise.resolve(handler(r, res)).catch((e: unknown) => {
        res.statusCode = 500;
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The header of a received request, by name (case-insensitive), or undefined. */
export function header(r: Received, name: string): string | undefined {
  return r.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
}

/** SHA-256 hex of the seven parts of 5.1, written out here by hand. */
export function handSign(
  appId: string,
  secret: string,
  method: string,
  url: string,
  timestamp: string,
  nonce: string,
  body: Buffer | string,
): string {
  return createHash('sha256')
    .update(`${appId}\n${secret}\n${method}\n${url}\n${timestamp}\n${nonce}\n`, 'utf8')
    .update(body)
    .update('\n')
    .digest('hex');
}

/** Writes a 200 signed for the request it answers (method and full URL of the request, R9). */
export function signedReply(
  res: ServerResponse,
  r: Received,
  origin: string,
  merchant: { appId: string; appSecret: string },
  body: string,
): void {
  const timestamp = '1718090123511';
  const nonce = 'resp-nonce-1';
  const sign = handSign(merchant.appId, merchant.appSecret, r.method, `${origin}${r.target}`, timestamp, nonce, body);
  res.writeHead(200, {
    'Content-Type': 'application/json',
    Authorization: `V2_SHA256 appId=${merchant.appId},sign=${sign},timestamp=${timestamp},nonce=${nonce}`,
  });
  res.end(body);
}
