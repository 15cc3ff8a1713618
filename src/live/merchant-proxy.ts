/**
 * The proxy in front of a merchant's endpoints (issue 26 item 2, `pgv2kit proxy --merchant`): the gateway reaches it
 * through whatever tunnel the merchant uses, and each request is forwarded UNCHANGED to the merchant — the same
 * method, path and query, the headers but the hop-by-hop ones and Host, the exact body bytes — and the merchant's
 * answer returned unchanged (a 3xx too: a redirect is never followed, its Location never rewritten). A POST at the
 * notifyUrl's path is a webhook (5.5), a GET at the returnUrl's path a return redirect (5.6): each is an exchange,
 * judged ({@link judgeExchange}: the signature over the URL as registered, R10, R11; the merchant's answer by the
 * acceptance rule of the merchant role) and handed to `onExchange`. Anything else (the merchant's other pages, which
 * a browser fetches through the same tunnel after a return redirect) is forwarded unchanged too, but is not an
 * exchange: nothing the scheme signs, never judged, never counted; `onPassThrough` hears of it.
 *
 * Bounded: a body over `maxBodyBytes` (either way) is never forwarded whole — a request's gets 413, a merchant's
 * answer's 502; a body idle for `timeoutMs`, 408; a merchant that is down or does not answer within `timeoutMs`, 502
 * — each such exchange handed over with no response and the reason (`failure`, and the exchange's `unanswered`).
 * @module
 */
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { clip } from '../scheme/text.js';
import {
  drainRest,
  endToEndHeaders,
  fullUrl,
  originForm,
  rawHeaderPairs,
  readBody,
  targetPath,
} from '../gateway/http-io.js';
import type { MerchantBook } from '../gateway/merchants.js';
import type { LiveAnswer, LiveExchange, LiveMessage } from './exchange.js';
import { InOrder } from './in-order.js';
import { urlPortProblem } from './url-port.js';
import type { AcceptanceRule } from '../roles/merchant/as-gateway/acceptance.js';
import { judgeExchange, type LiveJudgement } from './judge.js';

/** The options of {@link startMerchantProxy}. */
export interface MerchantProxyOptions {
  /** The merchant's base URL (http or https): a request's path and query are appended to its path. */
  readonly merchant: string;
  /** The notifyUrl as the merchant registers it (R10): its path is where webhooks arrive. */
  readonly notifyUrl: string;
  /** The returnUrl as the merchant registers it (R11): its path is where return redirects arrive. */
  readonly returnUrl: string;
  /** The merchants whose webhooks and redirects can be verified: appId → secret. */
  readonly merchants: MerchantBook;
  /** What the merchant's answers mean, as certify reads them (default: a webhook taken with any 2xx …). */
  readonly acceptance?: AcceptanceRule;
  /** The address to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** The port (default 0: a free one). */
  readonly port?: number;
  /**
   * Called once per webhook and return redirect, when its answer is sent: the exchange, its judgement, and why there
   * is no response when there is none (the merchant down, too slow, too large an answer; a request refused here).
   * Called in the order the exchanges arrived (`seq`), one at a time, whatever order they end in. A callback that
   * throws or rejects does not stop the proxy: {@link MerchantProxy.close} rejects with its error.
   */
  readonly onExchange: (ex: LiveExchange, judgement: LiveJudgement, failure?: string) => void | Promise<void>;
  /** Called for each request forwarded that is neither a webhook nor a return redirect (never judged). */
  readonly onPassThrough?: (passed: PassThrough) => void;
  /** The longest wait for the merchant's answer, and the longest pause within a body (default 10,000 ms). */
  readonly timeoutMs?: number;
  /** The largest body forwarded, either way (default {@link MERCHANT_PROXY_MAX_BODY}). */
  readonly maxBodyBytes?: number;
}

/** A request forwarded that is not an exchange: its method, its URL as received and the merchant's status. */
export interface PassThrough {
  readonly method: string;
  readonly url: string;
  /** The merchant's status, or undefined when it gave none (then `failure` says why). */
  readonly status?: number;
  readonly failure?: string;
}

