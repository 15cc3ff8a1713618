/**
 * `fuzz --gateway` / `--merchant-notify` sends what it says: a header the HTTP client (undici) refuses goes byte for
 * byte over a raw socket, one the wire cannot carry (CR, LF) is counted apart and never sent, and the counts add up.
 * Loopback only; every server here records the bytes it received.
 */
import { connect, createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_MERCHANT, startGateway } from '../../src/gateway/index.js';
import { fuzzHttp, wireExpectation } from '../../src/fuzz/http.js';
import { sendRaw } from '../../src/fuzz/raw-http.js';
import { wireValue } from '../../src/fuzz/wire.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise<void>((r) => s.close(() => r()));
});

/** A TCP server that records every connection's bytes and answers as `answer` says once a request's head is in. */
async function recording(answer: (socket: Socket, received: Buffer) => void): Promise<{ url: string; got: Buffer[] }> {
  const got: Buffer[] = [];
  const server = createNetServer((socket) => {
    const chunks: Buffer[] = [];
    let answered = false;
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      const all = Buffer.concat(chunks);
      const head = all.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)\r\n/i.exec(all.toString('latin1'));
      if (answered || head < 0 || all.length < head + 4 + Number(length?.[1] ?? 0)) return;
      answered = true;
      got.push(all);
      answer(socket, all);
    });
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got };
}

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const ok = (socket: Socket): void => {
  socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-A: b\r\n\r\nOK');
};

describe('wireValue: what each character class becomes on the wire', () => {
  it.each([
    ['plain ASCII and HTAB', 'V2_SHA256\ta=b', '5632 5f53 4841 3235 3609 613d 62', false],
    ['Latin-1 (obs-text): one byte each', 'a=\u00e9\u00a0', '613d e9a0', false],
    ['a control character: one byte, raw', 'a=\u0001', '613d 01', true],
    ['DEL: one byte, raw', 'a=\u007f', '613d 7f', true],
    ['NUL: one byte, raw', 'a=\u0000b', '613d 0062', true],
    // above U+00FF the whole value goes as UTF-8: 中 is E4 B8 AD, é then C3 A9 (RFC 3629)
    ['above U+00FF: the whole value as UTF-8', 'a=\u4e2d\u00e9', '613d e4b8 adc3 a9', true],
    ['an emoji (a surrogate pair): UTF-8', '\u{1f600}', 'f09f 9880', true],
  ])('%s', (_what, value, hex, raw) => {
    const w = wireValue(value);
    expect(w.sendable).toBe(true);
    if (!w.sendable) return;
    expect(Buffer.from(w.bytes).toString('hex')).toBe(hex.replaceAll(' ', ''));
    expect(w.raw).toBe(raw);
  });

  it.each([
    ['a bare LF', 'V2_SHA256 a=b\nX: y', 'CR or LF'],
    ['a bare CR', 'V2_SHA256 a=b\rc', 'CR or LF'],
    ['CRLF SP (obs-fold)', 'V2_SHA256\r\n a=b', 'CR or LF'],
    ['a lone high surrogate', 'a=\ud83d', 'a lone surrogate'],
    ['a lone low surrogate', 'a=\ude00b', 'a lone surrogate'],
  ])('%s is not sendable', (_what, value, reason) => {
    const w = wireValue(value);
    expect(w.sendable).toBe(false);
    if (!w.sendable) expect(w.reason).toContain(reason);
  });

  it('reads NUL as SP too, and a UTF-8 value as Latin-1 too (what a receiver may read)', () => {
    const nul = wireValue('a\u0000b');
    expect(nul.sendable && nul.readings).toEqual(['a\u0000b', 'a b']);
    expect(nul.sendable && nul.messageMayBeRefused).toBe(true);
    const wide = wireValue('\u3000x');
    // U+3000 is E3 80 80 in UTF-8: read as Latin-1, "ã" and two C1 controls
    expect(wide.sendable && wide.readings).toEqual(['\u3000x', '\u00e3\u0080\u0080x']);
    expect(wide.sendable && wide.messageMayBeRefused).toBe(false);
  });
});

describe('wireExpectation: a header judged as every reading of it', () => {
  const SIGNED = { appId: 'app_1', sign: 'ab'.repeat(32), timestamp: '1718090123456', nonce: 'n0nce' };
  const VALID = `V2_SHA256 appId=app_1,sign=${SIGNED.sign},timestamp=1718090123456,nonce=n0nce`;

  it.each([
    // RFC 9110 §5.5: a control character lets the receiver refuse the message, so nothing with one must be accepted
    ['a genuine header with a control character inside an unknown item', `${VALID},x=\u0001`, 'either'],
    // NUL may be replaced by SP (RFC 9110 §5.5): V2_SHA256<NUL>appId=… may arrive as the genuine header
    ['the scheme followed by NUL instead of SP', VALID.replace(' ', '\u0000'), 'either'],
    ['a forged nonce stays refused whatever the reading', `${VALID.replace('n0nce', 'other')}\u0001`, 'refuse'],
    ['a genuine header: accept', VALID, 'accept'],
  ])('%s: %s', (_what, header, expected) => {
    expect(wireExpectation(header, SIGNED)).toBe(expected);
  });
});

