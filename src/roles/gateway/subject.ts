/**
 * The gateway role's subject: a gateway server under test, seen through the kit's
 * reference client (`pgv2kit run --gateway <base_url>`). Each operation sends one
 * request as the merchant — correct, or changed in one way after signing, or an
 * upload with one rule of 4.2 broken — and answers with what came back, for the
 * gateway check (check.ts) to judge. An API request's body is JSON.stringify(body), or
 * rawBody byte for byte (a signer may write white space, another member order, escapes:
 * 5.1, R3); a payment's merchantTradeNo gets a suffix unique to the run and the case.
 * @module
 */
import type FormData from 'form-data';
import { formData, undici } from '../../deps.js';
import {
  CREDENTIALS_PATH,
  ClientError,
  requestUploadCredentials,
  signedRequest,
  type Mutation,
  type UploadCredentials,
} from '../../client/index.js';
import { ITEM_NAMES, formatAuthorization } from '../../scheme/authorization.js';
import { countingBytes } from '../../scheme/bytes.js';
import { sign } from '../../scheme/sign.js';
import { changeLastDigit } from '../../scheme/tamper.js';
import { clip } from '../../scheme/text.js';
import { readHead } from '../merchant/as-gateway/send.js';
import type { GatewayMutation, UploadBreak } from '../../vectors/types.js';
import type { Answer, Json, OperationInput, Subject, TargetNaming } from '../../subjects/subject.js';
import { httpImplementation } from '../../subjects/http-implementation.js';
import { readGatewayAnswer, requestedContentType } from './answer.js';

/**
 * The gateway under test, the merchant credentials the kit plays with, and how reports name the gateway (default:
 * `gateway <host>`, no version).
 */
export interface GatewayTarget extends TargetNaming {
  /** The base URL, e.g. `https://sandbox.example.com` (no trailing slash needed). */
  readonly baseUrl: string;
  readonly appId: string;
  /** Never printed. */
  readonly appSecret: string;
  /** Milliseconds per HTTP exchange. Default 10 s. */
  readonly timeoutMs?: number;
  /**
   * Run the slow cases (`pgv2kit run --slow`): those that wait (an upload after the 10 minutes of validity).
   * Without it they answer unsupported, and the run reports them skipped.
   */
  readonly slow?: boolean;
  /** How a slow case waits (default: real time; a test moves the gateway's clock instead). */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * Why a slow case is skipped: what it waits and the option that runs it.
 * @param seconds - what the case waits
 * @returns the reason reported
 * @example slowCaseSkipped(630) // 'a slow case: it waits 630 s before uploading; pgv2kit run --slow runs it'
 */
export function slowCaseSkipped(seconds: number): string {
  return `a slow case: it waits ${seconds} s before uploading; pgv2kit run --slow runs it`;
}

const PATHS = {
  'gateway.generateUploadUrl': '/pg/v2/file/generateUploadUrl',
  'gateway.createPayment': '/pg/v2/payment/create',
} as const;

/**
 * Creates the subject for a gateway server.
 * @param target - base URL and credentials
 * @returns a subject offering the gateway.* operations
 * @example const subject = createGatewaySubject({ baseUrl, appId, appSecret });
 */
export function createGatewaySubject(target: GatewayTarget): Subject {
  const base = target.baseUrl.replace(/\/+$/, '');
  return {
    implementation: httpImplementation('gateway', base, target),
    operations: ['gateway.generateUploadUrl', 'gateway.createPayment', 'gateway.upload'],
    async call(op, input): Promise<Answer> {
      const body = input['body'];
      const rawBody = input['rawBody'];
      const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
      if (!isObject && (op === 'gateway.upload' || typeof rawBody !== 'string'))
        return { rejected: { reason: 'input body must be an object' } };
      try {
        if (op === 'gateway.upload') return await uploadCase(target, base, body as { [key: string]: Json }, input);
        if (op !== 'gateway.generateUploadUrl' && op !== 'gateway.createPayment')
          return { unsupported: { reason: `${op} is not a gateway operation` } };
        const text = typeof rawBody === 'string' ? rawBody : JSON.stringify(body);
        return await apiCase(
          target,
          `${base}${PATHS[op]}`,
          op,
          op === 'gateway.createPayment' ? freshTradeNo(text) : text,
          input['mutate'] as GatewayMutation | undefined,
          requestedContentType(text),
        );
      } catch (e) {
        return { rejected: { reason: e instanceof Error ? e.message : String(e) } };
      }
    },
  };
}

// --- internal ---

/** A day, in milliseconds: the age of the stale-timestamp case's timestamp (R12). */
const DAY_MS = 86_400_000;

/**
 * The payment body with its merchantTradeNo made unique to this run and case (the vector's value, then the time in
 * base 36 and a random part): a gateway that refuses a repeated order number must not fail the second run against
 * one instance. Only the string's characters change; every other byte of the text stays as the vector wrote it.
 */
function freshTradeNo(text: string): string {
  const suffix = `-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  return text.replace(/("merchantTradeNo"\s*:\s*")((?:[^"\\]|\\.)*)"/, (_, head: string, value: string) => {
    return `${head}${value}${suffix}"`;
  });
}

