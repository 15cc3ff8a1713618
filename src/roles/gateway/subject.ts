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
  uploadFile,
  type Mutation,
  type UploadCredentials,
} from '../../client/index.js';
import { ITEM_NAMES, formatAuthorization } from '../../scheme/authorization.js';
import { countingBytes } from '../../scheme/bytes.js';
import { sign } from '../../scheme/sign.js';
import { changeLastDigit } from '../../scheme/tamper.js';
import { verifyResponse } from '../../scheme/verify.js';
import { readHead } from '../merchant/as-gateway/send.js';
import type { GatewayMutation, UploadBreak } from '../../vectors/types.js';
import type { Answer, Json, OperationInput, Subject, TargetNaming } from '../../subjects/subject.js';
import { httpImplementation } from '../../subjects/http-implementation.js';

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

/** The contentType a credentials body asked for, when it is a JSON object with a string contentType (2.4). */
function requestedContentType(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const value = (parsed as Record<string, unknown>)['contentType'];
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
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
  const text = Buffer.from(exchange.body).toString('utf8');
  let envelope: { code?: unknown; errorMessage?: unknown; data?: unknown } | undefined;
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    envelope = undefined;
  }
  const result: { [key: string]: Json } = {
    status: exchange.status,
    code: typeof envelope?.code === 'string' ? envelope.code : null,
    errorMessage: typeof envelope?.errorMessage === 'string' ? envelope.errorMessage : null,
    // what went on the wire, for the report's curl command that sends it again
    sent: {
      method: exchange.sent.method,
      url: exchange.sent.url,
      headers: exchange.sent.headers.map(([n, v]) => [n, v]),
      body: exchange.sent.body ? Buffer.from(exchange.sent.body).toString('utf8') : '',
    },
  };
  if (exchange.status === 200) {
    const authorization = headerOf(exchange.headers, 'authorization');
    const verdict = verifyResponse({
      appId: target.appId,
      appSecret: target.appSecret,
      method: exchange.sent.method,
      url: exchange.sent.url,
      status: 200,
      authorization,
      body: exchange.body,
    });
    result['verified'] = verdict.valid;
    if (!verdict.valid) result['verifyProblem'] = verdict.message;
    result['contentType'] = headerOf(exchange.headers, 'content-type');
    // present and not null is what 2.3/7 rule out on success: absent or null both pass
    if (typeof envelope === 'object' && envelope !== null && 'errorMessage' in envelope)
      result['errorMessageRaw'] = (envelope.errorMessage ?? null) as Json;
    const problem = envelope ? dataProblem(op, envelope.data, contentType) : 'the body is not JSON';
    if (problem) result['dataProblem'] = problem;
  }
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

function dataProblem(op: keyof typeof PATHS, data: unknown, contentType: string | undefined): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'data is not an object';
  const d = data as Record<string, unknown>;
  if (op === 'gateway.createPayment')
    return typeof d['paymentNo'] === 'string' ? undefined : 'data.paymentNo is not a string';
  // httpMethod: a string; "POST in the shown case" (2.4) is no rule, the client uses what is returned (4.2)
  for (const f of ['uploadUrl', 'storageUri', 'uploadNo', 'httpMethod'])
    if (typeof d[f] !== 'string') return `data.${f} is not a string (2.4)`;
  if (!/^[a-z][a-z0-9+.-]*:\/\/.+\/[^/]+\.[^./]+$/i.test(String(d['storageUri'])))
    return 'data.storageUri is not <scheme>://<path>/<name>.<extension> (2.4)';
  if (!/^\d+-[0-9a-f]+$/i.test(String(d['uploadNo']))) return 'data.uploadNo is not <digits>-<hex> (2.4)';
  const ff = d['formFields'];
  if (
    typeof ff !== 'object' ||
    ff === null ||
    Array.isArray(ff) ||
    !Object.values(ff).every((v) => typeof v === 'string')
  )
    return 'data.formFields is not an object of strings (2.4)';
  // 2.4: the Content-Type entry "equals the requested contentType"; without a requested one, any value passes. The
  // name is matched without regard to case, as the upload form's field names are (S3 POST policies)
  const typeEntry = Object.entries(ff).find(([n]) => n.toLowerCase() === 'content-type');
  if (contentType !== undefined && typeEntry && typeEntry[1] !== contentType)
    return (
      `data.formFields ${JSON.stringify(typeEntry[0])} is ${JSON.stringify(typeEntry[1])}, not the requested ` +
      `contentType ${JSON.stringify(contentType)} (2.4: equals the requested contentType)`
    );
  return undefined;
}

