/**
 * The live proxy's edges (issue 26, item 1), in process on loopback: a stub upstream that misbehaves on purpose
 * (an answer over maxResponseBytes, a connection closed mid-answer, no answer in time, repeated header fields,
 * credentials answers without formFields or with an uploadUrl that is not absolute), clients that stop sending or
 * send what HTTP refuses, upload addresses never issued, bad options. Every answer the proxy makes itself is
 * checked for its status, code and the exchange's `unanswered`; signatures expected are written by hand
 * (test/gateway/_support.ts), never with the signer tested.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MerchantBook } from '../../src/gateway/merchants.js';
import { startProxy, type Proxy, type ProxyOptions } from '../../src/live/proxy.js';
import { proxied as proxiedBy, raw } from './_support.js';
import { CREDENTIALS_PATH, MERCHANT, PAYMENT_PATH, PDF_BODY, authHeader } from '../gateway/_support.js';

const merchants = new MerchantBook([MERCHANT]);
const proxied = (options: Omit<ProxyOptions, 'merchants' | 'onExchange'>) => proxiedBy(merchants, options);
const TIMEOUT_MS = 150;
const RESPONSE_LIMIT = 1000;
const UPLOAD_LIMIT = 100;

async function listening(server: Server, host = '127.0.0.1'): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((r) => server.listen(0, host, r));
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const r = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: r.statusCode, headers: r.headers, text: await r.body.text() };
}

/** A signed POST of `body` to the proxy at `path` (the sign over the URL the client addresses). */
function signedPost(proxy: Proxy, path: string, body: string, headers: Record<string, string> = {}) {
  const url = `${proxy.url}${path}`;
  return post(url, body, { authorization: authHeader({ url, body }), ...headers });
}

// --- the stub upstream: what it does is chosen by the request's x-case field ---

const STUB_PATH = '/gw';
let stub: { url: string; close(): Promise<void> };
let closedPort: string;
const held: ServerResponse[] = [];

function credentialsAnswer(req: IncomingMessage, res: ServerResponse, data: unknown): void {
  const body = JSON.stringify({ code: 'OK', errorMessage: null, data });
  const url = `${stub.url}${req.url ?? ''}`;
  res.writeHead(200, {
    'content-type': 'application/json',
    authorization: authHeader({ url, body, timestamp: '1764115200000', nonce: 'stub-nonce' }),
  });
  res.end(body);
}

function upstream(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  req.on('end', () => {
    const which = req.headers['x-case'];
    if (which === 'big') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`"${'x'.repeat(RESPONSE_LIMIT * 2)}"`);
    } else if (which === 'cut') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"code":');
      setImmediate(() => res.destroy());
    } else if (which === 'slow') {
      held.push(res); // never answered: the proxy's timeout speaks
    } else if (which === 'cookies') {
      res.writeHead(200, [
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
        ['content-type', 'application/json'],
      ]);
      res.end('{}');
    } else if (which === 'no-form') {
      credentialsAnswer(req, res, { uploadUrl: `${stub.url}/storage/x` });
    } else if (which === 'relative') {
      credentialsAnswer(req, res, { uploadUrl: 'storage/relative', formFields: { key: 'k1' } });
    } else if (which === 'gone') {
      credentialsAnswer(req, res, { uploadUrl: closedPort, formFields: { key: 'k2' } }); // no path: sent to /
    } else if (req.method === 'HEAD') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '42' });
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'x-method': req.method ?? '', 'x-url': req.url });
      res.end('{"code":"OK"}');
    }
  });
}

let front: Awaited<ReturnType<typeof proxied>>;
let proxy: Proxy;

beforeAll(async () => {
  stub = await listening(createServer(upstream));
  const gone = await listening(createServer());
  closedPort = gone.url;
  await gone.close();
  front = await proxied({
    upstream: `${stub.url}${STUB_PATH}`,
    upload: true,
    timeoutMs: TIMEOUT_MS,
    maxResponseBytes: RESPONSE_LIMIT,
    maxUploadBytes: UPLOAD_LIMIT,
  });
  proxy = front.proxy;
});

