/**
 * The gateway role's subject: a gateway server under test, seen through the kit's
 * reference client (`pgv2kit run --gateway <base_url>`). Each operation sends one
 * request as the merchant — correct, or changed in one way after signing, or an
 * upload with one rule of 4.2 broken — and answers with what came back, for the
 * gateway check (src/checks/gateway.ts) to judge.
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
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        return { rejected: { reason: 'input body must be an object' } };
      try {
        if (op === 'gateway.upload') return await uploadCase(target, base, body, input);
        if (op !== 'gateway.generateUploadUrl' && op !== 'gateway.createPayment')
          return { unsupported: { reason: `${op} is not a gateway operation` } };
        return await apiCase(
          target,
          `${base}${PATHS[op]}`,
          op,
          JSON.stringify(body),
          input['mutate'] as GatewayMutation | undefined,
        );
      } catch (e) {
        return { rejected: { reason: e instanceof Error ? e.message : String(e) } };
      }
    },
  };
}

// --- internal ---

async function apiCase(
  target: GatewayTarget,
  url: string,
  op: keyof typeof PATHS,
  body: string,
  mutate: GatewayMutation | undefined,
): Promise<Answer> {
  const timestamp = String(Date.now());
  const nonce = `pgv2kit-${Math.random().toString(16).slice(2, 14)}`;
  const signedMethod = mutate === 'method' ? 'PUT' : 'POST';
  const exchange = await signedRequest({
    method: signedMethod,
    url,
    appId: target.appId,
    appSecret: target.appSecret,
    body,
    clock: () => Number(timestamp),
    nonce,
    ...(target.timeoutMs ? { timeoutMs: target.timeoutMs } : {}),
    ...(mutate ? { mutate: mutation(mutate, { url, body, timestamp, nonce, appSecret: target.appSecret }) } : {}),
  });
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
    const problem = envelope ? dataProblem(op, envelope.data) : 'the body is not JSON';
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
  }
}

function dataProblem(op: keyof typeof PATHS, data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'data is not an object';
  const d = data as Record<string, unknown>;
  if (op === 'gateway.createPayment')
    return typeof d['paymentNo'] === 'string' ? undefined : 'data.paymentNo is not a string';
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
