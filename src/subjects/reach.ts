/**
 * Whether an HTTP target can be reached at all: a TCP connection to its host and port, opened
 * and closed before any case runs. A target that cannot be reached is one line and exit 3; a
 * target that connects and then answers slowly, or not at all, is judged case by case (its
 * checks fail), never called unreachable.
 * @module
 */
import { connect } from 'node:net';

/** Whether the target accepted a connection, or why not. */
export type Reach = { readonly ok: true; readonly ms: number } | { readonly ok: false; readonly reason: string };

/**
 * Opens one TCP connection to the URL's host and port, then closes it.
 * @param url - an http(s) URL
 * @param timeoutMs - how long the connection may take
 * @returns reached (and in how long), or why not, in words
 * @example await reach('http://127.0.0.1:9', 2000) // { ok: false, reason: 'connection refused (127.0.0.1:9)' }
 */
export function reach(url: string, timeoutMs: number): Promise<Reach> {
  let host: string;
  let port: number;
  try {
    const u = new URL(url);
    host = u.hostname.replace(/^\[(.*)\]$/, '$1');
    port = u.port !== '' ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  } catch {
    return Promise.resolve({ ok: false, reason: `${JSON.stringify(url)} is not a URL` });
  }
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (result: Reach): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () => done({ ok: false, reason: `no connection within ${timeoutMs} ms (${where})` }),
      timeoutMs,
    );
    socket.once('connect', () => done({ ok: true, ms: Math.round(performance.now() - started) }));
    socket.once('error', (e: NodeJS.ErrnoException) =>
      done({ ok: false, reason: `${REASONS[e.code ?? ''] ?? e.message} (${where})` }),
    );
  });
}

const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved now',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'the network is unreachable',
  ECONNRESET: 'the connection was reset',
  EADDRNOTAVAIL: 'the address is not available',
};