async function uploadCase(
  target: GatewayTarget,
  base: string,
  body: { [key: string]: Json },
  input: OperationInput,
): Promise<Answer> {
  const filename = String(body['filename'] ?? '');
  const contentType = typeof body['contentType'] === 'string' ? body['contentType'] : null;
  const credentials = await requestUploadCredentials({
    baseUrl: base,
    appId: target.appId,
    appSecret: target.appSecret,
    filename,
    contentType,
    scene: String(body['scene'] ?? ''),
  });
  const size = typeof input['fileSize'] === 'number' ? input['fileSize'] : 1024;
  const file = countingBytes(size);
  const broken = input['break'] as UploadBreak | undefined;
  if (!broken || broken === 'over-size') {
    try {
      await uploadFile(credentials, { filename, contentType, file });
      return { result: { status: 204 } };
    } catch (e) {
      if (e instanceof ClientError && e.status !== undefined)
        return { result: { status: e.status, errorMessage: e.message } };
      throw e;
    }
  }
  // the header the credentials request carried (same parts, signed again): a signature for another request (R14)
  const authorization = broken === 'authorization-header' ? credentialsAuthorization(target, base, body) : undefined;
  return {
    result: await brokenUpload(
      target,
      credentials,
      broken,
      filename,
      contentType ?? 'application/octet-stream',
      file,
      authorization,
    ),
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

async function brokenUpload(
  target: GatewayTarget,
  credentials: UploadCredentials,
  broken: Exclude<UploadBreak, 'over-size'>,
  filename: string,
  contentType: string,
  file: Uint8Array,
  authorization?: string,
): Promise<{ [key: string]: Json }> {
  let fields = [...credentials.formFields].map(([n, v]) => [n, v] as [string, string]);
  if (broken === 'field-removed') {
    const at = Math.max(
      0,
      fields.findIndex(([n]) => n === 'policy'),
    );
    fields = fields.filter((_, i) => i !== at);
  }
  if (broken === 'field-changed') {
    const at = Math.max(
      0,
      fields.findIndex(([n]) => /-date$/i.test(n)),
    );
    fields = fields.map(([n, v], i) => [n, i === at ? `${v}0` : v]);
  }
  if (broken === 'field-added') fields.push(['x-pgv2kit-added', '1']);
  if (broken === 'fields-reordered') fields.reverse();
  const form: FormData = new (formData())();
  const filePart = (): void =>
    form.append('file', Buffer.from(file), {
      filename,
      contentType: broken === 'type-not-accepted' ? 'image/gif' : contentType,
    });
  if (broken === 'file-not-last') filePart();
  for (const [n, v] of fields) form.append(n, v);
  if (broken !== 'file-not-last') filePart();
  const timeoutMs = target.timeoutMs ?? 10_000;
  const headers = { ...form.getHeaders(), ...(authorization !== undefined ? { authorization } : {}) };
  const r = await undici().request(credentials.uploadUrl, {
    method: credentials.httpMethod as 'POST',
    headers,
    body: form.getBuffer(),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  // the refusal's first bytes are what the check shows: the rest is not read (an answer of 1 GiB costs 64 KiB)
  const text = (await readHead(r.body, 64 * 1024)).toString('utf8');
  return { status: r.statusCode, errorMessage: text.slice(0, 300) };
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
