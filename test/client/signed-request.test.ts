/**
 * signedRequest against a bare node:http server: what goes on the wire (headers, target,
 * body exactly as signed, checked with a hand-written node:crypto signer), each mutation
 * changing exactly one thing, no redirect followed, bounded timeouts, a response size limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, signedRequest, type Mutation } from '../../src/client/index.js';
import { handSign, header, serve, type Received, type TestServer } from './_server.js';

const appId = 'app_7f3a9c';
const appSecret = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';
const clock = () => 1718090000000;
const body = '{"amount":"149.90","currency":"EUR"}';

let server: TestServer;
let slow: TestServer;
beforeAll(async () => {
  server = await serve((r, res) => {
    if (r.target.startsWith('/redirect')) {
      res.writeHead(302, { Location: `${server.origin}/elsewhere` });
      res.end();
    } else if (r.target.startsWith('/big')) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('x'.repeat(5000));
    } else {
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Echo': 'yes' });
      res.end('{"code":"OK"}');
    }
  });
  slow = await serve(() => undefined); // never answers
});
afterAll(async () => {
  await server.close();
  await slow.close();
});

const last = (): Received => server.received.at(-1) as Received;
const parseAuth = (value: string | undefined): Record<string, string> =>
  Object.fromEntries(
    (value ?? '')
      .replace(/^V2_SHA256 /, '')
      .split(',')
      .map((i) => [i.slice(0, i.indexOf('=')), i.slice(i.indexOf('=') + 1)]),
  );

describe('signedRequest', () => {
  it('sends Content-Type and Accept application/json and a 5.3 Authorization; the sign covers the bytes, method and full URL sent', async () => {
    const url = `${server.origin}/pg/v2/payment/create`;
    const r = await signedRequest({ method: 'POST', url, appId, appSecret, body, clock, nonce: 'n-1' });
    expect(r.status).toBe(200);
    expect(r.headers['x-echo']).toBe('yes');
    expect(Buffer.from(r.body).toString()).toBe('{"code":"OK"}');
    const got = last();
    expect(got.method).toBe('POST');
    expect(got.target).toBe('/pg/v2/payment/create');
    expect(got.body.toString()).toBe(body);
    expect(header(got, 'content-type')).toBe('application/json');
    expect(header(got, 'accept')).toBe('application/json');
    const auth = header(got, 'authorization');
    expect(auth).toMatch(/^V2_SHA256 appId=app_7f3a9c,sign=[0-9a-f]{64},timestamp=1718090000000,nonce=n-1$/);
    expect(parseAuth(auth)['sign']).toBe(handSign(appId, appSecret, 'POST', url, '1718090000000', 'n-1', got.body));
    expect(r.signed).toMatchObject({ appId, method: 'POST', url, timestamp: '1718090000000', nonce: 'n-1' });
    expect(r.sent.headers.map(([n]) => n)).toEqual(['Content-Type', 'Accept', 'Authorization']);
    expect(JSON.stringify(r)).not.toContain(appSecret);
  });

  it('a random nonce per request by default, and the clock in milliseconds', async () => {
    const a = await signedRequest({ method: 'POST', url: `${server.origin}/x`, appId, appSecret, body });
    const b = await signedRequest({ method: 'POST', url: `${server.origin}/x`, appId, appSecret, body });
    expect(a.signed.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(a.signed.nonce).not.toBe(b.signed.nonce);
    expect(Math.abs(Number(a.signed.timestamp) - Date.now())).toBeLessThan(60_000);
  });

  it('signs and sends the URL exactly as written (R4): percent-encoding case and query order kept, the fragment dropped', async () => {
    const url = `${server.origin}/pg/v2/a%2fb%2F?z=1&a=%7e#frag`;
    const r = await signedRequest({ method: 'POST', url, appId, appSecret, body: '', clock, nonce: 'n' });
    expect(last().target).toBe('/pg/v2/a%2fb%2F?z=1&a=%7e');
    expect(r.signed.url).toBe(`${server.origin}/pg/v2/a%2fb%2F?z=1&a=%7e`);
    expect(parseAuth(header(last(), 'authorization'))['sign']).toBe(
      handSign(appId, appSecret, 'POST', r.signed.url, '1718090000000', 'n', ''),
    );
  });

  it('sends a Uint8Array body byte for byte, a BOM and CRLF included (R3)', async () => {
    const bytes = Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0x0d, 0x0a);
    await signedRequest({
      method: 'POST',
      url: `${server.origin}/x`,
      appId,
      appSecret,
      body: bytes,
      clock,
      nonce: 'n',
    });
    expect([...last().body]).toEqual([...bytes]);
  });

  it('extra headers follow the defaults; one of the same name replaces the default', async () => {
    await signedRequest({
      method: 'POST',
      url: `${server.origin}/x`,
      appId,
      appSecret,
      body,
      headers: [
        ['X-Trace', 't1'],
        ['accept', 'application/json; charset=utf-8'],
      ],
    });
    expect(header(last(), 'x-trace')).toBe('t1');
    expect(header(last(), 'accept')).toBe('application/json; charset=utf-8');
    expect(last().headers.filter(([n]) => n.toLowerCase() === 'accept')).toHaveLength(1);
  });

  const url = () => `${server.origin}/pg/v2/payment/create`;
  it.each<[string, () => Mutation, (got: Received, sign: string) => void]>([
    [
      'body',
      () => ({ kind: 'body', body: '{"amount":"1.00","currency":"EUR"}' }),
      (got, sign) => {
        expect(got.body.toString()).toBe('{"amount":"1.00","currency":"EUR"}');
        expect(sign).toBe(handSign(appId, appSecret, 'POST', url(), '1718090000000', 'n-1', body));
      },
    ],
    [
      'url',
      () => ({ kind: 'url', url: `${server.origin}/pg/v2/payment/create?x=1` }),
      (got, sign) => {
        expect(got.target).toBe('/pg/v2/payment/create?x=1');
        expect(sign).toBe(handSign(appId, appSecret, 'POST', url(), '1718090000000', 'n-1', body));
      },
    ],
    [
      'method',
      () => ({ kind: 'method', method: 'PUT' }),
      (got, sign) => {
        expect(got.method).toBe('PUT');
        expect(sign).toBe(handSign(appId, appSecret, 'POST', url(), '1718090000000', 'n-1', body));
      },
    ],
    [
      'timestamp',
      () => ({ kind: 'timestamp', timestamp: '1718090000001' }),
      (got, sign) => {
        expect(parseAuth(header(got, 'authorization'))['timestamp']).toBe('1718090000001');
        expect(sign).toBe(handSign(appId, appSecret, 'POST', url(), '1718090000000', 'n-1', body));
      },
    ],
    [
      'nonce',
      () => ({ kind: 'nonce', nonce: '' }),
      (got) => {
        expect(header(got, 'authorization')).toMatch(/,nonce=$/);
      },
    ],
    [
      'appId',
      () => ({ kind: 'appId', appId: 'app_other' }),
      (got, sign) => {
        expect(parseAuth(header(got, 'authorization'))['appId']).toBe('app_other');
        expect(sign).toBe(handSign(appId, appSecret, 'POST', url(), '1718090000000', 'n-1', body));
      },
    ],
    [
      'secret',
      () => ({ kind: 'secret', appSecret: 'sk_wrong' }),
      (_got, sign) => {
        expect(sign).toBe(handSign(appId, 'sk_wrong', 'POST', url(), '1718090000000', 'n-1', body));
      },
    ],
    [
      'authorization form',
      () => ({
        kind: 'authorization',
        form: (items) =>
          `v2_sha256 nonce=${items.nonce}, sign=${items.sign.toUpperCase()},timestamp=${items.timestamp},appId=${items.appId}`,
      }),
      (got, sign) => {
        expect(header(got, 'authorization')).toBe(
          `v2_sha256 nonce=n-1, sign=${sign.toUpperCase()},timestamp=1718090000000,appId=${appId}`,
        );
        expect(sign).toBe(handSign(appId, appSecret, 'POST', url(), '1718090000000', 'n-1', body));
      },
    ],
    [
      'no authorization',
      () => ({ kind: 'authorization', form: () => null }),
      (got) => {
        expect(header(got, 'authorization')).toBeUndefined();
      },
    ],
    [
      'content type',
      () => ({ kind: 'contentType', value: 'text/plain' }),
      (got) => {
        expect(header(got, 'content-type')).toBe('text/plain');
      },
    ],
    [
      'no content type',
      () => ({ kind: 'contentType', value: null }),
      (got) => {
        expect(header(got, 'content-type')).toBeUndefined();
      },
    ],
    [
      'accept',
      () => ({ kind: 'accept', value: 'text/html' }),
      (got) => {
        expect(header(got, 'accept')).toBe('text/html');
      },
    ],
    [
      'no accept',
      () => ({ kind: 'accept', value: null }),
      (got) => {
        expect(header(got, 'accept')).toBeUndefined();
      },
    ],
  ])('mutate %s: changes that one thing after signing', async (kind, mutation, check) => {
    const r = await signedRequest({
      method: 'POST',
      url: url(),
      appId,
      appSecret,
      body,
      clock,
      nonce: 'n-1',
      mutate: mutation(),
    });
    const got = last();
    check(got, r.signed.sign);
    // everything else is as unmutated
    if (kind !== 'method') expect(got.method).toBe('POST');
    if (kind !== 'url') expect(got.target).toBe('/pg/v2/payment/create');
    if (kind !== 'body') expect(got.body.toString()).toBe(body);
    if (!kind.includes('content type')) expect(header(got, 'content-type')).toBe('application/json');
    if (!kind.includes('accept')) expect(header(got, 'accept')).toBe('application/json');
  });

  it('never follows a redirect: the 302 is the answer', async () => {
    const before = server.received.length;
    const r = await signedRequest({ method: 'POST', url: `${server.origin}/redirect`, appId, appSecret, body });
    expect(r.status).toBe(302);
    expect(r.headers.location).toBe(`${server.origin}/elsewhere`);
    expect(server.received.length).toBe(before + 1);
  });

  it('times out (PGV2_CLIENT_TIMEOUT) when the server does not answer', async () => {
    const started = Date.now();
    const e = await signedRequest({
      method: 'POST',
      url: `${slow.origin}/x`,
      appId,
      appSecret,
      body,
      timeoutMs: 300,
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ClientError);
    expect((e as ClientError).code).toBe('PGV2_CLIENT_TIMEOUT');
    expect((e as ClientError).message).toMatch(/timed out after 300 ms \(UND_ERR_HEADERS_TIMEOUT\)/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a refused connection is PGV2_CLIENT_NETWORK', async () => {
    const closed = await serve(() => undefined);
    await closed.close();
    const e = await signedRequest({ method: 'POST', url: `${closed.origin}/x`, appId, appSecret, body }).catch(
      (x: unknown) => x,
    );
    expect(e).toMatchObject({ name: 'ClientError', code: 'PGV2_CLIENT_NETWORK' });
    expect((e as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('stops reading a response larger than maxResponseBytes (PGV2_CLIENT_RESPONSE_TOO_LARGE)', async () => {
    const e = await signedRequest({
      method: 'POST',
      url: `${server.origin}/big`,
      appId,
      appSecret,
      body,
      maxResponseBytes: 1000,
    }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'PGV2_CLIENT_RESPONSE_TOO_LARGE', status: 200 });
  });

  it.each<[string, Record<string, unknown>, ErrorConstructor]>([
    ['a URL that is not http(s)', { url: 'ftp://127.0.0.1/x' }, RangeError],
    ['a relative URL', { url: '/pg/v2/payment/create' }, RangeError],
    ['a path with a space', { url: 'http://127.0.0.1:1/a b' }, RangeError],
    ['an appId with a comma', { appId: 'a,b' }, RangeError],
    ['a nonce with a comma', { nonce: 'a,b' }, RangeError],
    ['a body that is a number', { body: 5 }, TypeError],
    ['an appSecret that is not a string', { appSecret: null }, TypeError],
    ['a clock giving NaN', { clock: () => Number.NaN }, RangeError],
    ['a timeout of 0', { timeoutMs: 0 }, RangeError],
  ])('misuse: %s is a %s, nothing sent', async (_what, change, type) => {
    const before = server.received.length;
    const input = { method: 'POST', url: `${server.origin}/x`, appId, appSecret, body, ...change } as Parameters<
      typeof signedRequest
    >[0];
    await expect(signedRequest(input)).rejects.toThrow(type);
    expect(server.received.length).toBe(before);
  });
});
