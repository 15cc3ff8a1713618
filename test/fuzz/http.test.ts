import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startMerchant } from '../../examples/sample-merchant/merchant.mjs';
import { fuzzHttp, httpExpectation } from '../../src/fuzz/http.js';
import { verifyRequest } from '../../src/scheme/verify.js';
import { DEMO_MERCHANT, startGateway } from '../../src/gateway/index.js';

const SIGNED = { appId: 'app_1', sign: 'ab'.repeat(32), timestamp: '1718090123456', nonce: 'n0nce' };

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('httpExpectation', () => {
  it('accepts only the signed values, refuses what R8 refuses or what differs, leaves tolerated deviations open', () => {
    expect(
      httpExpectation(`V2_SHA256 appId=app_1,sign=${SIGNED.sign},timestamp=1718090123456,nonce=n0nce`, SIGNED),
    ).toBe('accept');
    expect(
      httpExpectation(`V2_SHA256 appId=app_1,sign=${SIGNED.sign},timestamp=1718090123456,nonce=other`, SIGNED),
    ).toBe('refuse');
    expect(httpExpectation('Bearer x', SIGNED)).toBe('refuse');
    expect(
      httpExpectation(`\u00a0V2_SHA256 appId=app_1,sign=${SIGNED.sign},timestamp=1718090123456,nonce=n0nce`, SIGNED),
    ).toBe('either');
    expect(
      httpExpectation(` V2_SHA256 appId=app_1,sign=${SIGNED.sign},timestamp=1718090123456,nonce=n0nce\t`, SIGNED),
    ).toBe('accept');
    expect(
      httpExpectation(`v2_sha256 appId=app_1,sign=${SIGNED.sign},timestamp=1718090123456,nonce=n0nce`, SIGNED),
    ).toBe('either');
  });
});

describe('fuzzHttp', () => {
  it('finds nothing wrong with the reference gateway', async () => {
    const gateway = await startGateway({ merchants: [DEMO_MERCHANT] });
    try {
      let seen = 0;
      const r = await fuzzHttp({
        kind: 'gateway',
        url: gateway.baseUrl,
        ...DEMO_MERCHANT,
        seed: 7,
        runs: 100,
        onRun: (n) => (seen = n),
      });
      expect(r.finding).toBeUndefined();
      expect(r.runs).toBe(100);
      expect(seen).toBe(100);
    } finally {
      await gateway.close();
    }
  }, 30_000);

  it('finds nothing in the sample merchant, which trims white space with String#trim (R8 (a)), at 5 seeds', async () => {
    const port = await freePort();
    const notifyUrl = `http://127.0.0.1:${port}/hooks/pay`;
    const m = await startMerchant({
      appId: 'app_m',
      appSecret: 'merchant-secret',
      notifyUrl,
      returnUrl: `http://127.0.0.1:${port}/return`,
      port,
    });
    try {
      for (const seed of [1, 2, 3, 4, 5]) {
        const r = await fuzzHttp({
          kind: 'merchant',
          url: notifyUrl,
          appId: 'app_m',
          appSecret: 'merchant-secret',
          seed,
          runs: 60,
        });
        expect([seed, r.finding?.header, r.finding?.reason]).toEqual([seed, undefined, undefined]);
        expect(r.runs).toBe(60);
      }
    } finally {
      await m.close();
    }
  }, 30_000);

  it('finds a merchant that accepts every header containing V2_SHA256, shrunk and replayable', async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const ok = String(req.headers.authorization ?? '').includes('V2_SHA256');
        res.writeHead(ok ? 200 : 401).end(ok ? 'SUCCESS' : 'no');
      });
    });
    const base = await listen(server);
    try {
      const options = {
        kind: 'merchant' as const,
        url: `${base}/notify`,
        appId: 'app_m',
        appSecret: 's',
        seed: 3,
        runs: 200,
      };
      const r = await fuzzHttp(options);
      expect(r.finding?.reason).toMatch(/must be refused/);
      expect(r.finding?.header).toContain('V2_SHA256');
      const again = await fuzzHttp({ ...options, path: r.finding?.path ?? '' });
      expect(again.finding?.reason).toMatch(/must be refused/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((res) => server.close(() => res()));
    }
  }, 30_000);

  it('reports a 5xx to a genuine header (R16: a failure) and a hang', async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url === '/boom') res.writeHead(500).end('boom');
        // /hang: never answers
      });
    });
    const base = await listen(server);
    try {
      const boom = await fuzzHttp({
        kind: 'merchant',
        url: `${base}/boom`,
        appId: 'a',
        appSecret: 's',
        seed: 1,
        runs: 50,
      });
      expect(boom.finding?.reason).toMatch(
        /must be accepted \(R8\) but answered 500 to a genuine message: a server error is a failure \(R16\)/,
      );
      const hang = await fuzzHttp({
        kind: 'merchant',
        url: `${base}/hang`,
        appId: 'a',
        appSecret: 's',
        seed: 1,
        runs: 3,
        timeoutMs: 100,
        timeMs: 1000,
      });
      expect(hang.finding?.reason).toMatch(/no answer \(PGV2_CLIENT_TIMEOUT\)/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((res) => server.close(() => res()));
    }
  }, 30_000);

  it('a 5xx to a header that must be refused counts as a refusal: no finding, an advisory (R16)', async () => {
    // a verifier that crashes (500) on every header it does not accept, and answers 200 to a genuine one
    const secret = 'loopback-secret';
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = `http://${String(req.headers.host)}${String(req.url)}`;
        const authorization = typeof req.headers.authorization === 'string' ? req.headers.authorization : null;
        const ok = verifyRequest({
          appId: 'app_500',
          appSecret: secret,
          method: 'POST',
          url,
          authorization,
          body: Buffer.concat(chunks),
        }).valid;
        res.writeHead(ok ? 200 : 500).end(ok ? 'OK' : 'internal error');
      });
    });
    const base = await listen(server);
    try {
      const r = await fuzzHttp({
        kind: 'merchant',
        url: `${base}/notify`,
        appId: 'app_500',
        appSecret: secret,
        seed: 3,
        runs: 60,
      });
      expect(r.finding).toBeUndefined();
      expect(r.advisories.serverErrors).toBeGreaterThan(0);
      expect(r.advisories.message).toBe('answered with a server error, not a refusal (R16)');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((res) => server.close(() => res()));
    }
  }, 30_000);

  it('a genuine header refused by the endpoint is a finding', async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(401).end('no'));
    });
    const base = await listen(server);
    try {
      const r = await fuzzHttp({ kind: 'gateway', url: `${base}/`, appId: 'a', appSecret: 's', seed: 1, runs: 50 });
      expect(r.finding?.reason).toMatch(/must be accepted/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((res) => server.close(() => res()));
    }
  }, 30_000);
});
