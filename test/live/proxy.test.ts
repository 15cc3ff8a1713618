/**
 * The live proxy (issue 26, item 1) for real, on loopback: the kit's reference gateway behind it, the kit's client
 * in front. A genuine client works unchanged and is judged conformant; a client that drops the final LF meets the
 * refusal it meets directly and is named `no-final-lf`; uploads go through the proxy and are judged against the
 * formFields issued; a gateway that signs its answer wrongly is passed through and caught (R9); 32 requests in
 * flight complete; an upstream that cannot be reached and a body over the limit are answered, never left hanging.
 * Signatures the tests expect are written out by hand with node:crypto (test/gateway/_support.ts), never with the
 * signer tested.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayment, requestUploadCredentials, signedRequest, uploadFile } from '../../src/client/index.js';
import { startGateway, type Gateway } from '../../src/gateway/gateway.js';
import { MerchantBook } from '../../src/gateway/merchants.js';
import { headerValue, type LiveExchange } from '../../src/live/exchange.js';
import { judgeExchange } from '../../src/live/judge.js';
import type { Proxy, ProxyOptions } from '../../src/live/proxy.js';
import { proxied as proxiedBy } from './_support.js';
import { buildUploadForm } from '../../src/upload/form.js';
import { MERCHANT, PAYMENT_PATH, authHeader } from '../gateway/_support.js';

const merchants = new MerchantBook([MERCHANT]);
const proxied = (options: Omit<ProxyOptions, 'merchants' | 'onExchange'>) => proxiedBy(merchants, options);
const payment = {
  merchantTradeNo: 'MT20261126000026',
  amount: '149.90',
  currency: 'EUR',
  description: 'Order 26',
  payer: { userId: 'u_26', name: 'Jane Doe', email: 'jane.doe@example.org', phone: '+33612345678' },
  payMethod: { type: 'CARD' },
  tradeEnv: { ip: '203.0.113.24', deviceId: 'dev-26' },
  notifyUrl: 'https://shop.example.net/pg/notify',
  returnUrl: 'https://shop.example.net/checkout/return',
};
const PDF = new TextEncoder().encode('%PDF-1.7\n% proxied\n');
const judge = (ex: LiveExchange) => judgeExchange(ex, { merchants });

/** A request signed as the zoo's no-final-lf member signs it: the seven parts joined by LF, none after the body. */
function noFinalLf(url: string, body: string, timestamp: string, nonce: string): string {
  const head = `${MERCHANT.appId}\n${MERCHANT.appSecret}\nPOST\n${url}\n${timestamp}\n${nonce}\n`;
  const sign = createHash('sha256')
    .update(head + body, 'utf8')
    .digest('hex');
  return `V2_SHA256 appId=${MERCHANT.appId},sign=${sign},timestamp=${timestamp},nonce=${nonce}`;
}

async function post(url: string, body: string | Uint8Array, headers: Record<string, string>) {
  const r = await request(url, { method: 'POST', headers, body });
  return { status: r.statusCode, headers: r.headers, body: Buffer.from(await r.body.arrayBuffer()) };
}

let gateway: Gateway;
let front: Awaited<ReturnType<typeof proxied>>;
let proxy: Proxy;

beforeAll(async () => {
  gateway = await startGateway({ merchants: [MERCHANT] });
  front = await proxied({ upstream: gateway.baseUrl, upload: true });
  proxy = front.proxy;
});

afterAll(async () => {
  await proxy.close();
  await gateway.close();
});