/** A started proxy. */
export interface MerchantProxy {
  /** Where the proxy listens, e.g. `http://127.0.0.1:8788` (the tunnel's target). */
  readonly url: string;
  /** Stops listening, ends the connections, waits for the exchanges in hand; rejects with an onExchange error. */
  close(): Promise<void>;
}

/**
 * The largest body the proxy forwards by default: 2 MiB (a webhook is a few KiB; a landing page more).
 * @example MERCHANT_PROXY_MAX_BODY // 2097152
 */
export const MERCHANT_PROXY_MAX_BODY = 2 * 1024 * 1024;

/**
 * Starts the proxy.
 * @param options - the merchant, its URLs as registered, the merchants' secrets, the callbacks and bounds
 * @returns the proxy's URL and close()
 * @throws {RangeError} (rejects) when a URL is not an absolute http(s) URL, or a bound is not a positive integer
 * @example
 * const seen: string[] = [];
 * const proxy = await startMerchantProxy({
 *   merchant: 'http://127.0.0.1:9', // nothing listens there: each exchange gets a 502
 *   notifyUrl: 'https://shop.example/pgv2/notify',
 *   returnUrl: 'https://shop.example/pgv2/return',
 *   merchants: new MerchantBook([{ appId, appSecret }]),
 *   onExchange: (ex, judgement) => void seen.push(`${ex.kind}: ${judgement.verdict}`),
 * });
 * const answer = await fetch(`${proxy.url}/pgv2/notify`, { method: 'POST', body: '{}' });
 * answer.status // 502
 * await proxy.close(); // waits for the exchanges in hand
 * seen // ['webhook: not conformant'] — no Authorization: the webhook does not verify
 */
