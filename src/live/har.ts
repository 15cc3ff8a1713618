/**
 * Live exchanges as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), written and read: `pgv2kit proxy`
 * streams its exchanges to `traffic.har` with a {@link HarWriter} (one entry at a time, never all in memory), and
 * `pgv2kit check` reads a HAR from the proxy, a browser's devtools, mitmproxy, Charles or Proxyman with
 * {@link readHar}. Bodies are byte-exact both ways: written as `text` when they are valid UTF-8, else base64 with
 * `encoding: "base64"` (on `postData` too, as mitmproxy and Proxyman write binary bodies); read only when the HAR
 * certainly holds the bytes that went on the wire — else the exchange is `notJudged` (or, when only its answer is
 * not, `answerNotJudged`: its request judged alone), with the reason, never guessed. The kit's own fields are in
 * `_pgv2kit` (HAR 1.2: custom fields start with "_").
 * @module
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { STATUS_CODES } from 'node:http';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { fromBase64, toBase64, utf8 } from '../scheme/bytes.js';
import { isValidUtf8 } from '../scheme/utf8.js';
import { Pgv2kitError } from '../errors.js';
import { KIT_NAME, kitVersion } from '../version.js';
import { createAjv } from '../vectors/ajv.js';
import { readFolderFile } from '../vectors/files.js';
import { API_PATHS } from '../gateway/api-judge.js';
import {
  headerValue,
  kindOf,
  type IssuedUpload,
  type KindContext,
  type LiveExchange,
  type LiveMessage,
} from './exchange.js';
import type { LiveJudgement } from './judge.js';
import { jsonSyntaxProblem } from '../file-errors.js';

/** A HAR header or query entry. */
interface HarPair {
  readonly name: string;
  readonly value: string;
}

/** One HAR 1.2 entry as {@link harEntry} writes it. */
export interface HarEntry {
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly httpVersion: string;
    readonly cookies: readonly never[];
    readonly headers: readonly HarPair[];
    readonly queryString: readonly HarPair[];
    readonly postData?: { readonly mimeType: string; readonly text: string; readonly encoding?: 'base64' };
    readonly headersSize: -1;
    readonly bodySize: number;
  };
  readonly response: {
    readonly status: number;
    readonly statusText: string;
    readonly httpVersion: string;
    readonly cookies: readonly never[];
    readonly headers: readonly HarPair[];
    readonly content: {
      readonly size: number;
      readonly mimeType: string;
      readonly text?: string;
      readonly encoding?: 'base64';
    };
    readonly redirectURL: string;
    readonly headersSize: -1;
    readonly bodySize: number;
  };
  readonly cache: Record<string, never>;
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number };
  readonly _pgv2kit: Record<string, unknown>;
}

/**
 * One exchange as a HAR 1.2 entry: the request as its sender sent it, the answer as the receiver gave it (an
 * exchange without an answer gets status 0, as devtools writes a request that got none), and in `_pgv2kit` the
 * sequence number, kind, what the proxy forwarded (bodies base64), the upload's credentials, the URL registered,
 * and the judgement when given (verdict, findings, notes).
 * @param ex - the exchange
 * @param judgement - its judgement, if any
 * @returns the entry, ready for JSON.stringify
 * @example
 * const request = { method: 'POST', url, headers: [], body: utf8(body) };
 * harEntry({ seq: 1, startedAt: '2026-11-26T00:00:00Z', kind: 'api', request }).request.postData?.text === body // true
 */