afterAll(async () => {
  await proxy.close();
  held.forEach((r) => r.destroy());
  await stub.close();
});

describe('startProxy: an upstream that misbehaves is answered for, never waited on', () => {
  it('an answer over maxResponseBytes: 502 BAD_GATEWAY, not read, the exchange says so', async () => {
    let r: Awaited<ReturnType<typeof post>> | undefined;
    const ex = await front.next(async () => (r = await signedPost(proxy, PAYMENT_PATH, '{}', { 'x-case': 'big' })));
    expect(r?.status).toBe(502);
    expect(JSON.parse(r?.text ?? '').code).toBe('BAD_GATEWAY');
    expect(ex.response).toBeUndefined();
    expect(ex.unanswered).toBe(`the upstream's answer (HTTP 200) is over ${RESPONSE_LIMIT} bytes: not read`);
  });

  it('an upstream that closes the connection mid-answer: 502, the reason named', async () => {
    let r: Awaited<ReturnType<typeof post>> | undefined;
    const ex = await front.next(async () => (r = await signedPost(proxy, PAYMENT_PATH, '{}', { 'x-case': 'cut' })));
    expect(r?.status).toBe(502);
    expect(JSON.parse(r?.text ?? '').code).toBe('BAD_GATEWAY');
    expect(ex.unanswered).toMatch(new RegExp(`^the upstream ${stub.url} could not be reached: \\S`));
  });

  it('an upstream that does not answer within timeoutMs: 504 GATEWAY_TIMEOUT', async () => {
    let r: Awaited<ReturnType<typeof post>> | undefined;
    const ex = await front.next(async () => (r = await signedPost(proxy, PAYMENT_PATH, '{}', { 'x-case': 'slow' })));
    expect(r?.status).toBe(504);
    expect(JSON.parse(r?.text ?? '').code).toBe('GATEWAY_TIMEOUT');
    expect(ex.unanswered).toBe(
      `the upstream ${stub.url} did not answer within ${TIMEOUT_MS} ms (UND_ERR_HEADERS_TIMEOUT)`,
    );
  });

  it('a field the upstream repeats (set-cookie) is recorded and passed on once per value', async () => {
    let r: Awaited<ReturnType<typeof post>> | undefined;
    const ex = await front.next(async () => (r = await signedPost(proxy, PAYMENT_PATH, '{}', { 'x-case': 'cookies' })));
    expect(r?.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(ex.response?.headers.filter(([n]) => n === 'set-cookie')).toEqual([
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ]);
  });

  it('a GET is forwarded without a body; a HEAD gets the upstream Content-Length, no body', async () => {
    const get = await request(`${proxy.url}/pg/v2/payment/query?no=1`);
    expect(get.headers['x-method']).toBe('GET');
    expect(get.headers['x-url']).toBe(`${STUB_PATH}/pg/v2/payment/query?no=1`);
    expect(await get.body.text()).toBe('{"code":"OK"}');
    const head = await request(`${proxy.url}/pg/v2/payment/query`, { method: 'HEAD' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe('42');
    expect(await head.body.text()).toBe('');
  });

  it('an absolute-form request target: forwarded to the upstream + its path and query only', async () => {
    const ex = await front.next(() =>
      raw(proxy.url, 'GET http://shop.example?x=1 HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n'),
    );
    expect(ex.request.url).toBe('http://shop.example?x=1');
    expect(ex.forwarded?.url).toBe(`${stub.url}${STUB_PATH}/?x=1`);
    expect(ex.response?.headers).toContainEqual(['x-url', `${STUB_PATH}/?x=1`]);
  });
});

describe('startProxy: credentials answers and the upload listener', () => {
  it('a verified credentials answer without formFields is passed unchanged, signed anew for the client URL', async () => {
    let r: Awaited<ReturnType<typeof post>> | undefined;
    const ex = await front.next(
      async () => (r = await signedPost(proxy, CREDENTIALS_PATH, PDF_BODY, { 'x-case': 'no-form' })),
    );
    const gatewayBody = Buffer.from(ex.response?.body ?? []).toString();
    expect(r?.text).toBe(gatewayBody);
    expect(r?.text).toContain(`"uploadUrl":"${stub.url}/storage/x"`);
    const expected = authHeader({
      url: `${proxy.url}${CREDENTIALS_PATH}`,
      body: gatewayBody,
      timestamp: '1764115200000',
      nonce: 'stub-nonce',
    });
    expect(r?.headers['authorization']).toBe(expected);
  });

  it('an upload to an address the proxy never issued: 404 NOT_FOUND as XML, nothing forwarded', async () => {
    let r: Awaited<ReturnType<typeof post>> | undefined;
    const ex = await front.next(async () => (r = await post(`${proxy.uploadUrl ?? '?'}/not-a-token`, 'x')));
    expect(r?.status).toBe(404);
    expect(r?.text).toContain('<Code>NOT_FOUND</Code>');
    expect(ex).toMatchObject({ kind: 'upload', request: { body: new TextEncoder().encode('x') } });
    expect(ex.forwarded).toBeUndefined();
    expect(ex.issued).toBeUndefined();
    expect(ex.unanswered).toMatch(/^no uploadUrl was issued at this address through the proxy/);
  });

  it('an upload body over the upload limit: 413 PAYLOAD_TOO_LARGE as XML, the connection closed', async () => {
    let r: Awaited<ReturnType<typeof post>> | undefined;
    const ex = await front.next(
      async () => (r = await post(`${proxy.uploadUrl ?? '?'}/t`, 'y'.repeat(UPLOAD_LIMIT + 1))),
    );
    expect(r?.status).toBe(413);
    expect(r?.headers['content-type']).toBe('application/xml');
    expect(r?.headers['connection']).toBe('close');
    expect(r?.text).toContain('<Code>PAYLOAD_TOO_LARGE</Code>');
    expect(ex.unanswered).toBe(
      `the body is larger than ${UPLOAD_LIMIT} bytes, the proxy's limit for an upload: refused`,
    );
    expect(ex.notJudged).toBe(ex.unanswered);
  });

  it('an issued uploadUrl whose storage cannot be reached: 502 BAD_GATEWAY as XML, the credentials kept', async () => {
    const creds = await signedPost(proxy, CREDENTIALS_PATH, PDF_BODY, { 'x-case': 'gone' });
    const uploadUrl = JSON.parse(creds.text).data.uploadUrl as string;
    expect(uploadUrl.startsWith(`${proxy.uploadUrl ?? '?'}/`)).toBe(true);
    let r: Awaited<ReturnType<typeof post>> | undefined;
    const ex = await front.next(async () => (r = await post(uploadUrl, 'form')));
    expect(r?.status).toBe(502);
    expect(r?.text).toContain('<Code>BAD_GATEWAY</Code>');
    expect(ex.issued).toMatchObject({ uploadUrl: closedPort, formFields: [['key', 'k2']] });
    expect(ex.forwarded?.url).toBe(closedPort);
    expect(ex.unanswered).toMatch(new RegExp(`^the upstream ${closedPort} could not be reached: ECONNREFUSED`));
  });

  it('an issued uploadUrl that is not an absolute URL: the upload is answered 500, the exchange says why', async () => {
    const creds = await signedPost(proxy, CREDENTIALS_PATH, PDF_BODY, { 'x-case': 'relative' });
    const uploadUrl = JSON.parse(creds.text).data.uploadUrl as string;
    let r: Awaited<ReturnType<typeof post>> | undefined;
    const ex = await front.next(async () => (r = await post(uploadUrl, 'form')));
    expect(r?.status).toBe(500);
    expect(ex).toMatchObject({ kind: 'upload', request: { url: uploadUrl } });
    expect(ex.unanswered).toMatch(/^the proxy failed: Invalid URL/);
  });

  it('a request HTTP refuses at the upload listener: 400 BadRequest as XML', async () => {
    const text = await raw(proxy.uploadUrl ?? '?', 'NOT HTTP\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toContain('<Error><Code>BadRequest</Code>');
  });
});

describe('startProxy: clients that stop, options that are wrong', () => {
  it('a body that stops arriving: 408 REQUEST_TIMEOUT; a client that hangs up: nothing answered', async () => {
    const head = `POST ${PAYMENT_PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{"a"`;
    const late = await front.next(() => raw(proxy.url, head));
    expect(late.unanswered).toBe('the body stopped arriving: refused before it was forwarded');
    expect(late.forwarded).toBeUndefined();
    // the body was never whole: not judged (it was judged over no body, and blamed on the secret)
    expect(late.notJudged).toBe(late.unanswered);
    const gone = await front.next(() => raw(proxy.url, head, true));
    expect(gone.unanswered).toBe('the client closed the connection before the body ended: nothing forwarded');
    expect(gone.forwarded).toBeUndefined();
    expect(gone.notJudged).toBe(gone.unanswered);
    const answered = await raw(proxy.url, head);
    expect(answered).toMatch(/^HTTP\/1\.1 408 /);
    expect(answered).toContain('"code":"REQUEST_TIMEOUT"');
  });

  it('an upstream that is not an http(s) base URL without query or fragment: RangeError', async () => {
    const start = (upstream: string) => startProxy({ upstream, merchants, onExchange: () => {} });
    await expect(start('gateway.example')).rejects.toThrow(
      new RangeError('upstream "gateway.example" is not an absolute URL'),
    );
    await expect(start('ftp://gw.example/')).rejects.toThrow(/is not http or https$/);
    await expect(start('http://gw.example/pg?')).rejects.toThrow(/must not have a query or fragment$/);
    await expect(start('http://gw.example/pg#top')).rejects.toThrow(/must not have a query or fragment$/);
    await expect(start('http://127.0.0.1:70000')).rejects.toThrow(
      new RangeError('upstream "http://127.0.0.1:70000" is not an absolute URL: its port 70000 is not from 1 to 65535'),
    );
    await expect(start('http://127.0.0.1:0')).rejects.toThrow(
      new RangeError('upstream "http://127.0.0.1:0": its port 0 is not from 1 to 65535'),
    );
    await expect(start('http://user:pw@gw.example/')).rejects.toThrow(
      new RangeError('upstream must not hold a user name or password (user:password@): give its base URL alone'),
    );
  });

  it('an unspecified host is reached on loopback: 0.0.0.0 → 127.0.0.1, :: → [::1]', async () => {
    for (const [host, reach] of [
      ['0.0.0.0', 'http://127.0.0.1:'],
      ['::', 'http://[::1]:'],
    ] as const) {
      const p = await proxied({ upstream: `${stub.url}${STUB_PATH}`, host });
      try {
        expect(p.proxy.url.startsWith(reach)).toBe(true);
        const r = await request(`${p.proxy.url}/pg/v2/payment/query`);
        expect(await r.body.text()).toBe('{"code":"OK"}');
      } finally {
        await p.proxy.close();
      }
    }
  });

  it('onExchange that throws: close() rejects with the error; with onError, onError gets it', async () => {
    const boom = new Error('the recorder broke');
    const alone = await startProxy({
      upstream: `${stub.url}${STUB_PATH}`,
      merchants,
      onExchange: () => {
        throw boom;
      },
    });
    await (await request(`${alone.url}/x`)).body.text();
    await expect(alone.close()).rejects.toBe(boom);

    const told: unknown[] = [];
    const minded = await startProxy({
      upstream: `${stub.url}${STUB_PATH}`,
      merchants,
      onExchange: () => Promise.reject(boom),
      onError: (e) => told.push(e),
    });
    await (await request(`${minded.url}/x`)).body.text();
    await minded.close();
    expect(told).toEqual([boom]);
  });
});
