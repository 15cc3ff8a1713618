/**
 * The proxy in front of a merchant (issue 26 item 2) over real HTTP on loopback, in process: the sample merchant
 * (examples/sample-merchant) and a tiny node:http merchant that accepts everything behind it, and the kit playing the
 * gateway — webhooks and return redirects signed here with node:crypto over contents written out by hand (never with
 * the kit's signer), so the expected verdicts do not come from the code tested. Each message is forwarded unchanged
 * and the merchant's answer returned unchanged; the exchange is judged: a genuine message the merchant takes is
 * conformant, a forged one is a finding about the message, and a merchant that takes it is a finding about its answer.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MerchantBook } from '../../src/gateway/merchants.js';
import type { LiveExchange } from '../../src/live/exchange.js';
import type { LiveJudgement } from '../../src/live/judge.js';
import { startMerchantProxy, type MerchantProxy, type PassThrough } from '../../src/live/merchant-proxy.js';
import { startSampleMerchant, type StartedSample } from '../../src/roles/merchant/certify/sample.js';
import { sha } from '../diagnosis/_support.js';

const APP = 'demo_merchant_app';
const SECRET = 'demo_sample_secret_5f1c2a7e';
const NOTIFY = 'https://shop.example.test/pgv2/notify';
const RETURN = 'https://shop.example.test/pgv2/return?order=A1&lang=fr';
const TS = '1700000000001';
const NONCE = 'nonce-mproxy';
const BODY = '{"paymentNo":"P1","merchantTradeNo":"T1","status":"SUCCESS","amount":"10.00"}';

const header = (sign: string): string => `V2_SHA256 appId=${APP},sign=${sign},timestamp=${TS},nonce=${NONCE}`;
/** The sign of 5.1's content, written out: parts 1–6 each + LF, the body, LF (`lf` false drops the final LF). */
const signOver = (method: string, url: string, body: string, lf = true): string =>
  sha(`${APP}\n${SECRET}\n${method}\n${url}\n${TS}\n${NONCE}\n${body}${lf ? '\n' : ''}`);

interface Seen {
  readonly ex: LiveExchange;
  readonly judgement: LiveJudgement;
  readonly failure?: string;
}

/** A proxy whose exchanges are waited for one by one. */
async function proxyTo(merchant: string, timeoutMs?: number, maxBodyBytes?: number) {
  const seen: Seen[] = [];
  const passed: PassThrough[] = [];
  const waiting: Array<(s: Seen) => void> = [];
  const proxy: MerchantProxy = await startMerchantProxy({
    merchant,
    notifyUrl: NOTIFY,
    returnUrl: RETURN,
    merchants: new MerchantBook([{ appId: APP, appSecret: SECRET }]),
    onExchange: (ex, judgement, failure) => {
      const s = { ex, judgement, ...(failure !== undefined ? { failure } : {}) };
      const w = waiting.shift();
      if (w) w(s);
      else seen.push(s);
    },
    onPassThrough: (p) => void passed.push(p),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
  });
  const next = (): Promise<Seen> => {
    const s = seen.shift();
    return s ? Promise.resolve(s) : new Promise((resolve) => waiting.push(resolve));
  };
  return { proxy, next, passed };
}