export async function startMerchantProxy(options: MerchantProxyOptions): Promise<MerchantProxy> {
  const base = httpUrl(options.merchant, 'merchant');
  const notifyPath = httpUrl(options.notifyUrl, 'notifyUrl').pathname;
  const returnPath = httpUrl(options.returnUrl, 'returnUrl').pathname;
  const timeoutMs = positive(options.timeoutMs ?? 10_000, 'timeoutMs');
  const limit = positive(options.maxBodyBytes ?? MERCHANT_PROXY_MAX_BODY, 'maxBodyBytes');
  const host = options.host ?? '127.0.0.1';
  const basePath = base.pathname.replace(/\/+$/, '');
  const secure = base.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new Agent({ keepAlive: true });
  let failed: unknown;
  // judged as each ends, handed on in the order they arrived (seq), one at a time
  const order = new InOrder<Judged>(({ ex, judgement, failure }) => options.onExchange(ex, judgement, failure));
  const hand = (ex: LiveExchange, failure?: string): void => {
    judgeExchange(ex, {
      merchants: options.merchants,
      ...(options.acceptance ? { acceptance: options.acceptance } : {}),
    }).then(
      (judgement) => order.done(ex.seq, { ex, judgement, ...(failure !== undefined ? { failure } : {}) }),
      (e: unknown) => {
        failed ??= e;
        order.done(ex.seq, undefined);
      },
    );
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, at: Arrival): Promise<void> => {
    const { startedAt, kind, seq: number } = at;
    const target = req.url ?? '/';
    const url = fullUrl(req);
    const headers = rawHeaderPairs(req);
    const read = await readBody(req, limit, timeoutMs);
    const request: LiveMessage = { method: req.method ?? 'GET', url, headers, body: read.bytes };
    const record = (extra: Partial<LiveExchange>, failure?: string): void => {
      if (kind === undefined)
        options.onPassThrough?.({
          method: request.method,
          url,
          ...(extra.response ? { status: extra.response.status } : {}),
          ...(failure !== undefined ? { failure } : {}),
        });
      else {
        // why there is no answer, unless it is why the exchange is not judged (said once is enough)
        const why =
          failure !== undefined && extra.response === undefined && extra.notJudged !== failure
            ? { unanswered: failure }
            : {};
        hand({ seq: number, startedAt, kind, request, ...registered(kind), ...extra, ...why }, failure);
      }
    };
    if (read.stopped !== undefined) {
      if (read.stopped === 'aborted') {
        // the caller went away: nothing to answer, nothing whole to judge — but said, never a silent gap in seq
        record({ notJudged: ABORTED }, ABORTED);
        return;
      }
      const [status, why] =
        read.stopped === 'too-large'
          ? [413, `the request body is larger than ${limit} bytes, the proxy's limit: not forwarded`]
          : [408, `the request body paused for more than ${timeoutMs} ms: not forwarded`];
      // the rest of the body is read and discarded (bounded), so that the caller reads the answer, never a reset
      drainRest(req);
      plain(res, status, why, true);
      record({ notJudged: why }, why);
      return;
    }
    const forwardTo = `${base.origin}${basePath}${originForm(target)}`;
    const sent = forwardHeaders(headers);
    const forwarded: LiveMessage = { method: request.method, url: forwardTo, headers: sent, body: read.bytes };
    const answer = await forward(secure, agent, forwarded, limit, timeoutMs);
    if ('failure' in answer) {
      plain(res, 502, `pgv2kit proxy: ${answer.failure}`, false);
      record({ forwarded }, answer.failure);
      return;
    }
    res.writeHead(answer.status, answer.statusMessage, answerHeaders(answer).flat());
    res.end(answer.body);
    record({ forwarded, response: { status: answer.status, headers: answer.headers, body: answer.body } });
  };

  const registered = (kind: 'webhook' | 'redirect'): { registeredUrl: string } => ({
    registeredUrl: kind === 'webhook' ? options.notifyUrl : options.returnUrl,
  });

  const server = createServer({ keepAliveTimeout: 5_000, headersTimeout: timeoutMs, maxHeaderSize: 16 * 1024 });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = targetPath(req.url ?? '/');
    const kind =
      req.method === 'POST' && path === notifyPath
        ? 'webhook'
        : req.method === 'GET' && path === returnPath
          ? 'redirect'
          : undefined;
    const at: Arrival = { startedAt: new Date().toISOString(), kind, seq: kind === undefined ? 0 : order.take() };
    handle(req, res, at).catch((e: unknown) => {
      // a bug of the proxy's own, never a caller's input: answer rather than hang, and the exchange still handed on
      if (kind !== undefined) {
        const why = `the proxy failed: ${clip(e instanceof Error ? e.message : String(e), 200)}`;
        const request = { method: req.method ?? 'GET', url: fullUrl(req), headers: rawHeaderPairs(req) };
        hand(
          { ...at, kind, request: { ...request, body: new Uint8Array() }, ...registered(kind), notJudged: why },
          why,
        );
      }
      if (!res.headersSent) plain(res, 500, 'pgv2kit proxy: internal error', true);
      else res.destroy();
    });
  });
  server.on('clientError', (_err, socket) => {
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
  const reach = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${reach.includes(':') ? `[${reach}]` : reach}:${port}`,
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        agent.destroy();
        await order.drained();
        order.rethrow();
        if (failed !== undefined) throw failed;
      })()),
  };
}

// --- internal ---

/** An exchange judged, to hand on. */
interface Judged {
  readonly ex: LiveExchange;
  readonly judgement: LiveJudgement;
  readonly failure?: string;
}

/** A request as it arrived: when, and its kind and seq when it is a webhook or a return redirect (else seq 0). */
interface Arrival {
  readonly startedAt: string;
  readonly kind: 'webhook' | 'redirect' | undefined;
  readonly seq: number;
}

const ABORTED = 'the caller closed the connection before the body ended: nothing forwarded, nothing whole to judge';

function httpUrl(value: string, name: string): URL {
  let u: URL | undefined;
  try {
    u = new URL(value);
  } catch {
    u = undefined;
  }
  const port = name === 'merchant' ? urlPortProblem(value) : undefined;
  if (u === undefined || (u.protocol !== 'http:' && u.protocol !== 'https:') || port !== undefined)
    throw new RangeError(
      `startMerchantProxy: ${name} must be an absolute http(s) URL, not ${JSON.stringify(value)}` +
        `${port !== undefined ? ` (${port})` : ''}`,
    );
  // forwarded to its origin, never with credentials in the URL; a password would be printed with it
  if (name === 'merchant' && (u.username !== '' || u.password !== ''))
    throw new RangeError('startMerchantProxy: merchant must not hold a user name or password (user:password@)');
  return u;
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value <= 0)
    throw new RangeError(`startMerchantProxy: ${name} must be a positive integer, not ${String(value)}`);
  return value;
}

/** The fields passed on (hop-by-hop ones and Host left out: RFC 9110 §7.6.1). */
function endToEnd(headers: ReadonlyArray<readonly [string, string]>): Array<readonly [string, string]> {
  return endToEndHeaders(headers);
}

function forwardHeaders(headers: ReadonlyArray<readonly [string, string]>): Array<readonly [string, string]> {
  return endToEnd(headers);
}

function answerHeaders(answer: LiveAnswer): Array<readonly [string, string]> {
  // the body goes whole: a chunked answer is sent with its length
  const out = endToEnd(answer.headers);
  if (!out.some(([n]) => n.toLowerCase() === 'content-length') && answer.status !== 204 && answer.status !== 304)
    out.push(['Content-Length', String(answer.body.byteLength)]);
  return out;
}

function plain(res: ServerResponse, status: number, text: string, close: boolean): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(`${text}\n`);
}

type Forwarded = (LiveAnswer & { readonly statusMessage: string }) | { readonly failure: string };

function forward(
  secure: boolean,
  agent: Agent,
  message: LiveMessage,
  limit: number,
  timeoutMs: number,
): Promise<Forwarded> {
  return new Promise((resolve) => {
    const u = new URL(message.url);
    const where = `the merchant at ${u.origin}`;
    let settled = false;
    const settle = (f: Forwarded): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(f);
    };
    // the merchant's own Host (a raw header list gets none from node:http), then the fields as received
    const headers: Array<readonly [string, string]> = [['Host', u.host], ...message.headers];
    if (message.body.byteLength > 0 && !headers.some(([n]) => n.toLowerCase() === 'content-length'))
      headers.push(['Content-Length', String(message.body.byteLength)]);
    const req = (secure ? httpsRequest : httpRequest)({
      agent,
      method: message.method,
      hostname: u.hostname.replace(/^\[|\]$/g, ''),
      port: u.port,
      path: message.url.slice(u.origin.length),
      headers: headers.flat() as unknown as IncomingHttpHeaders,
    });
    const timer = setTimeout(() => {
      settle({ failure: `${where} did not answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => {
      const why =
        e.code === 'ECONNREFUSED'
          ? 'refused the connection (is it running?)'
          : e.code === 'ECONNRESET'
            ? 'closed the connection without an answer'
            : `could not be reached (${e.code ?? e.message})`;
      settle({ failure: `${where} ${why}` });
    });
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > limit) {
          settle({ failure: `${where} answered more than ${limit} bytes, the proxy's limit: not returned` });
          res.destroy();
        } else chunks.push(chunk);
      });
      res.on('end', () =>
        settle({
          status: res.statusCode ?? 502,
          statusMessage: res.statusMessage ?? '',
          headers: rawHeaderPairs(res),
          body: new Uint8Array(Buffer.concat(chunks)),
        }),
      );
      res.on('error', () => settle({ failure: `${where} broke off its answer` }));
      res.on('close', () => {
        if (!res.complete) settle({ failure: `${where} broke off its answer` });
      });
    });
    req.end(Buffer.from(message.body.buffer, message.body.byteOffset, message.body.byteLength));
  });
}