export function harEntry(ex: LiveExchange, judgement?: LiveJudgement): HarEntry {
  const req = ex.request;
  const res = ex.response;
  const resBody = res === undefined ? undefined : bodyText(res.body);
  const kit: Record<string, unknown> = {
    seq: ex.seq,
    kind: ex.kind,
    ...(ex.forwarded !== undefined ? { forwarded: messageJson(ex.forwarded) } : {}),
    ...(ex.issued !== undefined
      ? { issued: { ...ex.issued, formFields: ex.issued.formFields.map(([n, v]) => [n, v]) } }
      : {}),
    ...(ex.registeredUrl !== undefined ? { registeredUrl: ex.registeredUrl } : {}),
    ...(ex.notJudged !== undefined ? { notJudged: ex.notJudged } : {}),
    ...(ex.answerNotJudged !== undefined ? { answerNotJudged: ex.answerNotJudged } : {}),
    ...(ex.unanswered !== undefined ? { unanswered: ex.unanswered } : {}),
    ...(judgement !== undefined
      ? {
          verdict: judgement.verdict,
          findings: judgement.findings,
          notes: judgement.notes,
          ...(judgement.reason !== undefined ? { reason: judgement.reason } : {}),
        }
      : {}),
  };
  return {
    startedDateTime: ex.startedAt,
    time: 0,
    request: {
      method: req.method,
      url: req.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(req.headers),
      queryString: queryOf(req.url),
      ...(req.body.byteLength > 0
        ? { postData: { mimeType: headerValue(req.headers, 'content-type') ?? '', ...bodyText(req.body) } }
        : {}),
      headersSize: -1,
      bodySize: req.body.byteLength,
    },
    response: {
      status: res?.status ?? 0,
      statusText: res === undefined ? '' : (STATUS_CODES[res.status] ?? ''),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: res === undefined ? [] : pairs(res.headers),
      content: {
        size: res?.body.byteLength ?? 0,
        mimeType: (res && headerValue(res.headers, 'content-type')) ?? '',
        ...(resBody !== undefined && res !== undefined && res.body.byteLength > 0 ? resBody : {}),
      },
      redirectURL: (res && headerValue(res.headers, 'location')) ?? '',
      headersSize: -1,
      bodySize: res?.body.byteLength ?? -1,
    },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
    _pgv2kit: kit,
  };
}

/**
 * A HAR file written one entry at a time (`pgv2kit proxy`'s `traffic.har`): the log's head at {@link HarWriter.open},
 * each entry appended as it comes, the closing brackets at {@link HarWriter.close}, which then renames the file into
 * place — so a HAR of 100,000 exchanges never sits in memory, and a reader never sees half a file.
 * @example
 * const har = HarWriter.open(`${tmp}/traffic.har`);
 * const request = { method: 'GET', url, headers: [], body: utf8('') };
 * har.append({ seq: 1, startedAt: '2026-11-26T00:00:00Z', kind: 'api', request });
 * har.close();
 * readHar(`${tmp}/traffic.har`).exchanges.length // 1
 */
export class HarWriter {
  readonly #path: string;
  readonly #temp: string;
  #fd: number | undefined;
  #count = 0;

  private constructor(path: string, temp: string, fd: number) {
    this.#path = path;
    this.#temp = temp;
    this.#fd = fd;
  }

  /**
   * Starts a HAR file: a temporary file beside `path`, the log's head written.
   * @param path - where the HAR goes (written at {@link HarWriter.close})
   * @returns the writer
   * @throws the file system's error when the folder cannot be written
   */
  static open(path: string): HarWriter {
    const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
    const fd = openSync(temp, 'w');
    const writer = new HarWriter(path, temp, fd);
    const creator = JSON.stringify({ name: KIT_NAME, version: kitVersion() });
    writer.#write(`{"log":{"version":"1.2","creator":${creator},"pages":[],"entries":[`);
    return writer;
  }

  /** How many entries were appended. */
  get count(): number {
    return this.#count;
  }

  /**
   * Appends one exchange ({@link harEntry}).
   * @param ex - the exchange
   * @param judgement - its judgement, if any
   * @throws {Error} after {@link HarWriter.close}
   */
  append(ex: LiveExchange, judgement?: LiveJudgement): void {
    this.#write(`${this.#count === 0 ? '\n' : ',\n'}${JSON.stringify(harEntry(ex, judgement))}`);
    this.#count += 1;
  }