describe('sendRaw: one request written byte for byte', () => {
  it('sends exactly the request line, Host, the headers with their bytes, Content-Length, Connection and the body', async () => {
    const server = await recording(ok);
    const value = wireValue('V2_SHA256 appId=a\u0001,x=\u4e2d');
    if (!value.sendable) throw new Error('sendable');
    const r = await sendRaw({
      method: 'POST',
      url: `${server.url}/pg/v2/file/generateUploadUrl?q=1#frag`,
      headers: [
        ['Content-Type', 'application/json'],
        ['Authorization', value.bytes],
      ],
      body: Buffer.from('{"a":1}'),
      timeoutMs: 2000,
    });
    const host = server.url.slice('http://'.length);
    const expected = Buffer.concat([
      Buffer.from(
        `POST /pg/v2/file/generateUploadUrl?q=1 HTTP/1.1\r\nHost: ${host}\r\n` +
          'Content-Type: application/json\r\nAuthorization: V2_SHA256 appId=a',
        'latin1',
      ),
      Buffer.from([0x01, 0x2c, 0x78, 0x3d, 0xe4, 0xb8, 0xad]),
      Buffer.from('\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{"a":1}', 'latin1'),
    ]);
    expect(server.got).toHaveLength(1);
    expect(server.got[0]?.toString('hex')).toBe(expected.toString('hex'));
    expect(r).toMatchObject({
      kind: 'answer',
      status: 200,
      headers: [
        ['content-length', '2'],
        ['x-a', 'b'],
      ],
    });
    expect(r.kind === 'answer' && Buffer.from(r.body).toString()).toBe('OK');
  });

  it.each([
    ['garbage', (s: Socket) => s.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'), 'garbage', 'not an HTTP/1.x answer'],
    ['a status outside 100-599', (s: Socket) => s.end('HTTP/1.1 000 X\r\n\r\n'), 'garbage', 'status outside'],
    ['a close without a byte', (s: Socket) => s.end(), 'closed', 'closed the connection without answering'],
    ['a reset', (s: Socket) => s.resetAndDestroy(), 'reset', 'ECONNRESET'],
    ['silence', () => undefined, 'timeout', 'no answer within 300 ms'],
  ] as const)('a server that answers with %s is an outcome with a message', async (_what, answer, reason, message) => {
    const server = await recording(answer);
    const r = await sendRaw({
      method: 'POST',
      url: `${server.url}/x`,
      headers: [['Authorization', 'V2_SHA256 \u0001']],
      body: Buffer.from('{}'),
      timeoutMs: 300,
    });
    expect(r).toMatchObject({ kind: 'no-answer', reason });
    expect(r.kind === 'no-answer' && r.message).toContain(message);
  });

  // node can make no certificate: openssl makes a self-signed one, which the raw path refuses as undici does
  it.skipIf(!hasOpenssl())('speaks TLS to an https URL, and a certificate it cannot trust is an outcome', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-tls-'));
    try {
      execFileSync(
        'openssl',
        [
          ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
          ...['-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem'), '-days', '1', '-subj', '/CN=localhost'],
        ],
        { stdio: 'ignore' },
      );
      let connections = 0;
      let secured = 0;
      const server = createTlsServer(
        { key: readFileSync(join(dir, 'k.pem')), cert: readFileSync(join(dir, 'c.pem')) },
        (s) => s.end('HTTP/1.1 200 OK\r\n\r\n'),
      );
      server.on('connection', () => connections++);
      server.on('secureConnection', () => secured++);
      servers.push(server);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const port = (server.address() as AddressInfo).port;
      const r = await sendRaw({
        method: 'POST',
        url: `https://localhost:${port}/x`,
        headers: [],
        body: Buffer.alloc(0),
      });
      expect(r).toMatchObject({ kind: 'no-answer', reason: 'reset' });
      expect(r.kind === 'no-answer' && r.message).toMatch(/SELF_SIGNED|self-signed/);
      // the server sent its certificate (the message names it) on the one connection, and no request went over it
      expect([connections, secured]).toEqual([1, 0]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes the answer of a server that keeps the connection open despite Connection: close, at the timeout', async () => {
    const server = await recording((s) => s.write('HTTP/1.1 401 No\r\nContent-Length: 3\r\n\r\nno!'));
    const r = await sendRaw({ method: 'POST', url: server.url, headers: [], body: Buffer.alloc(0), timeoutMs: 300 });
    expect(r.kind === 'answer' && [r.status, Buffer.from(r.body).toString()]).toEqual([401, 'no!']);
  });

  it('reads a chunked body, and cuts an answer larger than maxBytes off at the limit', async () => {
    const chunked = await recording((s) =>
      s.end('HTTP/1.1 400 Bad\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n'),
    );
    const r = await sendRaw({ method: 'POST', url: chunked.url, headers: [], body: Buffer.alloc(0), timeoutMs: 2000 });
    expect(r.kind === 'answer' && [r.status, Buffer.from(r.body).toString()]).toEqual([400, 'abcde']);
    const big = await recording((s) => s.end(`HTTP/1.1 200 OK\r\n\r\n${'x'.repeat(5000)}`));
    const cut = await sendRaw({ method: 'POST', url: big.url, headers: [], body: Buffer.alloc(0), maxBytes: 100 });
    expect(cut.kind === 'answer' && [cut.status, cut.body.byteLength]).toEqual([
      200,
      100 - 'HTTP/1.1 200 OK\r\n\r\n'.length,
    ]);
  });
});

describe('fuzzHttp: every header counted reached the server', () => {
  /** A TCP proxy in front of `target` that records what each connection sent it. */
  async function proxy(
    target: string,
    closeIf: (request: string) => boolean = () => false,
  ): Promise<{ url: string; received: Buffer[] }> {
    const { port } = new URL(target);
    const received: Buffer[] = [];
    const server = createNetServer((client) => {
      const chunks: Buffer[] = [];
      received.push(Buffer.alloc(0));
      const at = received.length - 1;
      const upstream = connect(Number(port), '127.0.0.1');
      client.on('data', (c: Buffer) => {
        chunks.push(c);
        received[at] = Buffer.concat(chunks);
        if (!closeIf(received[at].toString('latin1'))) return void upstream.write(c);
        upstream.destroy();
        client.end();
      });
      upstream.on('data', (c: Buffer) => client.write(c));
      client.on('end', () => upstream.end());
      upstream.on('end', () => client.end());
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
  }

  it('at a fixed seed: generated = sent + not sendable, the server got exactly the headers sent, the raw ones only where undici refuses', async () => {
    const gateway = await startGateway({ merchants: [DEMO_MERCHANT] });
    try {
      const { url, received } = await proxy(gateway.baseUrl);
      const r = await fuzzHttp({ kind: 'gateway', url, ...DEMO_MERCHANT, seed: 1, runs: 300, timeoutMs: 5000 });
      expect(r.finding).toBeUndefined();
      const w = r.wire;
      expect(w.generated).toBe(300);
      expect(w.sent + w.notSendable).toBe(w.generated);
      expect(w.client + w.raw).toBe(w.sent);
      expect(w.raw).toBeGreaterThan(0);
      expect(w.notSendable).toBeGreaterThan(0);
      expect(Object.keys(w.notSendableBy).every((why) => why.startsWith('CR or LF'))).toBe(true);
      // the requests as the proxy saw them: a header's value never holds CR or LF, so each request line starts one
      const requests = received.flatMap((bytes) =>
        bytes.toString('latin1').split('POST /pg/v2/file/generateUploadUrl HTTP/1.1\r\n').slice(1),
      );
      expect(requests).toHaveLength(w.sent);
      const raw = requests.filter((text) => /\r\nConnection: close\r\n/.test(text));
      expect(raw).toHaveLength(w.raw);
      for (const text of raw) {
        const auth = /\r\nAuthorization: ([^\r\n]*)\r\n/.exec(text)?.[1] ?? '';
        // what undici refuses (lib/core/util.js): a control but HTAB, or bytes that are UTF-8 above U+00FF
        const wide = /[^\x00-\xff]/.test(Buffer.from(auth, 'latin1').toString('utf8'));
        expect(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(auth) || wide, JSON.stringify(auth)).toBe(true);
      }
    } finally {
      await gateway.close();
    }
  }, 30_000);

  it('a server that closes the connection on a header with a control character has refused it: a note, no finding', async () => {
    const gateway = await startGateway({ merchants: [DEMO_MERCHANT] });
    try {
      // RFC 9110 §5.5: a field value with a control character is invalid, and the message may be refused
      const { url } = await proxy(gateway.baseUrl, (request) =>
        /\r\nAuthorization: [^\r\n]*[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(request),
      );
      const r = await fuzzHttp({ kind: 'gateway', url, ...DEMO_MERCHANT, seed: 2, runs: 200, timeoutMs: 5000 });
      expect(r.finding).toBeUndefined();
      expect(r.advisories.closedWithoutAnswer).toBeGreaterThan(0);
      expect(r.advisories.closedExample?.message).toBe('the server closed the connection without answering');
      expect(r.advisories.closedExample?.header).toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/);
    } finally {
      await gateway.close();
    }
  }, 30_000);

  it('a server that answers garbage or closes every connection is a finding with a message, never a crash', async () => {
    for (const answer of [(s: Socket) => s.end('garbage\r\n\r\n'), (s: Socket) => s.end()]) {
      const server = await recording(answer);
      const r = await fuzzHttp({
        kind: 'merchant',
        url: `${server.url}/notify`,
        ...DEMO_MERCHANT,
        seed: 3,
        runs: 5,
        timeoutMs: 1000,
      });
      expect(r.finding?.reason).toMatch(/^no answer \(/);
    }
  }, 30_000);
});
