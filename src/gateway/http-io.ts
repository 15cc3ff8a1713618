/**
 * HTTP plumbing shared by the two listeners: the full URL as the client sent it, the
 * raw headers, a body read with a size limit and an idle timeout, draining what a
 * client still sends after an early answer, and the answer to a request the HTTP
 * parser refused.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The full URL as the client sent it (R4): `http://` + the Host header + the request
 * target, or the target itself when it is in absolute form. Nothing is normalised.
 * @param req - the request
 * @returns e.g. `http://127.0.0.1:8080/s/x/pg/v2/file/generateUploadUrl?a=1`
 */
export function fullUrl(req: IncomingMessage): string {
  const target = req.url as string; // always set on a server request
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return target;
  return `http://${req.headers.host ?? ''}${target}`;
}

/**
 * The path and query of a request target as a proxy forwards them (origin-form, RFC 9112 §3.2.1): an absolute-form
 * target without its scheme and authority, always starting with `/`.
 * @param target - the request target as sent
 * @returns the path and query
 * @example originForm('http://x/pgv2/notify?a=1') // '/pgv2/notify?a=1'
 */
export function originForm(target: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
  const rest = m ? target.slice(m[0].length) : target;
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * The path of a request target, without the query (and without scheme://authority when absolute).
 * @param target - the request target
 * @returns the path as sent, e.g. `/s/x/pg/v2/payment/create`
 * @example targetPath('/a/b?c=1') // '/a/b'
 */
export function targetPath(target: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
  const rest = m ? target.slice(m[0].length) : target;
  const q = rest.search(/[?#]/);
  return q < 0 ? rest : rest.slice(0, q);
}

/**
 * The headers as received: [name, value] pairs in order, names as written.
 * @param req - the request
 * @returns the pairs
 */
export function rawHeaderPairs(req: IncomingMessage): Array<readonly [string, string]> {
  const out: Array<readonly [string, string]> = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    out.push([req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string]);
  return out;
}

/** A body as read by {@link readBody}. */
export interface ReadBody {
  /** The bytes received (at most the limit). */
  readonly bytes: Uint8Array;
  /** Why reading stopped early: over the limit, idle too long, or the client went away. */
  readonly stopped?: 'too-large' | 'timeout' | 'aborted';
}

/**
 * Reads a request body into memory, at most `limit` bytes: a Content-Length over the
 * limit stops at once, a body that crosses it stops there; a body idle for longer
 * than `idleMs` stops too. After a stop the caller answers, then {@link drainRest}.
 * @param req - the request
 * @param limit - the largest body read, bytes
 * @param idleMs - the longest pause between two pieces of the body
 * @returns the bytes and why reading stopped early, if it did
 */
export function readBody(req: IncomingMessage, limit: number, idleMs: number): Promise<ReadBody> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      resolve({ bytes: new Uint8Array(), stopped: 'too-large' });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (stopped?: ReadBody['stopped']): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.off('data', onData);
      // an exact-size copy: a view into Node's shared 8 KiB pool would keep the whole block alive in the recorder
      resolve({ bytes: new Uint8Array(Buffer.concat(chunks)), ...(stopped ? { stopped } : {}) });
    };
    const timer = setTimeout(() => finish('timeout'), idleMs);
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength;
      if (size > limit) {
        chunks.push(chunk.subarray(0, chunk.byteLength - (size - limit)));
        finish('too-large');
        return;
      }
      chunks.push(chunk);
      timer.refresh();
    };
    req.on('data', onData);
    req.on('end', () => finish());
    req.on('close', () => finish(req.complete ? undefined : 'aborted'));
  });
}

/**
 * After an answer sent before the whole body was read: reads and discards what the
 * client still sends, so that the client reads the answer (a socket closed with unread
 * data is reset, and the reset can destroy the answer before the client reads it) and
 * the connection stays usable; nothing is kept. A client that sends more than
 * `maxBytes` further bytes, or is not done within `maxMs`, is cut off.
 * @param req - the request
 * @param maxBytes - the most bytes discarded before the connection is cut
 * @param maxMs - the longest wait before the connection is cut
 */
export function drainRest(req: IncomingMessage, maxBytes = 8 * 1024 * 1024, maxMs = 5000): void {
  if (req.complete) return;
  // An answer that says Connection: close makes the server destroy the socket once it is sent; a
  // lingering close instead: the answer ends our side (FIN), the rest of the body is still read
  // and discarded, then the socket goes (so the client reads the answer, never a reset).
  const socket = req.socket as typeof req.socket & { destroySoon?: () => void };
  socket.destroySoon = () => void socket.end();
  let drained = 0;
  const cut = (): void => void req.socket.destroy();
  const timer = setTimeout(cut, maxMs);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained > maxBytes) cut();
  });
  req.on('end', () => {
    clearTimeout(timer);
    if (socket.writableEnded) socket.destroy();
  });
  req.on('close', () => clearTimeout(timer));
  req.resume();
}

/**
 * The answer to a request the HTTP parser refused (a malformed request line or header,
 * headers too large, a connection closed half-way through a body), when nothing has
 * been answered on the socket yet: 431 for headers too large, 408 for a request timeout,
 * 400 otherwise; then the socket is closed.
 * @param body - the body to send for a status and a message (JSON envelope or XML error)
 * @returns the 'clientError' listener
 */
export function clientErrorAnswer(
  body: (status: number, message: string) => { readonly type: string; readonly text: string },
): (err: Error & { code?: string }, socket: Socket) => void {
  return (err, socket) => {
    const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, reason, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'the request headers are larger than 16 KiB']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'the request did not arrive in time']
          : [400, 'Bad Request', `the request is not readable HTTP/1.1 (${err.code ?? 'parse error'})`];
    const { type, text } = body(status, message);
    const bytes = Buffer.from(text, 'utf8');
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\n` +
        `Content-Type: ${type}\r\nContent-Length: ${bytes.byteLength}\r\n\r\n${text}`,
    );
  };
}

/**
 * The fields a proxy passes on: without the hop-by-hop ones (RFC 9110 §7.6.1: Connection, Keep-Alive,
 * Proxy-Connection, Proxy-Authenticate, Proxy-Authorization, TE, Trailer, Transfer-Encoding, Upgrade, and every field
 * the Connection header names), without Host (the proxy's own) and without the names in `also`; order kept.
 * @param headers - the fields as received, in order
 * @param also - more names (lower case) the proxy sets itself, e.g. content-length
 * @returns the fields passed on
 * @example endToEndHeaders([['Connection', 'x-a'], ['X-A', '1'], ['Accept', '*']]) // [['Accept', '*']]
 */
export function endToEndHeaders(
  headers: ReadonlyArray<readonly [string, string]>,
  also: ReadonlySet<string> = new Set(),
): Array<readonly [string, string]> {
  const named = new Set(
    headers
      .filter(([n]) => n.toLowerCase() === 'connection')
      .flatMap(([, v]) => v.split(','))
      .map((t) => t.trim().toLowerCase()),
  );
  return headers.filter(([n]) => {
    const lower = n.toLowerCase();
    return !HOP_BY_HOP.has(lower) && !named.has(lower) && !also.has(lower);
  });
}

/** Hop-by-hop fields (RFC 9110 §7.6.1) and Host: never passed on by a proxy. */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);