  /** Writes the closing brackets and renames the file into place. A second call does nothing. */
  close(): void {
    if (this.#fd === undefined) return;
    this.#write(`${this.#count === 0 ? '' : '\n'}]}}\n`);
    closeSync(this.#fd);
    this.#fd = undefined;
    renameSync(this.#temp, this.#path);
  }

  /** Drops the file being written (nothing is left at `path`'s place). A call after close does nothing. */
  abort(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
    rmSync(this.#temp, { force: true });
  }

  #write(text: string): void {
    if (this.#fd === undefined) throw new Error('the HAR file is closed');
    const bytes = Buffer.from(text, 'utf8');
    let at = 0;
    while (at < bytes.length) at += writeSync(this.#fd, bytes, at, bytes.length - at);
  }
}

/** Limits of {@link readHar}. */
export interface HarLimits {
  /** The most bytes read (default 256 MiB). */
  readonly maxBytes?: number;
  /** The most entries read (default 100,000). */
  readonly maxEntries?: number;
}

/** What {@link readHar} is told about the traffic. */
export interface HarReadOptions extends HarLimits {
  /**
   * The merchant's registered URLs: a request to a notifyUrl is a webhook, to a returnUrl a redirect (5.5, 5.6).
   * Uploads are found by the uploadUrls the HAR's own credentials responses issued.
   */
  readonly kinds?: Pick<KindContext, 'notifyUrls' | 'returnUrls'>;
}

/** What {@link readHar} read. */
export interface HarRead {
  /** The signed exchanges, in the HAR's order; `seq` from 1 in that order. */
  readonly exchanges: LiveExchange[];
  /** How many entries were neither an API request, an upload, a webhook nor a redirect (not the kit's to judge). */
  readonly skipped: number;
}

/** The stable code of {@link HarError}. */
export const HAR_INVALID = 'PGV2_HAR_INVALID';

/** A HAR file that cannot be read: not a file, over a limit, not JSON, or not HAR 1.2 where it is read (exit 2). */
export class HarError extends Pgv2kitError {
  /** Always {@link HAR_INVALID}. */
  override readonly code = HAR_INVALID;
  /** A usage error (exit 2): the input is refused. */
  override readonly exit = 'usage';
  override readonly name = 'HarError';
}

/** The defaults of {@link HarLimits}. */
export const DEFAULT_HAR_LIMITS = Object.freeze({ maxBytes: 256 * 1024 * 1024, maxEntries: 100_000 });

/**
 * Reads a HAR file into exchanges: bounded (a size cap, an entry cap; a FIFO or device refused unread), validated
 * where it is read (errors name the file and the JSON pointer), each entry classified ({@link kindOf}) and its
 * bodies taken only when the HAR certainly holds them byte-exact: base64, or text whose UTF-8 length equals the size
 * the HAR gives (`request.bodySize`, `response.content.size`). Anything else — no postData, a size missing or
 * different (truncated, re-encoded), a body decoded from a Content-Encoding, an `_error` — makes the exchange
 * `notJudged` with the reason; when only the response's body is such, the exchange is `answerNotJudged` instead
 * (its request judged alone).
 * @param path - the HAR file
 * @param options - limits and the merchant's registered URLs
 * @returns the exchanges and how many entries were skipped
 * @throws {HarError} when the file cannot be read or is not HAR where it is read
 * @example readHar(`${tmp}/none.har`) // throws HarError
 */
export function readHar(path: string, options: HarReadOptions = {}): HarRead {
  const maxBytes = options.maxBytes ?? DEFAULT_HAR_LIMITS.maxBytes;
  const maxEntries = options.maxEntries ?? DEFAULT_HAR_LIMITS.maxEntries;
  const read = readFolderFile(path, maxBytes, '--max-har-size');
  if (!read.ok) throw new HarError(`${path} ${read.message}`);
  const b = read.bytes;
  if ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff))
    throw new HarError(`${path} is UTF-16 (it begins with a byte order mark): export or save the HAR as UTF-8`);
  let doc: unknown;
  try {
    // a UTF-8 BOM before the JSON, as some exporters write one (RFC 8259 §8.1 lets a parser ignore it)
    const bom = read.bytes[0] === 0xef && read.bytes[1] === 0xbb && read.bytes[2] === 0xbf ? 3 : 0;
    doc = JSON.parse(read.bytes.toString('utf8', bom));
  } catch (e) {
    throw new HarError(`${path} is not JSON: ${jsonSyntaxProblem(e)}`);
  }
  const entriesAt = (doc as { log?: { entries?: unknown } } | null)?.log?.entries;
  if (Array.isArray(entriesAt) && entriesAt.length > maxEntries)
    throw new HarError(
      `${path} holds ${entriesAt.length} entries, over the limit of ${maxEntries} (--max-har-entries)`,
    );
  const validate = harSchema();
  if (!validate(doc)) {
    const shown = (validate.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
    throw new HarError(`${path} is not a HAR 1.2 file: ${shown.join('; ')}`);
  }
  const entries = (doc as { log: { entries: RawEntry[] } }).log.entries;
  const issued = new Map<string, IssuedUpload>();
  const exchanges: LiveExchange[] = [];
  let skipped = 0;
  for (const entry of entries) {
    const kit = entry._pgv2kit;
    const own = kit?.issued;
    const context: KindContext = { ...options.kinds, uploadUrls: [...issued.keys()] };
    const kind = kit?.kind ?? kindOf(entry.request.method, entry.request.url, context);
    if (kind === undefined) {
      skipped += 1;
      continue;
    }
    const ex = toExchange(entry, exchanges.length + 1, kind);
    const upload = kind === 'upload' ? (own ?? issuedFor(issued, entry.request.url)) : undefined;
    const registered =
      kit?.registeredUrl ??
      (kind === 'webhook' ? matching(options.kinds?.notifyUrls, entry.request.url) : undefined) ??
      (kind === 'redirect' ? matching(options.kinds?.returnUrls, entry.request.url) : undefined);
    const full: LiveExchange = {
      ...ex,
      ...(upload !== undefined ? { issued: upload } : {}),
      ...(registered !== undefined ? { registeredUrl: registered } : {}),
    };
    exchanges.push(full);
    if (kind === 'api') noteIssued(issued, full);
  }
  return { exchanges, skipped };
}

// --- internal ---

/** An entry as the schema lets it be read. */
interface RawEntry {
  readonly startedDateTime: string;
  readonly _error?: unknown;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: HarPair[];
    readonly bodySize?: number;
    readonly postData?: { readonly text?: string; readonly encoding?: string; readonly _encoding?: string };
  };
  readonly response: {
    readonly status: number;
    readonly headers: HarPair[];
    readonly bodySize?: number;
    readonly _error?: unknown;
    readonly content: { readonly size?: number; readonly text?: string; readonly encoding?: string };
  };
  readonly _pgv2kit?: {
    readonly kind?: LiveExchange['kind'];
    readonly forwarded?: { method: string; url: string; headers: Array<[string, string]>; bodyBase64: string };
    readonly issued?: IssuedUpload;
    readonly registeredUrl?: string;
    readonly notJudged?: string;
    readonly answerNotJudged?: string;
    readonly unanswered?: string;
  };
}

const PAIR = {
  type: 'object',
  required: ['name', 'value'],
  properties: { name: { type: 'string' }, value: { type: 'string' } },
};
const PAIRS = { type: 'array', items: PAIR };
const STRING_PAIRS = {
  type: 'array',
  items: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'string' }], minItems: 2, maxItems: 2 },
};