async function apiCase(
  target: GatewayTarget,
  url: string,
  op: keyof typeof PATHS,
  body: string,
  mutate: GatewayMutation | undefined,
  contentType: string | undefined,
): Promise<Answer> {
  const timestamp = String(Date.now() - (mutate === 'stale-timestamp' ? DAY_MS : 0));
  const nonce = `pgv2kit-${Math.random().toString(16).slice(2, 14)}`;
  const signedMethod = mutate === 'method' ? 'PUT' : 'POST';
  const change = mutate ? mutation(mutate, { url, body, timestamp, nonce, appSecret: target.appSecret }) : undefined;
  const send = (): ReturnType<typeof signedRequest> =>
    signedRequest({
      method: signedMethod,
      url,
      appId: target.appId,
      appSecret: target.appSecret,
      body,
      clock: () => Number(timestamp),
      nonce,
      ...(target.timeoutMs ? { timeoutMs: target.timeoutMs } : {}),
      ...(change ? { mutate: change } : {}),
    });
  // replay: the first send is a genuine request; the case is the second, the same bytes with the same timestamp and
  // nonce (R12)
  if (mutate === 'replay') await send();
  const exchange = await send();
  const { status, code, errorMessage, ...checked } = readGatewayAnswer({
    op,
    appId: target.appId,
    appSecret: target.appSecret,
    method: exchange.sent.method,
    url: exchange.sent.url,
    status: exchange.status,
    authorization: headerOf(exchange.headers, 'authorization'),
    contentType: headerOf(exchange.headers, 'content-type'),
    body: exchange.body,
    requestedContentType: contentType,
  });
  const result: { [key: string]: Json } = {
    status,
    code,
    errorMessage,
    // what went on the wire, for the report's curl command that sends it again
    sent: {
      method: exchange.sent.method,
      url: exchange.sent.url,
      headers: exchange.sent.headers.map(([n, v]) => [n, v]),
      body: exchange.sent.body ? Buffer.from(exchange.sent.body).toString('utf8') : '',
    },
    ...checked,
  };
  return { result };
}

