/**
 * Sends one planned call to the merchant with undici: method, URL, headers and body
 * exactly as planned, a timeout per call, redirects never followed, at most
 * {@link MAX_BODY_BYTES} of the answer read. The outcome is data: a status and (bounded)
 * body text, or the kind of error, with the duration.
 * @module
 */
import type { Agent } from 'undici';
import { undici } from '../../../deps.js';
import type { HttpCall } from './target.js';

/** How a call that got no HTTP answer ended. */
export type SendErrorKind = 'timeout' | 'reset' | 'refused' | 'other';

/** The outcome of one call. */
export type SendOutcome =
  | {
      readonly kind: 'response';
      readonly status: number;
      readonly body: string;
      readonly location?: string;
      readonly ms: number;
    }
  | { readonly kind: 'error'; readonly error: SendErrorKind; readonly message: string; readonly ms: number };

/** The most body text kept from a response. */
export const MAX_BODY_CHARS = 4096;

/**
 * The most body bytes read from a response: past them the body is not read further (a merchant answering 1 GiB costs
 * 16 KiB).
 */
export const MAX_BODY_BYTES = MAX_BODY_CHARS * 4;

/** A sender: one connection pool for a run; close it at the end. */
export interface Sender {
  send(call: HttpCall): Promise<SendOutcome>;
  close(): Promise<void>;
}

/**
 * Creates a sender.
 * @param timeoutMs - the limit for one call, connection to last body byte
 * @returns the sender
 * @example
 * import { createCallBuilder } from './call.js';
 * const { call } = createCallBuilder({ appId, appSecret, notifyUrl, returnUrl }, 1, Date.now()).build(
 *   vectorCase('merchant.webhook.valid.1'),
 * );
 * const s = createSender(5000); const o = await s.send(call); await s.close();
 */
export function createSender(timeoutMs: number): Sender {
  // Keep-alive, one request at a time per connection, as a gateway delivers: a call that times out,
  // resets, or whose answer is cut short destroys its connection, so it cannot disturb the next one.
  const agent: Agent = new (undici().Agent)({
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    pipelining: 1,
  });
  return {
    send: (call) => send(agent, call, timeoutMs),
    close: () => agent.destroy(),
  };
}

/**
 * The first bytes of a response body: read until `maxBytes` have come (then the body is
 * destroyed, the rest never read) or the body ends.
 * @param body - the body (undici's, or any stream of Buffers)
 * @param maxBytes - the most bytes returned
 * @returns at most `maxBytes` bytes
 * @example
 * import { Readable } from 'node:stream';
 * (await readHead(Readable.from([Buffer.from('OK')]), 16 * 1024)).toString('utf8') // 'OK'
 */
export async function readHead(
  body: AsyncIterable<unknown> & { destroy(): unknown },
  maxBytes: number,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= maxBytes) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, maxBytes);
}

// --- internal ---

async function send(agent: Agent, call: HttpCall, timeoutMs: number): Promise<SendOutcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`no complete answer within ${timeoutMs} ms`));
  }, timeoutMs);
  try {
    const headers: string[] = [];
    for (const [name, value] of call.headers) headers.push(name, value);
    const response = await undici().request(call.url, {
      dispatcher: agent,
      method: call.method,
      headers,
      signal: controller.signal,
      ...(call.body !== undefined ? { body: Buffer.from(call.body, 'utf8') } : {}),
    });
    // enough to judge by: a longer answer is cut here, its connection destroyed
    const text = (await readHead(response.body, MAX_BODY_BYTES)).toString('utf8');
    const location = response.headers['location'];
    return {
      kind: 'response',
      status: response.statusCode,
      body: text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}…` : text,
      ...(typeof location === 'string' ? { location } : {}),
      ms: ms(),
    };
  } catch (e) {
    return {
      kind: 'error',
      error: timedOut ? 'timeout' : classify(e),
      message: timedOut ? `no complete answer within ${timeoutMs} ms` : describe(e),
      ms: ms(),
    };
  } finally {
    clearTimeout(timer);
  }
}

function classify(e: unknown): SendErrorKind {
  const codes = new Set<string>();
  for (let x: unknown = e, n = 0; x && n < 5; x = (x as { cause?: unknown }).cause, n++) {
    const code = (x as { code?: unknown }).code;
    if (typeof code === 'string') codes.add(code);
  }
  if (
    ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT'].some((c) =>
      codes.has(c),
    )
  )
    return 'timeout';
  if (codes.has('ECONNREFUSED')) return 'refused';
  if (['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE'].some((c) => codes.has(c))) return 'reset';
  return 'other';
}

function describe(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = e.cause instanceof Error ? ` (${e.cause.message})` : '';
  return `${e.message}${cause}`;
}
