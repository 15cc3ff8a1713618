/**
 * One HTTP exchange with undici, as the client needs it: the request target written
 * exactly as given (no URL normalisation, R4), headers in the given order and case,
 * bounded timeouts, never a redirect followed, the response body read as raw bytes up
 * to a limit. Network failures become {@link ClientError}s; what undici refuses to send
 * (an invalid method, path or header) is a `RangeError`.
 * @module
 */
import type { Agent, Dispatcher } from 'undici';
import { undici } from '../deps.js';
import type { IncomingHttpHeaders } from 'node:http';
import { ClientError } from './errors.js';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, type ClientOptions } from './options.js';
import { clip } from '../scheme/text.js';

/** A request exactly as it goes on the wire. */
export interface WireRequest {
  readonly method: string;
  /** The full URL as sent: the target is its text after the authority ({@link wireUrl}). */
  readonly url: string;
  /** Header names and values, in order, names as written. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The body bytes; null sends none. */
  readonly body: Uint8Array | null;
}

/** A response as received. */
export interface WireResponse {
  readonly status: number;
  /** Names lower case; a header received more than once is an array. */
  readonly headers: IncomingHttpHeaders;
  /** The body's raw bytes. */
  readonly body: Uint8Array;
}

/**
 * The URL a request is sent to, split as undici needs it, and the URL as sent: the text
 * without a fragment (a fragment is never sent, R4), "/" added when the path is empty.
 * Nothing else changes: percent-encoding case, the port as written and the query order are
 * kept. (undici writes the Host header from the parsed origin, so a default port written
 * out, `http://h:80/`, is not in the Host header; the URL as sent keeps it.)
 * @param url - an absolute http or https URL
 * @returns the origin, the request target and the URL as sent
 * @throws {RangeError} when the URL is not an absolute http(s) URL, or its path and query
 *   hold a character HTTP/1.1 cannot carry as written (space, control, non-ASCII)
 * @example
 * const wire = wireUrl('http://127.0.0.1:8080?a=1#f');
 * wire // { origin: 'http://127.0.0.1:8080', target: '/?a=1', url: 'http://127.0.0.1:8080/?a=1' }
 */
export function wireUrl(url: string): { origin: string; target: string; url: string } {
  if (typeof url !== 'string') throw new TypeError('url must be a string');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RangeError(`url ${JSON.stringify(clip(url, 80))} is not an absolute URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new RangeError(`url ${JSON.stringify(clip(url, 80))} is not http or https`);
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(url);
  if (!authority) throw new RangeError(`url ${JSON.stringify(clip(url, 80))} has no "//" authority`);
  const hash = url.indexOf('#', authority[0].length);
  let target = url.slice(authority[0].length, hash < 0 ? undefined : hash);
  if (!target.startsWith('/')) target = `/${target}`;
  if (/[^\x21-\x7e]/.test(target))
    throw new RangeError(
      `the path and query of ${JSON.stringify(clip(url, 80))} ` +
        'must be printable ASCII without spaces: percent-encode them',
    );
  return { origin: parsed.origin, target, url: `${authority[0]}${target}` };
}

/**
 * Sends one request and reads the whole response.
 * @param request - the request as it goes on the wire
 * @param options - timeouts, dispatcher, response size limit
 * @returns the status, headers and raw body
 * @throws {ClientError} PGV2_CLIENT_NETWORK, PGV2_CLIENT_TIMEOUT or PGV2_CLIENT_RESPONSE_TOO_LARGE (rejects)
 * @throws {RangeError} (rejects) when undici refuses the method, target or a header
 * @example
 * const r = await exchange(
 *   {
 *     method: 'POST',
 *     url: `${baseUrl}/pg/v2/payment/create`,
 *     headers: [['content-type', 'application/json']],
 *     body: utf8(body),
 *   },
 *   {},
 * );
 */
export async function exchange(request: WireRequest, options: ClientOptions): Promise<WireResponse> {
  const { origin, target } = wireUrl(request.url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    throw new RangeError(`timeoutMs must be a positive integer; got ${String(timeoutMs)}`);
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const dispatcher = options.dispatcher ?? sharedAgent(timeoutMs);
  const where = `${request.method} ${origin}${target.split('?')[0] ?? ''}`;

  let response: Dispatcher.ResponseData;
  try {
    response = await dispatcher.request({
      origin,
      path: target,
      method: request.method as Dispatcher.HttpMethod,
      headers: request.headers.flat(),
      body:
        request.body === null
          ? null
          : Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  } catch (e) {
    throw networkError(e, where, timeoutMs);
  }

  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > limit) {
        response.body.destroy();
        throw new ClientError(
          'PGV2_CLIENT_RESPONSE_TOO_LARGE',
          `${where}: the response body is larger than ${limit} bytes (maxResponseBytes); not read further`,
          {
            status: response.statusCode,
          },
        );
      }
      chunks.push(chunk);
    }
  } catch (e) {
    if (e instanceof ClientError) throw e;
    throw networkError(e, where, timeoutMs);
  }
  const all = Buffer.concat(chunks);
  return {
    status: response.statusCode,
    headers: response.headers,
    body: new Uint8Array(all.buffer, all.byteOffset, all.byteLength),
  };
}

/**
 * One header of a response as a single value: undefined when absent, null when it was
 * received more than once (a response with two Authorization headers has no one header).
 * @param headers - the response headers
 * @param name - the header name, lower case
 * @returns the value, undefined or null
 * @example singleHeader({ authorization: 'V2_SHA256 …' }, 'authorization') // 'V2_SHA256 …'
 */
export function singleHeader(headers: IncomingHttpHeaders, name: string): string | undefined | null {
  const value = headers[name];
  if (Array.isArray(value)) return value.length === 1 ? (value[0] ?? null) : null;
  return value;
}

// --- internal ---

const agents = new Map<number, Agent>();

function sharedAgent(timeoutMs: number): Agent {
  let agent = agents.get(timeoutMs);
  if (!agent) {
    agent = new (undici().Agent)({
      connect: { timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 4_000,
    });
    agents.set(timeoutMs, agent);
  }
  return agent;
}

const TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

function networkError(e: unknown, where: string, timeoutMs: number): Error {
  const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
  const message = e instanceof Error ? e.message : String(e);
  if (code === 'UND_ERR_INVALID_ARG')
    return new RangeError(`${where}: undici refuses to send this request: ${message}`, { cause: e });
  if (TIMEOUTS.has(code))
    return new ClientError('PGV2_CLIENT_TIMEOUT', `${where}: timed out after ${timeoutMs} ms (${code})`, { cause: e });
  const detail = [code, message].filter((t) => t !== '').join(': ');
  return new ClientError('PGV2_CLIENT_NETWORK', `${where}: ${detail || 'network failure'}`, { cause: e });
}
