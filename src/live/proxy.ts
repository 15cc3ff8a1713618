/**
 * The proxy between a real client and a real gateway (issue 26, item 1): a node:http server on loopback whose URL a
 * client takes as its gateway base URL, forwarding each request to the upstream gateway (undici) and handing every
 * exchange, in arrival order, to the caller (`pgv2kit proxy` judges it, prints it and writes the reports).
 *
 * What it does to the traffic, and why:
 * - A request is read whole (at most 64 KiB for the API, as the reference gateway's API_BODY_LIMIT; the upload
 *   limit for uploads) with the URL the client addressed: `http://` + its Host header + the request target as sent,
 *   as the reference gateway rebuilds it (R4).
 * - Its signature is verified BEFORE it is forwarded, with the gateway's own {@link authenticateRequest} over that
 *   URL and the exact bytes. One that verifies is forwarded signed for the upstream URL (the upstream base + the
 *   same path and query): same method, body bytes and headers, the Authorization replaced by one with the client's
 *   appId, timestamp and nonce (so the gateway's clock and replay rules see what the client sent) and a sign with
 *   the merchant's secret over the upstream URL. One that does not verify is never made good: it is forwarded with
 *   its Authorization as the client sent it, so the gateway refuses it as it would have refused it directly.
 * - Hop-by-hop headers (RFC 9110 §7.6.1: Connection and the fields it names, Keep-Alive, Transfer-Encoding, TE,
 *   Trailer, Upgrade, Proxy-*), Host, Content-Length and Expect are not passed on; the sender's HTTP stack writes
 *   its own Host and Content-Length.
 * - The gateway's answer is recorded as received (status, headers — names in lower case, as undici reports them —
 *   and the exact bytes). It reaches the client with the same status and body bytes; its Authorization is signed
 *   anew for the URL the client addressed (same appId, timestamp and nonce) when it verifies over the request the
 *   gateway answered (R9) — else it is passed as it is, so the client meets the bad signature the gateway made.
 * - With `upload`, a credentials answer that verifies has its `data.uploadUrl` pointed at the proxy's second
 *   listener (`uploadUrl`, outside the base URL as the gateway's upload address is): the answer the client gets is
 *   then a body the proxy rewrote and signed, not the gateway's bytes (the exchange's `response` keeps the
 *   gateway's). An upload to it is an `upload` exchange with the credentials issued (filename and contentType of
 *   the request, formFields in the order of the answer's text, httpMethod) and is forwarded to the real uploadUrl
 *   with its bytes unchanged; the storage's answer is returned as it is.
 * - The proxy answers by itself only what it cannot forward, never signed: a body over its limit (413, the
 *   envelope of 2.3 with code PAYLOAD_TOO_LARGE; an S3-style XML error at the upload listener), an upstream that
 *   cannot be reached or does not answer in time (502 or 504, code BAD_GATEWAY or GATEWAY_TIMEOUT), an upload
 *   address it did not issue (404). Such an exchange has no `response` and says why in `unanswered`.
 *
 * Requests are handled concurrently (keep-alive, no serialisation); each holds at most its body and its answer.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Agent, Dispatcher } from 'undici';
import { undici } from '../deps.js';
import { formatAuthorization } from '../scheme/authorization.js';
import { sign } from '../scheme/sign.js';
import { verifySigned } from '../scheme/verify.js';
import { clip } from '../scheme/text.js';
import { API_BODY_LIMIT, API_PATHS } from '../gateway/api-listener.js';
import { envelopeBytes } from '../gateway/envelope.js';
import {
  clientErrorAnswer,
  drainRest,
  endToEndHeaders,
  fullUrl,
  originForm,
  rawHeaderPairs,
  readBody,
  targetPath,
} from '../gateway/http-io.js';
import type { Merchant, MerchantBook } from '../gateway/merchants.js';
import { authenticateRequest, type HeaderChoices } from '../gateway/request-auth.js';
import { MAX_UPLOAD_BODY } from '../gateway/upload-listener.js';
import { headerValue, type IssuedUpload, type LiveAnswer, type LiveExchange, type LiveMessage } from './exchange.js';
import { InOrder } from './in-order.js';
import { urlPortProblem } from './url-port.js';
import { issuedUpload, rewriteUploadUrl } from './issued.js';

/** Options of {@link startProxy}. */
export interface ProxyOptions {
  /** The gateway's base URL (http or https, no query or fragment): requests go to it + their path and query. */
  readonly upstream: string;
  /** The merchants whose credentials the proxy signs with (the client's appId picks one). */
  readonly merchants: MerchantBook;
  /** The host to listen on. Default 127.0.0.1 (loopback only). */
  readonly host?: string;
  /** The port. Default 0 (any free port). */
  readonly port?: number;
  /** Point credentials answers' uploadUrl through the proxy, and judge the uploads (a second listener). */
  readonly upload?: boolean;
  /** The port of the upload listener. Default 0 (any free port). */
  readonly uploadPort?: number;
  /** Called with every exchange, in arrival order (one call at a time; a promise is awaited before the next). */
  readonly onExchange: (ex: LiveExchange) => void | Promise<void>;
  /** Called when onExchange throws or rejects. Default: the error is kept and `close()` rejects with it. */
  readonly onError?: (error: unknown) => void;
  /** How long the upstream may take to answer, and the client to send a body, ms. Default 30,000. */
  readonly timeoutMs?: number;
  /** The largest API request body read, bytes. Default 64 KiB (the reference gateway's API_BODY_LIMIT). */
  readonly maxBodyBytes?: number;
  /** The largest upload body read, bytes. Default the reference upload address's MAX_UPLOAD_BODY. */
  readonly maxUploadBytes?: number;
  /** The largest answer read from upstream, bytes. Default 8 MiB. */
  readonly maxResponseBytes?: number;
  /** The header parser's R8 (d), (e) choices, as the gateway and the judge take them. Default neither. */
  readonly header?: HeaderChoices;
}