function mutation(
  kind: GatewayMutation,
  at: { url: string; body: string; timestamp: string; nonce: string; appSecret: string },
): Mutation {
  switch (kind) {
    case 'body':
      return { kind: 'body', body: changeLastDigit(at.body) };
    case 'url':
      return { kind: 'url', url: `${at.url}${at.url.includes('?') ? '&' : '?'}pgv2kit=1` };
    case 'method':
      return { kind: 'method', method: 'POST' };
    case 'timestamp':
      return { kind: 'timestamp', timestamp: String(Number(at.timestamp) + 1) };
    case 'nonce':
      return { kind: 'nonce', nonce: `${at.nonce}x` };
    case 'app-id':
      return { kind: 'appId', appId: 'app_pgv2kit_other_merchant' };
    case 'secret':
      return { kind: 'secret', appSecret: `${at.appSecret}-not-the-secret` };
    case 'unsigned':
      return { kind: 'authorization', form: () => null };
    case 'missing-item':
      return {
        kind: 'authorization',
        form: (items) =>
          `V2_SHA256 ${ITEM_NAMES.filter((n) => n !== 'nonce')
            .map((n) => `${n}=${items[n]}`)
            .join(',')}`,
      };
    case 'other-scheme':
      return { kind: 'authorization', form: (_, header) => header.replace(/^V2_SHA256/, 'V1_SHA256') };
    case 'header-ows':
      // not a change: SP and HTAB around a field value are not part of it (RFC 9110 §5.5)
      return { kind: 'authorization', form: (_, header) => ` ${header}\t` };
    case 'content-type':
      return { kind: 'contentType', value: 'text/plain' };
    case 'accept':
      return { kind: 'accept', value: 'text/html' };
    case 'no-content-type':
      return { kind: 'contentType', value: null };
    case 'no-accept':
      return { kind: 'accept', value: null };
    case 'content-type-charset':
      return { kind: 'contentType', value: 'application/json; charset=utf-8' };
    case 'replay':
    case 'stale-timestamp':
      // nothing changed after signing: apiCase sends twice, or signs with an old timestamp
      return { kind: 'authorization', form: (_, header) => header };
    default:
      return { kind: 'authorization', form: (items) => writtenOtherwise(kind, items) };
  }
}

type ItemName = (typeof ITEM_NAMES)[number];

/** The Authorization of a header mutation (R7, R8), from the four items the request was signed with. */
function writtenOtherwise(kind: GatewayMutation, items: Readonly<Record<ItemName, string>>): string | null {
  const pairs = ITEM_NAMES.map((n) => [n, items[n]] as [string, string]);
  const write = (list: Array<[string, string]>, separator = ','): string =>
    `V2_SHA256 ${list.map(([n, v]) => `${n}=${v}`).join(separator)}`;
  const named = /^(missing|empty|duplicate)-(app-id|sign|timestamp|nonce)(-differing)?$/.exec(kind);
  if (named) {
    const name = named[2] === 'app-id' ? 'appId' : (named[2] as ItemName);
    if (named[1] === 'missing') return write(pairs.filter(([n]) => n !== name));
    if (named[1] === 'empty') return write(pairs.map(([n, v]) => [n, n === name ? '' : v]));
    // the copy after the genuine item: one that keeps the first occurrence accepts nothing it should not either way
    const copy = named[3] ? changeLastCharacter(items[name]) : items[name];
    return write([...pairs, [name, copy]]);
  }
  switch (kind) {
    case 'no-items':
      return 'V2_SHA256';
    case 'item-without-equals':
      // the nonce item written without its "=": no nonce under any reading of R8, and an item that is not name=value
      return `V2_SHA256 ${pairs.map(([n, v]) => (n === 'nonce' ? `${n}${v}` : `${n}=${v}`)).join(',')}`;
    case 'sign-63-hex':
      return write(pairs.map(([n, v]) => [n, n === 'sign' ? v.slice(0, 63) : v]));
    case 'sign-65-hex':
      return write(pairs.map(([n, v]) => [n, n === 'sign' ? `${v}0` : v]));
    case 'sign-non-hex':
      return write(pairs.map(([n, v]) => [n, n === 'sign' ? `g${v.slice(1)}` : v]));
    case 'sign-upper-case':
      return write(pairs.map(([n, v]) => [n, n === 'sign' ? v.toUpperCase() : v]));
    case 'scheme-lower-case':
      return `v2_sha256 ${pairs.map(([n, v]) => `${n}=${v}`).join(',')}`;
    case 'items-reordered':
      return write([...pairs].reverse());
    case 'extra-item':
      return write([...pairs, ['x', '1']]);
    case 'space-after-comma':
      return write(pairs, ', ');
    default:
      throw new Error(`no Authorization form for the mutation ${kind}`);
  }
}

