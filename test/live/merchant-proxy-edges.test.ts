/**
 * The merchant proxy's edges (issue 26, item 2), in process on loopback: a tiny merchant that misbehaves on request
 * (an answer over maxBodyBytes, an answer broken off, a TLS port that speaks plain HTTP), callers that stop sending
 * or send a chunked body, bad options, an onExchange that throws. Each failure reaches the caller as an answer and
 * the exchange (or pass-through) says why.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MerchantBook } from '../../src/gateway/merchants.js';
import type { LiveExchange } from '../../src/live/exchange.js';
import { startMerchantProxy, type MerchantProxyOptions, type PassThrough } from '../../src/live/merchant-proxy.js';
import { raw } from './_support.js';

const NOTIFY = 'https://shop.example.test/pgv2/notify';
const RETURN = 'https://shop.example.test/pgv2/return';
const LIMIT = 1024;
const merchants = new MerchantBook([{ appId: 'app_edges', appSecret: 'sk_edges_secret' }]);

type Seen = { readonly ex: LiveExchange; readonly failure?: string };

async function proxyTo(merchant: string, more: Partial<MerchantProxyOptions> = {}) {
  const seen: Seen[] = [];
  const passed: PassThrough[] = [];
  const waiting: Array<() => void> = [];
  const proxy = await startMerchantProxy({
    merchant,
    notifyUrl: NOTIFY,
    returnUrl: RETURN,
    merchants,
    timeoutMs: 200,
    maxBodyBytes: LIMIT,
    onExchange: (ex, _judgement, failure) => {
      seen.push({ ex, ...(failure !== undefined ? { failure } : {}) });
      waiting.splice(0).forEach((w) => w());
    },
    onPassThrough: (p) => {
      passed.push(p);
      waiting.splice(0).forEach((w) => w());
    },
    ...more,
  });
  const nth = async (n: number): Promise<Seen> => {
    while (seen.length < n) await new Promise<void>((r) => waiting.push(r));
    return seen[n - 1] as Seen;
  };
  return { proxy, seen, passed, nth };
}

interface Got {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

function send(method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body); // no Content-Length given: sent chunked
    req.end();
  });
}

let merchant: Server;
let origin: string;
let received: { headers: IncomingHttpHeaders; body: string } | undefined;

beforeAll(async () => {
  merchant = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received = { headers: req.headers, body: Buffer.concat(chunks).toString() };
      const which = req.headers['x-case'];
      if (which === 'big') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('x'.repeat(LIMIT * 4));
      } else if (which === 'slow') {
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('OK, late');
        }, 120);
      } else if (which === 'cut') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
        res.write('OK, and');
        setImmediate(() => res.destroy());
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('OK');
      }
    });
  });
  await new Promise<void>((r) => merchant.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
});

afterAll(async () => {
  merchant.closeAllConnections();
  await new Promise((r) => merchant.close(r));
});

describe('merchant proxy: a merchant that misbehaves', () => {
  it('an answer over maxBodyBytes: 502, not returned; on another path the pass-through says why', async () => {
    const p = await proxyTo(origin);
    try {
      const hook = await send('POST', `${p.proxy.url}/pgv2/notify`, { 'x-case': 'big' }, '{}');
      expect(hook.status).toBe(502);
      const why = `the merchant at ${origin} answered more than ${LIMIT} bytes, the proxy's limit: not returned`;
      expect(hook.text).toBe(`pgv2kit proxy: ${why}\n`);
      const s = await p.nth(1);
      expect([s.ex.response, s.ex.unanswered, s.failure]).toEqual([undefined, why, why]);

      const page = await send('GET', `${p.proxy.url}/orders/1`, { 'x-case': 'big' });
      expect(page.status).toBe(502);
      expect(p.passed).toEqual([{ method: 'GET', url: `${p.proxy.url}/orders/1`, failure: why }]);
    } finally {
      await p.proxy.close();
    }
  });

  it('an answer broken off: 502 naming it', async () => {
    const p = await proxyTo(origin);
    try {
      const got = await send('POST', `${p.proxy.url}/pgv2/notify`, { 'x-case': 'cut' }, '{}');
      expect(got.status).toBe(502);
      expect((await p.nth(1)).failure).toBe(`the merchant at ${origin} broke off its answer`);
    } finally {
      await p.proxy.close();
    }
  });

  it('an https merchant URL whose port speaks plain HTTP: 502, the TLS error code named', async () => {
    const p = await proxyTo(origin.replace('http:', 'https:'));
    try {
      const got = await send('POST', `${p.proxy.url}/pgv2/notify`, {}, '{}');
      expect(got.status).toBe(502);
      const { failure } = await p.nth(1);
      expect(failure).toMatch(new RegExp(`^the merchant at https://127\\.0\\.0\\.1:\\d+ could not be reached \\(\\w+`));
    } finally {
      await p.proxy.close();
    }
  });
});

describe('merchant proxy: callers and options', () => {
  it('a chunked body is forwarded with its Content-Length, the bytes unchanged', async () => {
    const p = await proxyTo(origin);
    try {
      const got = await send('POST', `${p.proxy.url}/pgv2/notify`, { 'content-type': 'application/json' }, '{"a":1}');
      expect(got.status).toBe(200);
      expect(received?.headers['content-length']).toBe('7');
      expect(received?.headers['transfer-encoding']).toBeUndefined();
      expect(received?.body).toBe('{"a":1}');
    } finally {
      await p.proxy.close();
    }
  });

  it('a body that pauses: 408, not judged; a caller that hangs up: not judged, saying so; the next one judged', async () => {
    const p = await proxyTo(origin);
    try {
      const head = 'POST /pgv2/notify HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{"a"';
      const paused = await raw(p.proxy.url, head);
      expect(paused).toMatch(/^HTTP\/1\.1 408 /);
      const why = 'the request body paused for more than 200 ms: not forwarded';
      expect(paused).toContain(why);
      expect(await p.nth(1)).toMatchObject({ ex: { seq: 1, notJudged: why }, failure: why });

      await raw(p.proxy.url, head, true);
      await send('POST', `${p.proxy.url}/pgv2/notify`, {}, '{}');
      // seq 2, the caller that hung up: nothing whole to judge, and said so (never a gap in the exchanges)
      const gone = 'the caller closed the connection before the body ended: nothing forwarded, nothing whole to judge';
      expect(await p.nth(2)).toMatchObject({ ex: { seq: 2, notJudged: gone }, failure: gone });
      expect((await p.nth(2)).ex.response).toBeUndefined();
      const next = await p.nth(3);
      expect(next.ex.seq).toBe(3);
      expect(next.ex.response?.status).toBe(200);
    } finally {
      await p.proxy.close();
    }
  });

  it('exchanges are handed on in the order they arrived, whatever order they end in', async () => {
    const p = await proxyTo(origin);
    try {
      const ended: string[] = [];
      const slow = send('POST', `${p.proxy.url}/pgv2/notify`, { 'x-case': 'slow' }, '{"n":1}').then((g) => {
        ended.push('slow');
        return g;
      });
      // the second arrives once the first is in (seq 1), and ends long before it
      while (received?.body !== '{"n":1}') await new Promise((r) => setTimeout(r, 5));
      await send('GET', `${p.proxy.url}/pgv2/return?n=2`);
      ended.push('fast');
      await slow;
      expect(ended).toEqual(['fast', 'slow']);
      const [first, second] = [await p.nth(1), await p.nth(2)];
      expect([first.ex.seq, first.ex.kind, first.ex.response?.status]).toEqual([1, 'webhook', 200]);
      expect([second.ex.seq, second.ex.kind]).toEqual([2, 'redirect']);
    } finally {
      await p.proxy.close();
    }
  });

  it('an absolute-form request target: forwarded to the merchant + its path and query, never the whole URL', async () => {
    const p = await proxyTo(origin);
    try {
      const answer = await raw(
        p.proxy.url,
        'POST http://shop.example.test/pgv2/notify?a=1 HTTP/1.1\r\nHost: shop.example.test\r\n' +
          'Content-Length: 2\r\nConnection: close\r\n\r\n{}',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      const s = await p.nth(1);
      expect(s.ex.kind).toBe('webhook');
      expect(s.ex.forwarded?.url).toBe(`${origin}/pgv2/notify?a=1`);
    } finally {
      await p.proxy.close();
    }
  });

  it('bad URLs and bounds: RangeError naming the option', async () => {
    const start = (more: Partial<MerchantProxyOptions>) =>
      startMerchantProxy({
        merchant: origin,
        notifyUrl: NOTIFY,
        returnUrl: RETURN,
        merchants,
        onExchange: () => {},
        ...more,
      });
    await expect(start({ merchant: 'ftp://shop.example' })).rejects.toThrow(
      new RangeError('startMerchantProxy: merchant must be an absolute http(s) URL, not "ftp://shop.example"'),
    );
    await expect(start({ merchant: 'http://127.0.0.1:70001' })).rejects.toThrow(
      new RangeError(
        'startMerchantProxy: merchant must be an absolute http(s) URL, not "http://127.0.0.1:70001" ' +
          '(its port 70001 is not from 1 to 65535)',
      ),
    );
    await expect(start({ merchant: 'http://me:pw@shop.example' })).rejects.toThrow(
      new RangeError('startMerchantProxy: merchant must not hold a user name or password (user:password@)'),
    );
    await expect(start({ notifyUrl: '/pgv2/notify' })).rejects.toThrow(/notifyUrl must be an absolute http\(s\) URL/);
    await expect(start({ timeoutMs: 0 })).rejects.toThrow(
      new RangeError('startMerchantProxy: timeoutMs must be a positive integer, not 0'),
    );
    await expect(start({ maxBodyBytes: 1.5 })).rejects.toThrow(/maxBodyBytes must be a positive integer, not 1\.5$/);
  });

  it('an unspecified host is reached on loopback; an onExchange that throws makes close() reject', async () => {
    const boom = new Error('the recorder broke');
    for (const [host, reach] of [
      ['0.0.0.0', 'http://127.0.0.1:'],
      ['::', 'http://[::1]:'],
    ] as const) {
      const p = await proxyTo(origin, {
        host,
        onExchange: () => {
          throw boom;
        },
      });
      expect(p.proxy.url.startsWith(reach)).toBe(true);
      expect((await send('POST', `${p.proxy.url}/pgv2/notify`, {}, '{}')).status).toBe(200);
      await expect(p.proxy.close()).rejects.toBe(boom);
    }
  });
});