/** A running proxy. */
export interface Proxy {
  /** The base URL clients use instead of the gateway's, e.g. `http://127.0.0.1:40125` (no trailing slash). */
  readonly url: string;
  /** With `upload`: the upload listener's origin; every rewritten uploadUrl starts with it. */
  readonly uploadUrl?: string;
  /**
   * Stops listening, cuts open connections, waits until every exchange begun was handed to onExchange.
   * @throws {unknown} (rejects) the first error of onExchange when no onError was given
   */
  close(): Promise<void>;
}

/**
 * Starts the proxy.
 * @param options - {@link ProxyOptions}
 * @returns the running proxy
 * @throws {RangeError} (rejects) when upstream is not an http(s) URL without query or fragment
 * @example
 * const seen: LiveExchange[] = [];
 * const proxy = await startProxy({ upstream: 'http://127.0.0.1:9', merchants: new MerchantBook(), onExchange: (ex) => {
 *   seen.push(ex);
 * } });
 * await proxy.close();
 * proxy.url.startsWith('http://127.0.0.1:') // true
 */
export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const upstream = upstreamBase(options.upstream);
  const host = options.host ?? '127.0.0.1';
  const timeoutMs = options.timeoutMs ?? 30_000;
  const agent = new (undici().Agent)({
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 4_000,
  });
  const delivery = new InOrder<LiveExchange>(options.onExchange, options.onError);
  const ctx: Context = {
    options,
    upstream,
    agent,
    timeoutMs,
    delivery,
    issued: new IssuedMap(),
    apiLimit: options.maxBodyBytes ?? API_BODY_LIMIT,
    uploadLimit: options.maxUploadBytes ?? MAX_UPLOAD_BODY,
    responseLimit: options.maxResponseBytes ?? 8 * 1024 * 1024,
    uploadOrigin: undefined,
  };
  const servers: Server[] = [];
  try {
    if (options.upload) {
      const up = server(ctx, 'upload', (req, res, at) => handleUpload(ctx, req, res, at));
      servers.push(up);
      ctx.uploadOrigin = origin(host, await listen(up, host, options.uploadPort ?? 0));
    }
    const api = server(ctx, 'api', (req, res, at) => handleApi(ctx, req, res, at));
    servers.push(api);
    const url = origin(host, await listen(api, host, options.port ?? 0));
    let closing: Promise<void> | undefined;
    return {
      url,
      ...(ctx.uploadOrigin !== undefined ? { uploadUrl: ctx.uploadOrigin } : {}),
      close: () =>
        (closing ??= (async () => {
          await Promise.all(servers.map(stop));
          await delivery.drained();
          await agent.close();
          delivery.rethrow();
        })()),
    };
  } catch (e) {
    await Promise.all(servers.map(stop));
    await agent.close();
    throw e;
  }
}