/** A different value of the same shape: its last character changed (a digit, a hex digit or a letter). */
function changeLastCharacter(value: string): string {
  const last = value.slice(-1);
  return `${value.slice(0, -1)}${last === '1' ? '2' : '1'}`;
}

async function uploadCase(
  target: GatewayTarget,
  base: string,
  body: { [key: string]: Json },
  input: OperationInput,
): Promise<Answer> {
  const filename = String(body['filename'] ?? '');
  const contentType = typeof body['contentType'] === 'string' ? body['contentType'] : null;
  const wait = input['waitBeforeUpload'];
  // checked before any request: a skipped case sends nothing
  if (typeof wait === 'number' && target.slow !== true) return { unsupported: { reason: slowCaseSkipped(wait) } };
  let credentials: UploadCredentials;
  try {
    credentials = await requestUploadCredentials({
      baseUrl: base,
      appId: target.appId,
      appSecret: target.appSecret,
      filename,
      contentType,
      scene: String(body['scene'] ?? ''),
      // the gateway decides (an upper-case extension, R13): the client's own check would refuse before it
      preflight: false,
      ...(target.timeoutMs ? { timeoutMs: target.timeoutMs } : {}),
    });
  } catch (e) {
    // a refused credentials request ends the case there: the check judges whether that may be (stage)
    if (e instanceof ClientError && e.status !== undefined)
      return {
        result: {
          stage: 'credentials',
          status: e.status,
          code: e.gatewayCode ?? null,
          errorMessage: e.message,
        },
      };
    throw e;
  }
  const size = typeof input['fileSize'] === 'number' ? input['fileSize'] : 1024;
  const file = countingBytes(size);
  if (typeof wait === 'number') await (target.sleep ?? realSleep)(wait * 1000);
  const broken = input['break'] as UploadBreak | undefined;
  const plan = planUpload(target, base, body, credentials, broken, {
    filename,
    contentType: contentType ?? 'application/octet-stream',
    file,
  });
  if (plan === undefined)
    return {
      unsupported: { reason: `the credentials carry no formFields entry this case breaks (${String(broken)})` },
    };
  if (broken === 'reuse-after-success') {
    // the first upload, as 4.2 asks, must be stored for the second to be a reuse of used credentials
    const first = await sendUpload(
      target,
      planUpload(target, base, body, credentials, undefined, {
        filename,
        contentType: contentType ?? 'application/octet-stream',
        file,
      }) as UploadPlan,
    );
    if (first.status !== 204)
      return {
        result: {
          stage: 'first-upload',
          status: first.status,
          errorMessage: `the first, correct upload was answered HTTP ${first.status}, not 204: ${first.text}`,
          sent: first.sent,
        },
      };
  }
  const answer = await sendUpload(target, plan);
  // a 204 has no body: an errorMessage only when the address said something
  const result: { [key: string]: Json } = { status: answer.status, sent: answer.sent };
  if (answer.text !== '') result['errorMessage'] = answer.text;
  return { result };
}

/** One part of an upload form, as sent. */
type PlanPart =
  | { readonly name: string; readonly value: string }
  | { readonly name: string; readonly filename: string; readonly contentType: string; readonly bytes: Uint8Array };

/** An upload request, built from the credentials and broken in at most one way. */
interface UploadPlan {
  readonly method: string;
  readonly url: string;
  /** Extra headers (the Content-Type comes from the body). */
  readonly headers: Array<[string, string]>;
  readonly body:
    | { readonly kind: 'multipart'; readonly parts: PlanPart[] }
    | { readonly kind: 'raw'; readonly contentType: string; readonly bytes: Uint8Array };
  /** What the case broke, for the report. */
  readonly changed?: string;
}