describe('startProxy: the reference gateway behind it', () => {
  it('a genuine payment: 200 the client verifies over the URL it addressed; forwarded re-signed; conformant', async () => {
    const before = front.exchanges.length;
    const r = await createPayment({ baseUrl: proxy.url, ...merchant(), payment });
    expect(r.code).toBe('OK');
    const [ex] = (await front.seen(before + 1)).slice(before);
    if (ex === undefined) throw new Error('no exchange');
    expect(ex).toMatchObject({ kind: 'api', seq: before + 1 });
    expect(ex.request.url).toBe(`${proxy.url}${PAYMENT_PATH}`);
    expect(ex.forwarded?.url).toBe(`${gateway.baseUrl}${PAYMENT_PATH}`);
    // forwarded: the client's timestamp and nonce, a sign over the upstream URL (written out by hand)
    const sent = /timestamp=([^,]+),nonce=(.+)$/.exec(headerValue(ex.request.headers, 'authorization') ?? '');
    const [timestamp, nonce] = [sent?.[1] ?? '', sent?.[2] ?? ''];
    expect(headerValue(ex.forwarded?.headers ?? [], 'authorization')).toBe(
      authHeader({ url: `${gateway.baseUrl}${PAYMENT_PATH}`, body: ex.request.body, timestamp, nonce }),
    );
    expect(ex.forwarded?.body).toEqual(ex.request.body);
    expect(ex.response?.status).toBe(200);
    expect(Buffer.from(ex.response?.body ?? []).equals(Buffer.from(r.responseBody))).toBe(true);
    expect(await judge(ex)).toEqual({ verdict: 'conformant', findings: [], notes: [] });
  });

  it('a client that drops the final LF: refused 401 as directly, judged not conformant naming no-final-lf', async () => {
    const body = JSON.stringify(payment);
    const headers = (url: string) => ({
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: noFinalLf(url, body, '1764115200000', 'nonce-no-lf'),
    });
    const directUrl = `${gateway.baseUrl}${PAYMENT_PATH}`;
    const direct = await post(directUrl, body, headers(directUrl));
    const before = front.exchanges.length;
    const viaUrl = `${proxy.url}${PAYMENT_PATH}`;
    const via = await post(viaUrl, body, headers(viaUrl));
    expect([direct.status, via.status]).toEqual([401, 401]);
    expect(JSON.parse(via.body.toString()).code).toBe(JSON.parse(direct.body.toString()).code);
    const [ex] = (await front.seen(before + 1)).slice(before);
    if (ex === undefined) throw new Error('no exchange');
    // never made good: forwarded with the client's own Authorization
    expect(headerValue(ex.forwarded?.headers ?? [], 'authorization')).toBe(headers(viaUrl).authorization);
    const j = await judge(ex);
    expect(j.verdict).toBe('not conformant');
    expect(j.findings[0]).toMatchObject({ about: 'request', mistake: 'no-final-lf' });
  });

  it('upload: credentials through the proxy, the upload through the rewritten uploadUrl, judged', async () => {
    const file = { filename: 'evidence.pdf', contentType: 'application/pdf', file: PDF };
    const ask = { baseUrl: proxy.url, ...merchant(), ...file, scene: 'DISPUTE_EVIDENCE' };
    const credentials = await requestUploadCredentials(ask);
    expect(credentials.uploadUrl.startsWith(`${proxy.uploadUrl ?? '?'}/`)).toBe(true);
    const before = front.exchanges.length;
    await uploadFile(credentials, file);
    const [up] = (await front.seen(before + 1)).slice(before);
    expect(up).toMatchObject({ kind: 'upload', request: { url: credentials.uploadUrl }, response: { status: 204 } });
    expect(up?.forwarded?.url.startsWith(`${gateway.uploadUrl}/`)).toBe(true);
    expect(up?.forwarded?.body).toEqual(up?.request.body);
    expect(up?.issued).toMatchObject({ filename: 'evidence.pdf', contentType: 'application/pdf', httpMethod: 'POST' });
    expect(up?.issued?.formFields).toEqual(credentials.formFields);
    expect(await judge(up as LiveExchange)).toMatchObject({ verdict: 'conformant', findings: [] });

    // a form with a field changed: refused by the upload address, judged not conformant
    const other = await requestUploadCredentials(ask);
    const changed = other.formFields.map(([n, v]): [string, string] => [n, n === 'key' ? `${v}-changed` : v]);
    const form = buildUploadForm({
      formFields: changed,
      filename: 'evidence.pdf',
      contentType: 'application/pdf',
      file: PDF,
    });
    const at = front.exchanges.length;
    const r = await post(other.uploadUrl, form.body, { 'content-type': form.contentType });
    expect(r.status).toBeGreaterThanOrEqual(400);
    const [bad] = (await front.seen(at + 1)).slice(at);
    const j = await judge(bad as LiveExchange);
    expect(j.verdict).toBe('not conformant');
    expect(j.findings.map((f) => f.about)).toContain('upload');
  });

  it('32 requests in flight complete, each handed on once, in arrival order', async () => {
    const before = front.exchanges.length;
    const results = await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        createPayment({ baseUrl: proxy.url, ...merchant(), payment: { ...payment, merchantTradeNo: `MT26-${i}` } }),
      ),
    );
    expect(results.every((r) => r.code === 'OK')).toBe(true);
    const seqs = (await front.seen(before + 32)).slice(before).map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: 32 }, (_, i) => before + 1 + i));
  });

  it('a body over 64 KiB is answered 413 by the proxy itself, nothing forwarded', async () => {
    const before = front.exchanges.length;
    const r = await post(`${proxy.url}${PAYMENT_PATH}`, 'x'.repeat(64 * 1024 + 1), {
      'content-type': 'application/json',
    });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body.toString()).code).toBe('PAYLOAD_TOO_LARGE');
    const [ex] = (await front.seen(before + 1)).slice(before);
    expect(ex?.forwarded).toBeUndefined();
    expect(ex?.unanswered).toMatch(/larger than 65536 bytes/);
  });
});