// --- internal ---

interface Context {
  readonly options: ProxyOptions;
  readonly upstream: { readonly origin: string; readonly path: string };
  readonly agent: Agent;
  readonly timeoutMs: number;
  readonly delivery: InOrder<LiveExchange>;
  readonly issued: IssuedMap;
  readonly apiLimit: number;
  readonly uploadLimit: number;
  readonly responseLimit: number;
  uploadOrigin: string | undefined;
}

/** The uploads issued through the proxy, by token; the oldest forgotten past 10,000. */
class IssuedMap {
  readonly #byToken = new Map<string, IssuedUpload>();

  add(issued: IssuedUpload): string {
    const token = randomBytes(12).toString('hex');
    this.#byToken.set(token, issued);
    if (this.#byToken.size > 10_000) this.#byToken.delete(this.#byToken.keys().next().value as string);
    return token;
  }

  get(token: string): IssuedUpload | undefined {
    return this.#byToken.get(token);
  }
}

function upstreamBase(text: string): { origin: string; path: string } {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    const port = urlPortProblem(text);
    throw new RangeError(`upstream ${JSON.stringify(clip(text, 80))} is not an absolute URL${port ? `: ${port}` : ''}`);
  }
  const port = urlPortProblem(text);
  if (port !== undefined) throw new RangeError(`upstream ${JSON.stringify(clip(text, 80))}: ${port}`);
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new RangeError(`upstream ${JSON.stringify(clip(text, 80))} is not http or https`);
  // the proxy signs what it forwards and sends no credentials in a URL; a password would be printed with it
  if (u.username !== '' || u.password !== '')
    throw new RangeError('upstream must not hold a user name or password (user:password@): give its base URL alone');
  if (u.search !== '' || u.hash !== '' || text.includes('?') || text.includes('#'))
    throw new RangeError(`upstream ${JSON.stringify(clip(text, 80))} must not have a query or fragment`);
  return { origin: u.origin, path: u.pathname.replace(/\/+$/, '') };
}

async function handleApi(ctx: Context, req: IncomingMessage, res: ServerResponse, at: Arrival): Promise<void> {
  const { method, url, headers, target } = at.request;
  const read = await readBody(req, ctx.apiLimit, ctx.timeoutMs);
  const base = { seq: at.seq, startedAt: at.startedAt, kind: 'api' as const };
  if (read.stopped !== undefined) {
    unread(ctx, { req, res, at, base }, read.stopped, ctx.apiLimit);
    return;
  }
  const request: LiveMessage = { method, url, headers, body: read.bytes };
  const auth = authenticateRequest(
    ctx.options.merchants,
    { method, url, authorization: headerValue(headers, 'authorization'), body: read.bytes },
    ctx.options.header,
  );
  const upstreamUrl = `${ctx.upstream.origin}${ctx.upstream.path}${target}`;
  let authorization: string | undefined;
  if (auth.valid) {
    const { appId, timestamp, nonce } = auth.items;
    const s = sign({ ...auth.merchant, method, url: upstreamUrl, timestamp, nonce, body: read.bytes });
    authorization = formatAuthorization({ appId, sign: s, timestamp, nonce });
  }
  const forwarded: LiveMessage = {
    method,
    url: upstreamUrl,
    headers: passOn(headers, authorization),
    body: read.bytes,
  };
  const got = await send(ctx, ctx.upstream.origin, `${ctx.upstream.path}${target}`, forwarded);
  if ('unanswered' in got) {
    ctx.delivery.done(at.seq, { ...base, request, forwarded, unanswered: got.unanswered });
    answerSelf(req, res, got.why, 'json', got.unanswered);
    return;
  }
  const response = got.answer;
  let body = response.body;
  let signature: string | undefined;
  const merchant = auth.merchant;
  const answerSigned = headerValue(response.headers, 'authorization');
  if (merchant !== undefined && answerSigned !== undefined) {
    const verdict = verifySigned(
      { ...merchant, method, url: upstreamUrl, body: response.body },
      answerSigned,
      ctx.options.header ? { header: ctx.options.header } : {},
    );
    if (verdict.valid) {
      if (ctx.uploadOrigin !== undefined && response.status === 200 && isCredentials(target)) {
        body = throughProxy(ctx, read.bytes, response.body) ?? body;
      }
      signature = resign(merchant, method, url, body, verdict.items.timestamp, verdict.items.nonce);
    }
  }
  ctx.delivery.done(at.seq, { ...base, request, forwarded, response });
  reply(req, res, response, body, signature);
}