/** Vendor-prefixed entries of 2.4 (x-<vendor>-signature …), found by the end of their name. */
const ENTRY: Record<string, RegExp> = {
  bucket: /^bucket$/i,
  key: /^key$/i,
  policy: /^policy$/i,
  'Content-Type field': /^content-type$/i,
  tagging: /^tagging$/i,
  'signature entry': /^x-[^-]+-signature$/i,
  'credential entry': /^x-[^-]+-credential$/i,
  'algorithm entry': /^x-[^-]+-algorithm$/i,
  'date entry': /^x-[^-]+-date$/i,
};

const REMOVED: Partial<Record<UploadBreak, string>> = {
  'field-removed': 'policy',
  'key-removed': 'key',
  'signature-removed': 'signature entry',
  'bucket-removed': 'bucket',
  'content-type-field-removed': 'Content-Type field',
  'tagging-removed': 'tagging',
  'credential-removed': 'credential entry',
  'algorithm-removed': 'algorithm entry',
  'date-removed': 'date entry',
};

const CHANGED: Partial<Record<UploadBreak, string>> = {
  'field-changed': 'date entry',
  'key-changed': 'key',
  'policy-changed': 'policy',
  'content-type-field-changed': 'Content-Type field',
  'signature-changed': 'signature entry',
  'bucket-changed': 'bucket',
  'tagging-changed': 'tagging',
  'credential-changed': 'credential entry',
  'algorithm-changed': 'algorithm entry',
};

/** A value changed in its last character: a digit or letter moved on by one, so the length and alphabet stay. */
function changedValue(value: string, entry: string): string {
  if (entry === 'Content-Type field') return value === 'image/png' ? 'image/jpeg' : 'image/png';
  if (entry === 'key') return value.replace(/[^/]*$/, (last) => `other-${last}`);
  if (value === '') return 'x';
  const last = value[value.length - 1] as string;
  const next = /[0-8]/.test(last)
    ? String(Number(last) + 1)
    : last === '9'
      ? '0'
      : /[a-yA-Y]/.test(last)
        ? String.fromCharCode(last.charCodeAt(0) + 1)
        : /[zZ]/.test(last)
          ? 'a'
          : `${last}A`;
  // Base64 padding "=" is not a character to move on: change the last one before it
  if (last === '=') {
    const m = /^(.*?)([^=])(=+)$/.exec(value);
    if (m) return `${m[1] as string}${changedValue(m[2] as string, '')}${m[3] as string}`;
  }
  return `${value.slice(0, -1)}${next}`;
}