/** The parts of HAR 1.2 that are read, and the kit's own fields. */
const HAR_SCHEMA = {
  $id: 'pgv2kit:har-read',
  type: 'object',
  required: ['log'],
  properties: {
    log: {
      type: 'object',
      required: ['entries'],
      properties: { entries: { type: 'array', items: { $ref: '#/$defs/entry' } } },
    },
  },
  $defs: {
    entry: {
      type: 'object',
      required: ['startedDateTime', 'request', 'response'],
      properties: {
        startedDateTime: { type: 'string' },
        request: {
          type: 'object',
          required: ['method', 'url', 'headers'],
          properties: {
            method: { type: 'string', pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" },
            url: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9+.-]*://' },
            headers: PAIRS,
            bodySize: { type: 'integer' },
            postData: {
              type: 'object',
              properties: { text: { type: 'string' }, encoding: { type: 'string' }, _encoding: { type: 'string' } },
            },
          },
        },
        response: {
          type: 'object',
          required: ['status', 'headers', 'content'],
          properties: {
            status: { type: 'integer', minimum: 0, maximum: 999 },
            headers: PAIRS,
            bodySize: { type: 'integer' },
            content: {
              type: 'object',
              properties: { size: { type: 'integer' }, text: { type: 'string' }, encoding: { type: 'string' } },
            },
          },
        },
        _pgv2kit: {
          type: 'object',
          properties: {
            kind: { enum: ['api', 'upload', 'webhook', 'redirect'] },
            forwarded: {
              type: 'object',
              required: ['method', 'url', 'headers', 'bodyBase64'],
              properties: {
                method: { type: 'string' },
                url: { type: 'string' },
                headers: STRING_PAIRS,
                bodyBase64: { type: 'string' },
              },
            },
            issued: {
              type: 'object',
              required: ['uploadUrl', 'formFields', 'filename'],
              properties: {
                uploadUrl: { type: 'string' },
                formFields: STRING_PAIRS,
                filename: { type: 'string' },
                contentType: { type: 'string' },
                httpMethod: { type: 'string' },
              },
            },
            registeredUrl: { type: 'string' },
            notJudged: { type: 'string' },
            answerNotJudged: { type: 'string' },
            unanswered: { type: 'string' },
          },
        },
      },
    },
  },
} as const;