async function handleUpload(ctx: Context, req: IncomingMessage, res: ServerResponse, at: Arrival): Promise<void> {
  const { method, url, headers, target } = at.request;
  const path = targetPath(target);
  const issued = ctx.issued.get(path.slice(1));
  const read = await readBody(req, ctx.uploadLimit, ctx.timeoutMs);
  const base = { seq: at.seq, startedAt: at.startedAt, kind: 'upload' as const, ...(issued ? { issued } : {}) };
  if (read.stopped !== undefined) {
    unread(ctx, { req, res, at, base }, read.stopped, ctx.uploadLimit);
    return;
  }
  const request: LiveMessage = { method, url, headers, body: read.bytes };
  if (issued === undefined) {
    const why = 'no uploadUrl was issued at this address through the proxy (4.2): nothing forwarded';
    ctx.delivery.done(at.seq, { ...base, request, unanswered: why });
    answerSelf(req, res, 'not-issued', 'xml', why);
    return;
  }
  const to = new URL(issued.uploadUrl);
  const query = target.slice(path.length);
  const forwarded: LiveMessage = {
    method,
    url: `${issued.uploadUrl}${query}`,
    headers: passOn(headers, undefined),
    body: read.bytes,
  };
  const got = await send(ctx, to.origin, `${issued.uploadUrl.slice(to.origin.length) || '/'}${query}`, forwarded);
  if ('unanswered' in got) {
    ctx.delivery.done(at.seq, { ...base, request, forwarded, unanswered: got.unanswered });
    answerSelf(req, res, got.why, 'xml', got.unanswered);
    return;
  }
  ctx.delivery.done(at.seq, { ...base, request, forwarded, response: got.answer });
  reply(req, res, got.answer, got.answer.body, undefined);
}

/** The credentials answer's bytes with uploadUrl pointing at the proxy, the upload remembered; or undefined. */
function throughProxy(ctx: Context, asked: Uint8Array, answer: Uint8Array): Uint8Array | undefined {
  const issued = issuedUpload(asked, answer);
  if (issued === undefined) return undefined;
  const token = ctx.issued.add(issued);
  return rewriteUploadUrl(answer, issued.uploadUrl, `${ctx.uploadOrigin as string}/${token}`);
}

function isCredentials(target: string): boolean {
  return targetPath(target).endsWith(API_PATHS.generateUploadUrl);
}

function resign(m: Merchant, method: string, url: string, body: Uint8Array, timestamp: string, nonce: string): string {
  const s = sign({ ...m, method, url, timestamp, nonce, body });
  return formatAuthorization({ appId: m.appId, sign: s, timestamp, nonce });
}

type Sent = { readonly answer: LiveAnswer } | { readonly unanswered: string; readonly why: 'unreachable' | 'late' };

const TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