function planUpload(
  target: GatewayTarget,
  base: string,
  body: { [key: string]: Json },
  credentials: UploadCredentials,
  broken: UploadBreak | undefined,
  f: { filename: string; contentType: string; file: Uint8Array },
): UploadPlan | undefined {
  let fields = [...credentials.formFields].map(([n, v]) => [n, v] as [string, string]);
  const find = (entry: string): number => fields.findIndex(([n]) => (ENTRY[entry] as RegExp).test(n));
  let changed: string | undefined;
  let fileName = 'file';
  let fileFilename = f.filename;
  let fileType = f.contentType;
  let method = credentials.httpMethod;
  let url = credentials.uploadUrl;
  const headers: Array<[string, string]> = [];
  const removed = broken ? REMOVED[broken] : undefined;
  const altered = broken ? CHANGED[broken] : undefined;
  if (removed !== undefined) {
    const at = find(removed);
    if (at < 0) return undefined;
    changed = `${removed} removed (${(fields[at] as [string, string])[0]})`;
    fields = fields.filter((_, i) => i !== at);
  }
  if (altered !== undefined) {
    const at = find(altered);
    if (at < 0) return undefined;
    const [n, v] = fields[at] as [string, string];
    changed = `${altered} changed (${n})`;
    fields = fields.map(([fn, fv], i) => [fn, i === at ? changedValue(v, altered) : fv]);
  }
  const filePart = (): PlanPart => ({ name: fileName, filename: fileFilename, contentType: fileType, bytes: f.file });
  let parts: PlanPart[] | undefined;
  switch (broken) {
    case 'field-added':
      fields.push(['x-pgv2kit-added', '1']);
      changed = 'a text part added (x-pgv2kit-added)';
      break;
    case 'fields-reordered':
      fields.reverse();
      changed = 'the formFields entries in reverse order';
      break;
    case 'type-not-accepted':
      fileType = 'image/gif';
      changed = "the file part's own Content-Type image/gif";
      break;
    case 'file-named-upload':
    case 'file-named-File':
      fileName = broken === 'file-named-upload' ? 'upload' : 'File';
      changed = `the file part named ${fileName}`;
      break;
    case 'filename-differs':
      fileFilename = `other-${f.filename}`;
      changed = `the file part's filename ${fileFilename}`;
      break;
    case 'authorization-header':
      // the header the credentials request carried (same parts, signed again): a signature for another request (R14)
      headers.push(['Authorization', credentialsAuthorization(target, base, body)]);
      changed = "the credentials request's Authorization header added";
      break;
    case 'method-put':
      method = method.toUpperCase() === 'PUT' ? 'POST' : 'PUT';
      changed = `the method ${method}, not ${credentials.httpMethod}`;
      break;
    case 'address-not-issued': {
      const u = new URL(url);
      u.pathname = u.pathname.replace(
        /[^/]*(\/?)$/,
        (last, slash: string) => `pgv2kit-not-issued-${last.replace(/\/$/, '')}${slash}`,
      );
      url = u.toString();
      changed = 'the uploadUrl path changed (its last segment)';
      break;
    }
    default:
      break;
  }
  const texts: PlanPart[] = fields.map(([name, value]) => ({ name, value }));
  switch (broken) {
    case 'file-not-last':
      parts = [filePart(), ...texts];
      changed = 'the file part first';
      break;
    case 'no-file-part':
      parts = texts;
      changed = 'no file part';
      break;
    case 'two-file-parts':
      parts = [...texts, filePart(), filePart()];
      changed = 'the file part sent twice';
      break;
    case 'text-after-file':
      parts = [...texts, filePart(), { name: 'x-pgv2kit-after', value: '1' }];
      changed = 'a text part after the file (x-pgv2kit-after)';
      break;
    case 'entry-after-file': {
      // an issued entry moved behind the file: an address that reads only the fields before the file lacks it
      const at = Math.max(
        0,
        texts.findIndex((p) => /^policy$/i.test(p.name)),
      );
      parts = [...texts.filter((_, i) => i !== at), filePart(), texts[at] as PlanPart];
      changed = `the ${texts[at]?.name ?? 'first'} entry after the file part`;
      break;
    }
    case 'field-repeated':
    case 'key-repeated-changed': {
      const at = find('key') >= 0 ? find('key') : 0;
      const [n, v] = (fields[at] ?? ['key', '']) as [string, string];
      const again = broken === 'field-repeated' ? v : changedValue(v, 'key');
      parts = [...texts.slice(0, at + 1), { name: n, value: again }, ...texts.slice(at + 1), filePart()];
      changed = broken === 'field-repeated' ? `${n} sent twice, the same value` : `${n} sent twice, the second changed`;
      break;
    }
    case 'urlencoded-body': {
      const text = new URLSearchParams(fields).toString();
      return {
        method,
        url,
        headers,
        body: { kind: 'raw', contentType: 'application/x-www-form-urlencoded', bytes: Buffer.from(text, 'utf8') },
        changed: 'the formFields sent as application/x-www-form-urlencoded, no file',
      };
    }
    case 'raw-file-body':
      return {
        method,
        url,
        headers,
        body: { kind: 'raw', contentType: f.contentType, bytes: f.file },
        changed: 'the raw file bytes as the body, no form',
      };
    default:
      parts = [...texts, filePart()];
  }
  return { method, url, headers, body: { kind: 'multipart', parts }, ...(changed !== undefined ? { changed } : {}) };
}

