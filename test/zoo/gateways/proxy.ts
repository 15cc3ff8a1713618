/**
 * A zoo gateway: the kit's reference gateway behind a small HTTP front with one bug. The front keeps the
 * Host header (so the reference rebuilds the full URL the client signed, R4) and passes every request and
 * answer through unchanged, except where its bug says otherwise: a request changed before the reference
 * verifies it (a body trimmed, a header added), re-signed where the bug is "accepts X" (the front turns an
 * invalid request into one the reference accepts, as a gateway with that bug would), an answer changed before
 * the client sees it (re-signed, as the gateway would sign it), or an answer of its own (an upload address that
 * stores without looking). Credentials responses point uploadUrl at the front's upload side, so uploads pass
 * through it too.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startGateway } from '../../../src/gateway/gateway.js';
import { responseAuthorization } from '../../../src/gateway/envelope.js';
import { formatAuthorization, parseAuthorization } from '../../../src/scheme/authorization.js';
import { sign } from '../../../src/scheme/sign.js';

/** A request or an answer as bytes and ordered headers. */
export interface Message {
  readonly method: string;
  /** The request target (path and query), or the upload URL's path for an upload. */
  readonly target: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
}

/** An answer the front gives or passes on. */
export interface Reply {
  readonly status: number;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
}

/** What a bug may use: the merchant's credentials, and signing as the gateway would. */
export interface FrontContext {
  readonly appId: string;
  readonly appSecret: string;
  /** The request signed again over its (changed) parts, with its own timestamp and nonce where readable. */
  resign(req: Message): Message;
  /** The answer signed again over its (changed) body, for the request it answers. */
  resignReply(reply: Reply, req: Message): Reply;
}

/** One bug of a zoo gateway: where the front departs from passing things through. */
export interface GatewayBug {
  /** A request to the API, before the reference sees it: changed, or answered by the front. */
  readonly request?: (req: Message, ctx: FrontContext) => Message | Reply | Promise<Message | Reply>;
  /** The API's answer, before the client sees it. */
  readonly reply?: (reply: Reply, req: Message, ctx: FrontContext) => Reply;
  /** An upload, before the reference's upload address sees it: changed, or answered by the front. */
  readonly upload?: (req: Message, ctx: FrontContext) => Message | Reply | Promise<Message | Reply>;
  /** The upload address's answer. */
  readonly uploadReply?: (reply: Reply, req: Message) => Reply;
}

/** A running zoo gateway. */
export interface ZooGateway {
  readonly baseUrl: string;
  readonly appId: string;
  readonly appSecret: string;
  close(): Promise<void>;
}

const MERCHANT = { appId: 'zoo-gateway-app', appSecret: 'zoo-gateway-secret-0123456789' };

/**
 * Starts the reference gateway and its front with one bug.
 * @param bug - what the front changes
 * @returns the front's base URL and the merchant credentials it knows
 */
export async function startZooGateway(bug: GatewayBug): Promise<ZooGateway> {
  const gateway = await startGateway({ merchants: [MERCHANT] });
  const api = new URL(gateway.baseUrl);
  let uploadFront = '';
  const ctx = context();
  const front = await listen(async (req) => {
    const message = await read(req);
    const changed = bug.request ? await bug.request(message, ctx) : message;
    if ('status' in changed) return changed;
    let reply = await forward(api.hostname, Number(api.port), changed);
    if (reply.status === 200 && /\/generateUploadUrl(\?|$)/.test(changed.target))
      reply = ctx.resignReply(throughFront(reply, uploadFront), message);
    return bug.reply ? bug.reply(reply, message, ctx) : reply;
  });
  const upstream = new URL(gateway.uploadUrl);
  const uploads = await listen(async (req) => {
    const message = await read(req);
    const changed = bug.upload ? await bug.upload(message, ctx) : message;
    if ('status' in changed) return changed;
    // the same path and query on the reference's upload address: a changed path stays changed
    const reply = await forward(upstream.hostname, Number(upstream.port), changed, upstream.host);
    return bug.uploadReply ? bug.uploadReply(reply, message) : reply;
  });
  uploadFront = `http://127.0.0.1:${port(uploads)}`;
  return {
    baseUrl: `http://127.0.0.1:${port(front)}`,
    ...MERCHANT,
    async close() {
      await Promise.all([close(front), close(uploads)]);
      await gateway.close();
    },
  };
}

/**
 * A header's value, by name (case-insensitive).
 * @param m - the message
 * @param name - the header
 * @returns the first value, if any
 */
export function header(
  m: { readonly headers: ReadonlyArray<readonly [string, string]> },
  name: string,
): string | undefined {
  return m.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
}