async function send(ctx: Context, to: string, path: string, m: LiveMessage): Promise<Sent> {
  let r: Dispatcher.ResponseData;
  try {
    r = await ctx.agent.request({
      origin: to,
      path,
      method: m.method as Dispatcher.HttpMethod,
      headers: m.headers.flat(),
      body: m.body.byteLength === 0 && !hasBody(m.method) ? null : Buffer.from(m.body),
      headersTimeout: ctx.timeoutMs,
      bodyTimeout: ctx.timeoutMs,
    });
  } catch (e) {
    return failed(e, to, ctx.timeoutMs);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of r.body as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > ctx.responseLimit) {
        r.body.destroy();
        return {
          unanswered: `the upstream's answer (HTTP ${r.statusCode}) is over ${ctx.responseLimit} bytes: not read`,
          why: 'unreachable',
        };
      }
      chunks.push(chunk);
    }
  } catch (e) {
    return failed(e, to, ctx.timeoutMs);
  }
  const headers: Array<readonly [string, string]> = [];
  for (const [name, value] of Object.entries(r.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.push([name, v]);
    else if (value !== undefined) headers.push([name, value]);
  }
  return { answer: { status: r.statusCode, headers, body: new Uint8Array(Buffer.concat(chunks)) } };
}

function failed(e: unknown, to: string, timeoutMs: number): Sent {
  const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
  const message = e instanceof Error ? e.message : String(e);
  if (TIMEOUTS.has(code))
    return { unanswered: `the upstream ${to} did not answer within ${timeoutMs} ms (${code})`, why: 'late' };
  const detail = [code, message].filter((t) => t !== '').join(': ');
  const said = clip(detail || 'network failure', 200);
  return { unanswered: `the upstream ${to} could not be reached: ${said}`, why: 'unreachable' };
}