/** What one upload request sent and got. */
interface SentUpload {
  readonly status: number;
  readonly text: string;
  readonly sent: { [key: string]: Json };
}

async function sendUpload(target: GatewayTarget, plan: UploadPlan): Promise<SentUpload> {
  let contentType: string;
  let bytes: Buffer;
  if (plan.body.kind === 'multipart') {
    const form: FormData = new (formData())();
    for (const p of plan.body.parts) {
      if ('value' in p) form.append(p.name, p.value);
      else form.append(p.name, Buffer.from(p.bytes), { filename: p.filename, contentType: p.contentType });
    }
    contentType = form.getHeaders()['content-type'] as string;
    bytes = form.getBuffer();
  } else {
    contentType = plan.body.contentType;
    bytes = Buffer.from(plan.body.bytes);
  }
  const headers: Array<[string, string]> = [['Content-Type', contentType], ...plan.headers];
  const timeoutMs = target.timeoutMs ?? 10_000;
  const r = await undici().request(plan.url, {
    method: plan.method as 'POST',
    headers: Object.fromEntries(headers),
    body: bytes,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  // the refusal's first bytes are what the check shows: the rest is not read (an answer of 1 GiB costs 64 KiB)
  const text = (await readHead(r.body, 64 * 1024)).toString('utf8');
  return { status: r.statusCode, text: text.slice(0, 300), sent: describeSent(plan, headers, bytes.length) };
}

/**
 * What went on the wire, for reports: text parts with their whole value (formFields are a few hundred bytes; a
 * value over 8 KiB is clipped, and the report's curl command then sends it as recorded), the file part with its
 * filename, type and size (its bytes are the kit's test file: byte i is i mod 256). A body that is not multipart is
 * named by its type and size. The Authorization header of the authorization-header case is a signature of another
 * request, never the secret; formFields carry no secret of the merchant (5.7: they are the storage's policy).
 */
function describeSent(plan: UploadPlan, headers: Array<[string, string]>, size: number): { [key: string]: Json } {
  const form: { [key: string]: Json } =
    plan.body.kind === 'multipart'
      ? {
          parts: plan.body.parts.map((p): Json =>
            'value' in p
              ? { name: p.name, size: Buffer.byteLength(p.value), value: clip(p.value, 8192) }
              : { name: p.name, filename: p.filename, contentType: p.contentType, size: p.bytes.byteLength },
          ),
        }
      : { bodyType: plan.body.contentType };
  return {
    method: plan.method,
    url: plan.url,
    headers: headers.map(([n, v]) => [n, v]),
    ...form,
    bodySize: size,
    ...(plan.changed !== undefined ? { changed: plan.changed } : {}),
  };
}

function credentialsAuthorization(target: GatewayTarget, base: string, body: { [key: string]: Json }): string {
  const timestamp = String(Date.now());
  const nonce = `pgv2kit-${Math.random().toString(16).slice(2, 14)}`;
  const request = JSON.stringify({
    filename: body['filename'],
    contentType: body['contentType'] ?? undefined,
    scene: body['scene'],
  });
  const value = sign({
    appId: target.appId,
    appSecret: target.appSecret,
    method: 'POST',
    url: `${base}${CREDENTIALS_PATH}`,
    timestamp,
    nonce,
    body: request,
  });
  return formatAuthorization({ appId: target.appId, sign: value, timestamp, nonce });
}

function realSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function headerOf(headers: unknown, name: string): string | null {
  if (Array.isArray(headers)) {
    const found = (headers as Array<[string, string]>).find(([n]) => n.toLowerCase() === name);
    return found ? found[1] : null;
  }
  if (headers && typeof headers === 'object') {
    const v = (headers as Record<string, unknown>)[name];
    return typeof v === 'string' ? v : Array.isArray(v) ? String(v[0]) : null;
  }
  return null;
}