/**
 * The headers with one set (replacing every one of that name) or, with undefined, removed.
 * @param m - the message
 * @param name - the header
 * @param value - its new value
 * @returns the new header list
 */
export function withHeader<T extends { readonly headers: ReadonlyArray<readonly [string, string]> }>(
  m: T,
  name: string,
  value: string | undefined,
): T {
  const rest = m.headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase());
  return { ...m, headers: value === undefined ? rest : [...rest, [name, value] as const] };
}

/**
 * A JSON body parsed, changed and written back compactly (a bug that rewrites what it reads).
 * @param body - the body
 * @param change - the change to the parsed value
 * @returns the new body, or the same one when it is not JSON
 */
export function rewriteJson(body: Buffer, change: (value: Record<string, unknown>) => void): Buffer {
  try {
    const value = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return body;
    change(value);
    return Buffer.from(JSON.stringify(value));
  } catch {
    return body;
  }
}

// --- internal ---

function context(): FrontContext {
  return {
    ...MERCHANT,
    resign(req) {
      const host = header(req, 'host') ?? '';
      const parsed = parseAuthorization(header(req, 'authorization') ?? '');
      const items = parsed.ok ? parsed.items : undefined;
      const timestamp = items?.timestamp ?? String(Date.now());
      const nonce = items?.nonce ?? `zoo-${Math.random().toString(16).slice(2, 10)}`;
      const url = `http://${host}${req.target}`;
      const value = sign({ ...MERCHANT, method: req.method, url, timestamp, nonce, body: req.body });
      return withHeader(
        req,
        'Authorization',
        formatAuthorization({ appId: MERCHANT.appId, sign: value, timestamp, nonce }),
      );
    },
    resignReply(reply, req) {
      const parsed = parseAuthorization(header(reply, 'authorization') ?? '');
      const timestamp = parsed.ok ? parsed.items.timestamp : String(Date.now());
      const nonce = parsed.ok ? parsed.items.nonce : 'zoo-reply';
      const url = `http://${header(req, 'host') ?? ''}${req.target}`;
      const authorization = responseAuthorization({
        merchant: MERCHANT,
        method: req.method,
        url,
        body: reply.body,
        timestamp,
        nonce,
      });
      return withHeader(reply, 'Authorization', authorization);
    },
  };
}

/** The credentials response with its uploadUrl on the front's upload side (same path; the same text otherwise). */
function throughFront(reply: Reply, uploadFront: string): Reply {
  const text = reply.body.toString('utf8');
  const m = /"uploadUrl"\s*:\s*"([^"]*)"/.exec(text);
  if (!m || m[1] === undefined) return reply;
  const original = new URL(JSON.parse(`"${m[1]}"`) as string);
  const replaced = JSON.stringify(`${uploadFront}${original.pathname}${original.search}`).slice(1, -1);
  return { ...reply, body: Buffer.from(text.replace(m[1], replaced)) };
}

async function read(req: IncomingMessage): Promise<Message> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers: Array<readonly [string, string]> = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    headers.push([req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '']);
  return { method: req.method ?? 'GET', target: req.url ?? '/', headers, body: Buffer.concat(chunks) };
}

function forward(host: string, port: number, m: Message, hostHeader?: string): Promise<Reply> {
  const headers: Array<[string, string]> = m.headers
    .filter(([n]) => !/^(content-length|transfer-encoding|connection)$/i.test(n))
    .map(([n, v]) => [n, hostHeader !== undefined && n.toLowerCase() === 'host' ? hostHeader : v]);
  headers.push(['Content-Length', String(m.body.length)]);
  return new Promise((resolve, reject) => {
    const out = httpRequest({ host, port, method: m.method, path: m.target, headers: headers.flat() }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const pairs: Array<readonly [string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          if (!/^(content-length|transfer-encoding|connection|keep-alive|date)$/i.test(res.rawHeaders[i] ?? ''))
            pairs.push([res.rawHeaders[i] ?? '', res.rawHeaders[i + 1] ?? '']);
        resolve({ status: res.statusCode ?? 502, headers: pairs, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    out.on('error', reject);
    out.end(m.body);
  });
}

async function listen(handle: (req: IncomingMessage) => Promise<Reply>): Promise<Server> {
  const server = createServer((req, res) => {
    handle(req).then(
      (reply) => {
        res.writeHead(reply.status, [...reply.headers.flat(), 'Content-Length', String(reply.body.length)]);
        res.end(reply.body);
      },
      (e: unknown) => {
        res.writeHead(502).end(String(e));
      },
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
}

function port(server: Server): number {
  return (server.address() as AddressInfo).port;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((r) => server.close(() => r()));
}