function hasBody(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

/** What the proxy sets itself besides the hop-by-hop fields: the framing. */
const OWN_FIELDS: ReadonlySet<string> = new Set(['content-length', 'expect']);

/** The headers passed on: without hop-by-hop ones (and those Connection names), Host, Content-Length, Expect. */
function passOn(
  headers: ReadonlyArray<readonly [string, string]>,
  authorization: string | undefined,
): Array<readonly [string, string]> {
  return endToEndHeaders(headers, OWN_FIELDS).map(([name, value]) =>
    name.toLowerCase() === 'authorization' && authorization !== undefined ? [name, authorization] : [name, value],
  );
}

function reply(
  req: IncomingMessage,
  res: ServerResponse,
  answer: LiveAnswer,
  body: Uint8Array,
  authorization: string | undefined,
): void {
  const flat: string[] = [];
  for (const [name, value] of passOn(answer.headers, authorization)) flat.push(name, value);
  // no Content-Length where HTTP allows none (1xx, 204, 304); a HEAD's is the upstream's
  const bodiless = answer.status < 200 || answer.status === 204 || answer.status === 304;
  const length = req.method === 'HEAD' ? headerValue(answer.headers, 'content-length') : String(body.byteLength);
  if (!bodiless && length !== undefined) flat.push('content-length', length);
  try {
    res.writeHead(answer.status, flat);
    res.end(body);
  } catch {
    // a status or header node:http will not write (the upstream's own): the client gets a 502 instead
    if (!res.headersSent) {
      res.writeHead(502, { 'content-length': '0' });
      res.end();
    } else res.destroy();
  }
}

type SelfReason = 'too-large' | 'timeout' | 'aborted' | 'not-issued' | 'unreachable' | 'late';

const SELF: Record<Exclude<SelfReason, 'aborted'>, readonly [number, string]> = {
  'too-large': [413, 'PAYLOAD_TOO_LARGE'],
  timeout: [408, 'REQUEST_TIMEOUT'],
  'not-issued': [404, 'NOT_FOUND'],
  unreachable: [502, 'BAD_GATEWAY'],
  late: [504, 'GATEWAY_TIMEOUT'],
};

/** An answer of the proxy's own (never signed): the 2.3 envelope for the API, an S3-style error for an upload. */
function answerSelf(req: IncomingMessage, res: ServerResponse, reason: SelfReason, type: 'json' | 'xml', why: string) {
  if (reason === 'aborted') return;
  const [status, code] = SELF[reason];
  const message = `pgv2kit proxy: ${why}`;
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<Error><Code>${code}</Code><Message>${xmlText(message)}</Message></Error>`;
  const bytes = type === 'json' ? envelopeBytes({ code, errorMessage: message }) : new TextEncoder().encode(xml);
  // a body not read to its end: the connection closes after the answer, what still comes is drained (bounded)
  const closing = reason === 'too-large' || reason === 'timeout';
  if (reason === 'too-large') drainRest(req);
  res.writeHead(status, {
    'content-type': type === 'json' ? 'application/json' : 'application/xml',
    'content-length': String(bytes.byteLength),
    ...(closing ? { connection: 'close' } : {}),
  });
  res.end(bytes);
}

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A request whose body was not read whole (over the limit, stopped arriving, the client gone): answered by the proxy
 * (an API envelope, an upload's S3-style XML), not forwarded, and handed on not judged — its bytes are not known.
 */
function unread(
  ctx: Context,
  on: {
    readonly req: IncomingMessage;
    readonly res: ServerResponse;
    readonly at: Arrival;
    readonly base: Pick<LiveExchange, 'seq' | 'startedAt' | 'kind' | 'issued'>;
  },
  stopped: 'too-large' | 'timeout' | 'aborted',
  limit: number,
): void {
  const api = on.base.kind === 'api';
  const why = stoppedReason(stopped, limit, api ? 'the API' : 'an upload');
  const { method, url, headers } = on.at.request;
  const request = { method, url, headers, body: new Uint8Array() };
  ctx.delivery.done(on.at.seq, { ...on.base, request, unanswered: why, notJudged: why });
  answerSelf(on.req, on.res, stopped, api ? 'json' : 'xml', why);
}

function stoppedReason(stopped: 'too-large' | 'timeout' | 'aborted', limit: number, what: string): string {
  if (stopped === 'too-large') return `the body is larger than ${limit} bytes, the proxy's limit for ${what}: refused`;
  if (stopped === 'timeout') return 'the body stopped arriving: refused before it was forwarded';
  return 'the client closed the connection before the body ended: nothing forwarded';
}

/** A request as it arrived: its seq, time, method, URL addressed (R4), headers and target. */
interface Arrival {
  readonly seq: number;
  readonly startedAt: string;
  readonly request: Omit<LiveMessage, 'body'> & { readonly target: string };
}

function server(
  ctx: Context,
  kind: 'api' | 'upload',
  handler: (req: IncomingMessage, res: ServerResponse, at: Arrival) => Promise<void>,
): Server {
  const s = createServer({ keepAliveTimeout: 5_000, headersTimeout: 10_000, maxHeaderSize: 16 * 1024 });
  s.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const target = req.url as string;
    const at: Arrival = {
      seq: ctx.delivery.take(),
      startedAt: new Date().toISOString(),
      request: {
        method: req.method as string,
        url: fullUrl(req),
        headers: rawHeaderPairs(req),
        target: originForm(target),
      },
    };
    handler(req, res, at).catch((e: unknown) => {
      // no input should get here: the exchange is still handed on, and the client not left waiting
      const { target: _, ...sent } = at.request;
      const why = `the proxy failed: ${clip(e instanceof Error ? e.message : String(e), 200)}`;
      ctx.delivery.done(at.seq, {
        seq: at.seq,
        startedAt: at.startedAt,
        kind,
        request: { ...sent, body: new Uint8Array() },
        unanswered: why,
      });
      if (!res.headersSent) {
        res.writeHead(500, { 'content-length': '0', connection: 'close' });
        res.end();
      } else res.destroy();
    });
  });
  s.on(
    'clientError',
    clientErrorAnswer((_status, message) =>
      kind === 'api'
        ? {
            type: 'application/json',
            text: new TextDecoder().decode(envelopeBytes({ code: 'BAD_REQUEST', errorMessage: message })),
          }
        : {
            type: 'application/xml',
            text: `<Error><Code>BadRequest</Code><Message>${xmlText(message)}</Message></Error>`,
          },
    ),
  );
  return s;
}

function listen(s: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, host, () => {
      s.off('error', reject);
      resolve((s.address() as AddressInfo).port);
    });
  });
}

function stop(s: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!s.listening) {
      resolve();
      return;
    }
    s.close(() => resolve());
    s.closeAllConnections();
  });
}

/** The origin clients use: an unspecified address (0.0.0.0, ::) is reached on loopback. */
function origin(host: string, port: number): string {
  const reach = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reach.includes(':') ? `[${reach}]` : reach}:${port}`;
}
