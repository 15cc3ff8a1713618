/**
 * One HTTP/1.1 request written byte for byte over a socket of its own (node:net, node:tls for https): what the
 * fuzzer sends when the HTTP client (undici) refuses a header value it generated (a control character, a character
 * above U+00FF), so that every header it counts reaches the server. The request is exactly: the request line, Host,
 * the given headers in order with their bytes as given, Content-Length, `Connection: close` (the socket is used once,
 * so the answer ends when the server closes it), an empty line and the body. The answer is read in bounded time and
 * size; a server that closes, resets, stays silent or answers something that is not HTTP is an outcome with a
 * message, never an exception.
 * @module
 */
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** A request as it goes over the raw socket. */
export interface RawRequest {
  readonly method: string;
  /** An absolute http(s) URL: the target is its text after the authority, without a fragment. */
  readonly url: string;
  /** Names and values in order; a value's bytes go as given (a string: as Latin-1, one byte per character). */
  readonly headers: ReadonlyArray<readonly [string, string | Uint8Array]>;
  readonly body: Uint8Array;
  /** Milliseconds from connecting to the end of the answer (default 5000). */
  readonly timeoutMs?: number;
  /** Bytes of the answer read at most (default 1 MiB): past it the answer is cut off, and says so. */
  readonly maxBytes?: number;
}

/** What came back: an HTTP answer, or none (with why). Discriminated on `kind`. */
export type RawOutcome =
  | {
      readonly kind: 'answer';
      readonly status: number;
      /** Header lines as received (names lower case), in order. */
      readonly headers: ReadonlyArray<readonly [string, string]>;
      readonly body: Uint8Array;
    }
  | {
      readonly kind: 'no-answer';
      /**
       * closed: the connection ended with no byte of an answer; reset: ECONNRESET or another socket error;
       * timeout: no whole answer in time; garbage: bytes that are not an HTTP/1.x answer.
       */
      readonly reason: 'closed' | 'reset' | 'timeout' | 'garbage';
      readonly message: string;
    };

/**
 * The bytes of a request as {@link sendRaw} writes them.
 * @param request - method, URL, headers, body
 * @returns the bytes
 * @throws {RangeError} when the URL is not an absolute http(s) URL
 * @example
 * Buffer.from(rawRequestBytes({ method: 'POST', url: 'http://h:8/p?q#f', headers: [['A', 'x\u0001']],
 *   body: Buffer.from('{}') })).toString('latin1')
 *   // 'POST /p?q HTTP/1.1\r\nHost: h:8\r\nA: x\u0001\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}'
 */
export function rawRequestBytes(request: Pick<RawRequest, 'method' | 'url' | 'headers' | 'body'>): Uint8Array {
  const { host, target } = splitUrl(request.url);
  const head: Buffer[] = [Buffer.from(`${request.method} ${target} HTTP/1.1\r\nHost: ${host}\r\n`, 'latin1')];
  for (const [name, value] of request.headers)
    head.push(
      Buffer.from(`${name}: `, 'latin1'),
      typeof value === 'string' ? Buffer.from(value, 'latin1') : Buffer.from(value),
      Buffer.from('\r\n', 'latin1'),
    );
  head.push(Buffer.from(`Content-Length: ${request.body.byteLength}\r\nConnection: close\r\n\r\n`, 'latin1'));
  const all = Buffer.concat([...head, Buffer.from(request.body)]);
  return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
}

/**
 * Sends one request over a socket of its own and reads the answer.
 * @param request - {@link RawRequest}
 * @returns the answer, or no answer with why (never rejects for what the server does)
 * @throws {RangeError} (rejects) when the URL is not an absolute http(s) URL
 * @example
 * const r = await sendRaw({ method: 'POST', url: `${gateway.baseUrl}/pg/v2/file/generateUploadUrl`,
 *   headers: [['Authorization', 'V2_SHA256 \u0001']], body: Buffer.from('{}') });
 * r.kind // 'answer'
 */