interface Got {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** One request with node:http (never follows a redirect), headers as given. */
function send(method: string, url: string, headers: Record<string, string> = {}, body?: Uint8Array): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const webhook = (at: string, body: string, sign: string): Promise<Got> =>
  send('POST', `${at}/pgv2/notify`, { 'content-type': 'application/json', authorization: header(sign) }, enc(body));
const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
const about = (s: Seen): string[] => s.judgement.findings.map((f) => f.about);

describe('merchant proxy: the sample merchant behind it', () => {
  let sample: StartedSample;
  let p: Awaited<ReturnType<typeof proxyTo>>;
  beforeAll(async () => {
    sample = await startSampleMerchant();
    p = await proxyTo(new URL(sample.deliverTo).origin);
  });
  afterAll(async () => {
    await p.proxy.close();
    await sample.close();
  });

  it('a genuine webhook signed over the registered notifyUrl: forwarded, accepted, conformant', async () => {
    const got = await webhook(p.proxy.url, BODY, signOver('POST', NOTIFY, BODY));
    expect([got.status, got.body.toString()]).toEqual([200, 'SUCCESS']);
    const s = await p.next();
    expect(s.ex.kind).toBe('webhook');
    expect(s.ex.registeredUrl).toBe(NOTIFY);
    expect(s.ex.request.url).toBe(`${p.proxy.url}/pgv2/notify`);
    expect(s.ex.forwarded?.url).toBe(`${new URL(sample.deliverTo).origin}/pgv2/notify`);
    expect(Buffer.from(s.ex.request.body).toString()).toBe(BODY);
    expect(s.ex.response?.status).toBe(200);
    expect(s.judgement).toMatchObject({ verdict: 'conformant', findings: [] });
  });

  it('a forged webhook (body changed after signing): forwarded unchanged, refused; the message is the finding', async () => {
    const changed = BODY.replace('10.00', '1000.00');
    const got = await webhook(p.proxy.url, changed, signOver('POST', NOTIFY, BODY));
    expect(got.status).toBe(401); // the sample merchant's own refusal, returned as it answered
    const s = await p.next();
    expect(Buffer.from(s.ex.request.body).toString()).toBe(changed);
    // not conformant because of the message alone: no finding about the merchant's answer
    expect(s.judgement.verdict).toBe('not conformant');
    expect(about(s)).toEqual(['webhook']);
    expect(s.judgement.findings[0]?.rule).toBe('5.5, R10');
  });

  it('a webhook signed over the URL it was delivered to, not the notifyUrl as registered (R10): does not verify', async () => {
    const got = await webhook(p.proxy.url, BODY, signOver('POST', `${p.proxy.url}/pgv2/notify`, BODY));
    expect(got.status).toBe(401);
    const s = await p.next();
    expect(about(s)).toEqual(['webhook']);
    expect(s.judgement.findings[0]?.message).toMatch(/does not verify/);
  });

  it('a genuine return redirect: forwarded, the landing page returned, conformant; no final LF: no-final-lf', async () => {
    const payment = '{"paymentNo":"P1","merchantTradeNo":"T1","status":"SUCCESS"}';
    const landed = (sign: string): string =>
      `${p.proxy.url}/pgv2/return?order=A1&lang=fr&paymentNo=P1&merchantTradeNo=T1` +
      `&payment=${encodeURIComponent(payment)}&authorization=${encodeURIComponent(header(sign))}`;
    const right = await send('GET', landed(signOver('GET', RETURN, `payment=${payment}`)));
    expect(right.status).toBe(200);
    expect(right.body.toString()).toContain('Thank you');
    const ok = await p.next();
    expect(ok.ex).toMatchObject({ kind: 'redirect', registeredUrl: RETURN });
    expect(ok.judgement).toMatchObject({ verdict: 'conformant', findings: [] });

    const wrong = await send('GET', landed(signOver('GET', RETURN, `payment=${payment}`, false)));
    expect(wrong.status).toBe(401);
    const bad = await p.next();
    expect(bad.judgement.findings.map((f) => [f.about, f.mistake])).toEqual([['redirect', 'no-final-lf']]);
  });

  it('concurrent webhooks: each forwarded and answered, each its own seq', async () => {
    const gots = await Promise.all(
      Array.from({ length: 6 }, () => webhook(p.proxy.url, BODY, signOver('POST', NOTIFY, BODY))),
    );
    expect(gots.map((g) => g.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const all = await Promise.all(gots.map(() => p.next()));
    expect(new Set(all.map((s) => s.ex.seq)).size).toBe(6);
    expect(all.every((s) => s.judgement.verdict === 'conformant')).toBe(true);
  });
});

describe('merchant proxy: a merchant that takes everything, and what goes wrong', () => {
  let merchant: Server;
  let origin: string;
  let p: Awaited<ReturnType<typeof proxyTo>>;
  /** What the tiny merchant received last: its raw headers and body. */
  let received: { headers: string[]; body: Buffer; url: string } | undefined;
  beforeAll(async () => {
    merchant = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received = { headers: req.rawHeaders, body: Buffer.concat(chunks), url: req.url ?? '' };
        if (req.url?.startsWith('/slow')) return; // never answers
        if (req.url?.startsWith('/pgv2/return')) {
          res.writeHead(302, { Location: '/orders/T1?from=return' });
          res.end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain', 'x-merchant': 'tiny' });
        res.end('OK');
      });
    });
    await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
    p = await proxyTo(origin, 300, 1024);
  });
  afterAll(async () => {
    await p.proxy.close();
    merchant.closeAllConnections();
    await new Promise((resolve) => merchant.close(resolve));
  });

  it('a merchant that accepts a forged webhook: not conformant, the finding names that it accepted it', async () => {
    const changed = BODY.replace('SUCCESS', 'REFUNDED');
    const got = await webhook(p.proxy.url, changed, signOver('POST', NOTIFY, BODY));
    expect([got.status, got.body.toString(), got.headers['x-merchant']]).toEqual([200, 'OK', 'tiny']);
    const s = await p.next();
    expect(s.judgement.verdict).toBe('not conformant');
    expect(about(s)).toEqual(['webhook', 'response']);
    expect(s.judgement.findings[1]?.message).toMatch(/accepted a webhook that does not verify \(HTTP 200\)/);
  });

  it('forwards the body bytes exactly, the headers but hop-by-hop ones, and never follows a redirect', async () => {
    const bytes = new Uint8Array([0xff, 0x00, 0x7b, 0x0a]);
    const got = await send(
      'POST',
      `${p.proxy.url}/pgv2/notify?x=%2F1`,
      { 'X-Trace': 'a', Connection: 'keep-alive, x-drop', 'X-Drop': 'hop', Authorization: 'V2_SHA256 a=b' },
      bytes,
    );
    expect(got.status).toBe(200);
    expect(received?.url).toBe('/pgv2/notify?x=%2F1');
    expect([...(received?.body ?? [])]).toEqual([...bytes]);
    const names = (received?.headers ?? []).filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
    expect(names).toContain('x-trace');
    expect(names).toContain('authorization');
    expect(names).not.toContain('x-drop');
    await p.next();

    const redirect = await send('GET', `${p.proxy.url}/pgv2/return?order=A1&lang=fr&payment=x&authorization=y`);
    expect([redirect.status, redirect.headers.location]).toEqual([302, '/orders/T1?from=return']);
    const s = await p.next();
    // a redirect that does not verify, taken with a 3xx (5.6: a 3xx accepts, as the merchant role reads it)
    expect(about(s)).toEqual(['redirect', 'response']);
  });

  it('another path: forwarded, not an exchange', async () => {
    const got = await send('GET', `${p.proxy.url}/orders/T1`);
    expect(got.status).toBe(200);
    expect(p.passed.at(-1)).toEqual({ method: 'GET', url: `${p.proxy.url}/orders/T1`, status: 200 });
  });

  it('a merchant too slow: 502, the exchange with no response and the reason; a body too large: 413', async () => {
    const slow = await startMerchantProxy({
      merchant: `${origin}/slow`,
      notifyUrl: NOTIFY,
      returnUrl: RETURN,
      merchants: new MerchantBook([{ appId: APP, appSecret: SECRET }]),
      timeoutMs: 100,
      onExchange: (ex, _j, failure) => void slowSeen.push([ex.response, failure]),
    });
    const slowSeen: Array<[unknown, string | undefined]> = [];
    expect((await webhook(slow.url, BODY, signOver('POST', NOTIFY, BODY))).status).toBe(502);
    await slow.close();
    expect(slowSeen).toEqual([[undefined, expect.stringMatching(/did not answer within 100 ms/)]]);

    const big = await webhook(p.proxy.url, 'x'.repeat(2000), signOver('POST', NOTIFY, BODY));
    expect(big.status).toBe(413);
    const s = await p.next();
    expect(s.judgement.verdict).toBe('not judged');
    expect(s.failure).toMatch(/larger than 1024 bytes/);
  });

  it('a merchant that is down: 502 to the caller, the exchange with no response and the reason', async () => {
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
    const down = await proxyTo(`http://127.0.0.1:${port}`);
    const got = await webhook(down.proxy.url, BODY, signOver('POST', NOTIFY, BODY));
    expect(got.status).toBe(502);
    const s = await down.next();
    await down.proxy.close();
    expect(s.ex.response).toBeUndefined();
    expect(s.failure).toMatch(/refused the connection/);
    // the webhook verifies, and no answer came: half an exchange never passes (a CI run against a merchant that is
    // down must not go green)
    expect(s.judgement.verdict).toBe('not judged');
    expect(s.judgement.reason).toMatch(
      /^there is no answer \(.*refused the connection.*\): the request alone was judged/,
    );
  });
});