describe('startProxy: upstreams that misbehave', () => {
  it('a gateway that signs its answer wrongly: passed on unchanged, judged not conformant (R9)', async () => {
    const envelope = '{"code":"OK","errorMessage":null,"data":{"paymentNo":"P1"}}';
    const bad = `V2_SHA256 appId=${MERCHANT.appId},sign=${'0'.repeat(64)},timestamp=1,nonce=n`;
    const stub = await listening(
      createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json', authorization: bad });
          res.end(envelope);
        });
      }),
    );
    const p = await proxied({ upstream: stub.url });
    try {
      const r = await signedRequest({
        method: 'POST',
        url: `${p.proxy.url}${PAYMENT_PATH}`,
        ...merchant(),
        body: JSON.stringify(payment),
      });
      expect(r.status).toBe(200);
      expect(r.headers['authorization']).toBe(bad);
      expect(Buffer.from(r.body).toString()).toBe(envelope);
      const [ex] = await p.seen(1);
      const j = await judge(ex as LiveExchange);
      expect(j.verdict).toBe('not conformant');
      expect(j.findings).toEqual([expect.objectContaining({ about: 'response', rule: expect.stringContaining('R9') })]);
      expect(j.findings[0]?.message).toMatch(/does not verify/);
    } finally {
      await p.proxy.close();
      await stub.close();
    }
  });

  it('an upstream that cannot be reached: 502 with a reason, the exchange without a response', async () => {
    const gone = await listening(createServer());
    await gone.close();
    const p = await proxied({ upstream: gone.url });
    try {
      const url = `${p.proxy.url}${PAYMENT_PATH}`;
      const body = JSON.stringify(payment);
      const r = await post(url, body, { 'content-type': 'application/json', authorization: authHeader({ url, body }) });
      expect(r.status).toBe(502);
      expect(JSON.parse(r.body.toString()).code).toBe('BAD_GATEWAY');
      const [ex] = await p.seen(1);
      expect(ex?.response).toBeUndefined();
      expect(ex?.unanswered).toMatch(/could not be reached/);
    } finally {
      await p.proxy.close();
    }
  });
});

function merchant() {
  return { appId: MERCHANT.appId, appSecret: MERCHANT.appSecret };
}

async function listening(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