export function sendRaw(request: RawRequest): Promise<RawOutcome> {
  const { secure, hostname, port } = splitUrl(request.url);
  const bytes = rawRequestBytes(request);
  const timeoutMs = request.timeoutMs ?? 5000;
  const maxBytes = request.maxBytes ?? 1024 * 1024;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const socket: Socket = secure
      ? tlsConnect({ host: hostname, port, servername: isIp(hostname) ? undefined : hostname })
      : netConnect({ host: hostname, port });
    const finish = (outcome: RawOutcome): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      // a server that answered but keeps the connection open despite `Connection: close`: its head counts
      const got = parseAnswer(Buffer.concat(chunks), false);
      finish(
        got.kind === 'answer'
          ? got
          : { kind: 'no-answer', reason: 'timeout', message: `no answer within ${timeoutMs} ms` },
      );
    }, timeoutMs);
    // written, not ended: a server may take the half-close for an abort
    socket.once(secure ? 'secureConnect' : 'connect', () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      // more than the limit: what came is judged as it is (the head is what counts), the rest never read
      if (size > maxBytes) return finish(parseAnswer(Buffer.concat([...chunks, chunk]).subarray(0, maxBytes), true));
      chunks.push(chunk);
    });
    socket.on('end', () => finish(parseAnswer(Buffer.concat(chunks), false)));
    socket.on('close', () => finish(parseAnswer(Buffer.concat(chunks), false)));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      // an answer that came whole before the reset still counts (a server that resets after answering)
      const got = parseAnswer(Buffer.concat(chunks), false);
      if (got.kind === 'answer') return finish(got);
      finish({ kind: 'no-answer', reason: 'reset', message: `${e.code ?? 'socket error'}: ${e.message}` });
    });
  });
}

// --- internal ---

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

function splitUrl(url: string): { secure: boolean; host: string; hostname: string; port: number; target: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RangeError(`not an absolute URL: ${JSON.stringify(url.slice(0, 80))}`);
  }
  const authority = /^https?:\/\/[^/?#]*/i.exec(url);
  if (!authority || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new RangeError(`not an http(s) URL: ${JSON.stringify(url.slice(0, 80))}`);
  const hash = url.indexOf('#', authority[0].length);
  let target = url.slice(authority[0].length, hash < 0 ? undefined : hash);
  if (!target.startsWith('/')) target = `/${target}`;
  const secure = parsed.protocol === 'https:';
  const hostname = parsed.hostname.replace(/^\[|\]$/g, '');
  // the Host header as undici writes it: the host, with the port unless it is the scheme's default
  return { secure, host: parsed.host, hostname, port: Number(parsed.port || (secure ? 443 : 80)), target };
}

/** An HTTP/1.x answer from the bytes read (the socket closed, or the limit reached: `cut`). */
function parseAnswer(all: Buffer, cut: boolean): RawOutcome {
  if (all.byteLength === 0)
    return { kind: 'no-answer', reason: 'closed', message: 'the server closed the connection without answering' };
  const end = all.indexOf('\r\n\r\n');
  const statusLine = /^HTTP\/1\.[01] (\d{3})(?: [^\r\n]*)?\r\n/.exec(all.subarray(0, 1024).toString('latin1'));
  const status = Number(statusLine?.[1] ?? 0);
  if (!statusLine || end < 0 || status < 100 || status > 599) {
    const shown = JSON.stringify(all.subarray(0, 40).toString('latin1'));
    const what = statusLine
      ? 'an answer with no end of its headers, or a status outside 100-599'
      : 'not an HTTP/1.x answer';
    return {
      kind: 'no-answer',
      reason: 'garbage',
      message: `${what}${cut ? ' (cut off at the size limit)' : ''}: ${all.byteLength} bytes, starting ${shown}`,
    };
  }
  const headers = all
    .subarray(statusLine[0].length, end)
    .toString('latin1')
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line): readonly [string, string] => {
      const colon = line.indexOf(':');
      return colon < 0 ? [line.toLowerCase(), ''] : [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    });
  const rest = all.subarray(end + 4);
  const length = headers.find(([n]) => n === 'content-length')?.[1];
  const chunked = headers.some(([n, v]) => n === 'transfer-encoding' && /chunked/i.test(v));
  const body = chunked
    ? dechunk(rest)
    : length !== undefined && /^\d+$/.test(length)
      ? rest.subarray(0, +length)
      : rest;
  return { kind: 'answer', status, headers, body: new Uint8Array(body) };
}

/** A chunked body's data (as much as arrived whole). */
function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const line = bytes.indexOf('\r\n', at);
    if (line < 0) break;
    const size = parseInt(bytes.subarray(at, line).toString('latin1'), 16);
    if (!Number.isFinite(size) || size <= 0) break;
    parts.push(bytes.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
