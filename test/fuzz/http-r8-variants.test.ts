/**
 * `fuzz --gateway` / `--merchant-notify` and R8's refined variants: a gateway whose parser
 * ignores empty list elements and compares item names without regard to case (R8 (d), (e)) is
 * conformant, so fuzzing it finds nothing; a receiver that refuses a genuine header because of
 * SP/HTAB around the field value breaks HTTP's rule (RFC 9110 §5.5), and the finding says so.
 */
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fuzzHttp, httpExpectation, mustAcceptRule } from '../../src/fuzz/http.js';
import { DEMO_MERCHANT, startGateway } from '../../src/gateway/index.js';
import { verifyWebhook } from '../../src/scheme/verify.js';

const S = 'ab'.repeat(32);
const SIGNED = { appId: 'app_1', sign: S, timestamp: '1718090123456', nonce: 'n0nce' };
const GOOD = `V2_SHA256 appId=app_1,sign=${S},timestamp=1718090123456,nonce=n0nce`;

describe('the rule a must-accept finding cites', () => {
  it.each([
    ['a strictly valid header', GOOD, 'R8'],
    ['SP before the field value', ` ${GOOD}`, 'RFC 9110 §5.5: the SP/HTAB around a field value are not part of it'],
    ['HTAB after the field value', `${GOOD}\t`, 'RFC 9110 §5.5: the SP/HTAB around a field value are not part of it'],
  ])('%s', (_name, header, rule) => {
    expect(httpExpectation(header, SIGNED)).toBe('accept');
    expect(mustAcceptRule(header)).toBe(rule);
  });

  it('leaves open in HTTP what R8 leaves open in the value (a trailing comma, a recased name)', () => {
    expect(httpExpectation(`${GOOD},`, SIGNED)).toBe('either');
    expect(httpExpectation(GOOD.replace('appId=', 'AppId='), SIGNED)).toBe('either');
    expect(httpExpectation(GOOD.replace('V2_SHA256 ', 'V2_SHA256 appid=evil,'), SIGNED)).toBe('either');
  });
});

describe('fuzzHttp and R8 (d), (e)', () => {
  it('finds nothing in the reference gateway folding item names and ignoring empty elements, at seeds 1–5; it did fold some', async () => {
    const gateway = await startGateway({ merchants: [DEMO_MERCHANT], header: { foldNames: true, ignoreEmpty: true } });
    try {
      for (const seed of [1, 2, 3, 4, 5]) {
        const r = await fuzzHttp({ kind: 'gateway', url: gateway.baseUrl, ...DEMO_MERCHANT, seed, runs: 100 });
        expect([seed, r.finding?.header, r.finding?.reason]).toEqual([seed, undefined, undefined]);
      }
      const tolerated = gateway.recorder
        .for(undefined)
        .requests.flatMap((q) => (q.verification.valid ? q.verification.tolerated : []));
      expect(tolerated).toContain('name-case');
      expect(tolerated).toContain('empty-element');
    } finally {
      await gateway.close();
    }
  }, 60_000);

  it('a merchant reading the raw field (SP/HTAB kept) is told RFC 9110 §5.5, not R8', async () => {
    const secret = 'merchant-secret';
    const server = rawMerchant((value, body, url) => {
      if (value !== value.trim()) return 401; // the bug: the raw bytes of the field, padding included
      return verifyWebhook({
        appId: 'app_m',
        appSecret: secret,
        notifyUrl: url,
        method: 'POST',
        authorization: value,
        body,
      }).valid
        ? 200
        : 401;
    });
    const base = await listenRaw(server);
    try {
      let finding: string | undefined;
      for (const seed of [1, 2, 3, 4, 5]) {
        const r = await fuzzHttp({
          kind: 'merchant',
          url: `${base}/notify`,
          appId: 'app_m',
          appSecret: secret,
          seed,
          runs: 100,
        });
        finding ??= r.finding?.reason;
      }
      expect(finding).toMatch(
        /^a genuinely signed, valid header must be accepted \(RFC 9110 §5\.5: the SP\/HTAB around a field value are not part of it\) but got 401$/,
      );
    } finally {
      await new Promise<void>((res) => server.close(() => res()));
    }
  }, 60_000);
});

// --- internal ---

/** A merchant over raw TCP that sees the Authorization field as sent (a Node HTTP server would strip the padding). */
function rawMerchant(decide: (authorization: string, body: string, url: string) => number): Server {
  return createTcpServer((socket: Socket) => {
    let data = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = data.subarray(0, end).toString('latin1').split('\r\n');
      const field = (name: string): string | undefined =>
        head.find((l) => l.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1);
      const length = Number(field('content-length') ?? '0');
      if (data.length < end + 4 + length) return;
      const body = data.subarray(end + 4, end + 4 + length).toString('utf8');
      const auth = field('authorization');
      // the field value as sent: everything after "name:" but the one SP a client writes there
      const value =
        auth === undefined ? '' : Buffer.from(auth.startsWith(' ') ? auth.slice(1) : auth, 'latin1').toString('utf8');
      const host = field('host')?.trim() ?? '';
      const path = (head[0] ?? '').split(' ')[1] ?? '/';
      const status = auth === undefined ? 401 : decide(value, body, `http://${host}${path}`);
      socket.end(`HTTP/1.1 ${status} X\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
    });
    socket.on('error', () => undefined);
  });
}

async function listenRaw(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