let compiled: ValidateFunction | undefined;

function harSchema(): ValidateFunction {
  compiled ??= createAjv().compile(HAR_SCHEMA);
  return compiled;
}

function pairs(headers: ReadonlyArray<readonly [string, string]>): HarPair[] {
  return headers.map(([name, value]) => ({ name, value }));
}

function queryOf(url: string): HarPair[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function bodyText(body: Uint8Array): { text: string; encoding?: 'base64' } {
  return isValidUtf8(body)
    ? { text: Buffer.from(body).toString('utf8') }
    : { text: toBase64(body), encoding: 'base64' };
}

function messageJson(m: LiveMessage): Record<string, unknown> {
  return { method: m.method, url: m.url, headers: m.headers.map(([n, v]) => [n, v]), bodyBase64: toBase64(m.body) };
}

type Bytes = { bytes: Uint8Array } | { why: string };

const NO_BODY_METHODS = new Set(['GET', 'HEAD']);

function requestBytes(r: RawEntry['request']): Bytes {
  const post = r.postData;
  if (post === undefined || post.text === undefined) {
    if (r.bodySize === 0) return { bytes: new Uint8Array() };
    if (NO_BODY_METHODS.has(r.method) && (r.bodySize === undefined || r.bodySize === -1))
      return { bytes: new Uint8Array() };
    return {
      why:
        post === undefined
          ? 'the HAR holds no request body (no postData), so the bytes that were signed are unknown'
          : 'the HAR holds the request body only as params (no postData.text), not as the bytes sent',
    };
  }
  return exactBytes(post.text, post.encoding ?? post._encoding, r.bodySize, 'request body (postData.text)', 'bodySize');
}

function responseBytes(r: RawEntry['response']): Bytes {
  const coding = headerValue(
    r.headers.map((h) => [h.name, h.value] as const),
    'content-encoding',
  );
  if (coding !== undefined && coding.trim().toLowerCase() !== 'identity' && coding.trim() !== '')
    return {
      why:
        `the response was sent with Content-Encoding ${JSON.stringify(coding)}: ` +
        'a HAR holds it decoded, not the bytes sent',
    };
  const c = r.content;
  if (c.text === undefined) {
    if (c.size === 0) return { bytes: new Uint8Array() };
    return { why: 'the HAR holds no response body (no content.text), so the bytes that were signed are unknown' };
  }
  return exactBytes(c.text, c.encoding, c.size, 'response body (content.text)', 'content.size');
}

function exactBytes(
  text: string,
  encoding: string | undefined,
  size: number | undefined,
  what: string,
  sizeName: string,
): Bytes {
  if (encoding !== undefined) {
    if (encoding.toLowerCase() !== 'base64')
      return { why: `the ${what} is in an encoding the kit does not read (${JSON.stringify(encoding)})` };
    try {
      const bytes = fromBase64(text);
      if (size !== undefined && size >= 0 && size !== bytes.byteLength)
        return {
          why: `the ${what} is ${bytes.byteLength} bytes but ${sizeName} says ${size}: truncated or re-encoded`,
        };
      return { bytes };
    } catch {
      return { why: `the ${what} is marked base64 but is not canonical base64` };
    }
  }
  const bytes = utf8(text);
  if (size === undefined || size < 0)
    return { why: `the HAR gives no ${sizeName}, so the ${what} cannot be known to be the bytes sent` };
  if (size !== bytes.byteLength)
    return {
      why: `the ${what} is ${bytes.byteLength} bytes in UTF-8 but ${sizeName} says ${size}: truncated or re-encoded`,
    };
  return { bytes };
}

function toExchange(entry: RawEntry, seq: number, kind: LiveExchange['kind']): LiveExchange {
  const req = entry.request;
  const res = entry.response;
  const reqBytes = requestBytes(req);
  const failed = entry._error !== undefined || res._error !== undefined || res.status === 0;
  const resBytes: Bytes | undefined = failed ? undefined : responseBytes(res);
  const reasons = [
    ...(entry._pgv2kit?.notJudged !== undefined ? [entry._pgv2kit.notJudged] : []),
    ...('why' in reqBytes ? [reqBytes.why] : []),
  ];
  // an answer not byte-exact leaves the request to judge alone (the judge never passes half an exchange)
  const answerReasons = [
    ...(entry._pgv2kit?.answerNotJudged !== undefined ? [entry._pgv2kit.answerNotJudged] : []),
    ...(resBytes !== undefined && 'why' in resBytes ? [resBytes.why] : []),
  ];
  const fwd = entry._pgv2kit?.forwarded;
  let forwarded: LiveMessage | undefined;
  if (fwd !== undefined) {
    try {
      forwarded = { method: fwd.method, url: fwd.url, headers: fwd.headers, body: fromBase64(fwd.bodyBase64) };
    } catch {
      reasons.push('_pgv2kit.forwarded.bodyBase64 is not canonical base64');
    }
  }
  return {
    seq,
    startedAt: entry.startedDateTime,
    kind,
    request: {
      method: req.method,
      url: req.url,
      headers: req.headers.map((h) => [h.name, h.value] as const),
      body: 'bytes' in reqBytes ? reqBytes.bytes : new Uint8Array(),
    },
    ...(forwarded !== undefined ? { forwarded } : {}),
    ...(resBytes !== undefined
      ? {
          response: {
            status: res.status,
            headers: res.headers.map((h) => [h.name, h.value] as const),
            body: 'bytes' in resBytes ? resBytes.bytes : new Uint8Array(),
          },
        }
      : {}),
    ...(entry._pgv2kit?.unanswered !== undefined ? { unanswered: entry._pgv2kit.unanswered } : {}),
    ...(reasons.length > 0 ? { notJudged: [...reasons, ...answerReasons].join('; ') } : {}),
    ...(reasons.length === 0 && answerReasons.length > 0 ? { answerNotJudged: answerReasons.join('; ') } : {}),
  };
}

/** The registered URL a request URL addresses (the query aside), if any. */
function matching(urls: readonly string[] | undefined, url: string): string | undefined {
  return (urls ?? []).find((u) => kindOf('GET', url, { returnUrls: [u] }) === 'redirect');
}

function issuedFor(issued: ReadonlyMap<string, IssuedUpload>, url: string): IssuedUpload | undefined {
  return (
    issued.get(url) ?? [...issued.values()].find((i) => kindOf('POST', url, { uploadUrls: [i.uploadUrl] }) === 'upload')
  );
}

/** A credentials response's uploadUrl and formFields, with its request's filename and contentType (4.2). */
function noteIssued(issued: Map<string, IssuedUpload>, ex: LiveExchange): void {
  if (ex.notJudged !== undefined || ex.answerNotJudged !== undefined || ex.response?.status !== 200) return;
  try {
    if (!new URL(ex.request.url).pathname.endsWith(API_PATHS.generateUploadUrl)) return;
    const asked = JSON.parse(Buffer.from(ex.request.body).toString('utf8')) as {
      filename?: unknown;
      contentType?: unknown;
    };
    const answer = JSON.parse(Buffer.from(ex.response.body).toString('utf8')) as { data?: Record<string, unknown> };
    const d = answer.data;
    const ff = d?.['formFields'];
    if (
      typeof d?.['uploadUrl'] !== 'string' ||
      typeof ff !== 'object' ||
      ff === null ||
      typeof asked.filename !== 'string'
    )
      return;
    const fields = Object.entries(ff as Record<string, unknown>);
    if (!fields.every(([, v]) => typeof v === 'string')) return;
    issued.set(d['uploadUrl'], {
      uploadUrl: d['uploadUrl'],
      formFields: fields as Array<[string, string]>,
      filename: asked.filename,
      ...(typeof asked.contentType === 'string' ? { contentType: asked.contentType } : {}),
      ...(typeof d['httpMethod'] === 'string' ? { httpMethod: d['httpMethod'] } : {}),
    });
  } catch {
    // not a URL, or not JSON: no credentials issued
  }
}
