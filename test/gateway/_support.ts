/**
 * Test support for the reference gateway: requests built by hand (signature content
 * written out and hashed with node:crypto, multipart bodies written byte by byte), so
 * that expected values never come from the gateway's own code.
 */
import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request } from 'undici';
import type { Gateway } from '../../src/gateway/index.js';

export const MERCHANT = { appId: 'app_gw_7f3a', appSecret: 'sk_gw_Q2x9-secret' } as const;
export const OTHER = { appId: 'app_gw_other', appSecret: 'sk_gw_other-secret' } as const;
export const CREDENTIALS_PATH = '/pg/v2/file/generateUploadUrl';
export const PAYMENT_PATH = '/pg/v2/payment/create';
export const PDF_BODY = '{"filename":"evidence.pdf","contentType":"application/pdf","scene":"DISPUTE_EVIDENCE"}';

/** The V2_SHA256 header, content written out by hand (5.1–5.3). */
export function authHeader(parts: {
  appId?: string;
  appSecret?: string;
  method?: string;
  url: string;
  body: string | Uint8Array;
  timestamp?: string;
  nonce?: string;
}): string {
  const appId = parts.appId ?? MERCHANT.appId;
  const appSecret = parts.appSecret ?? MERCHANT.appSecret;
  const timestamp = parts.timestamp ?? String(Date.now());
  const nonce = parts.nonce ?? randomBytes(8).toString('hex');
  const head = `${appId}\n${appSecret}\n${parts.method ?? 'POST'}\n${parts.url}\n${timestamp}\n${nonce}\n`;
  const sign = createHash('sha256').update(head, 'utf8').update(parts.body).update('\n').digest('hex');
  return `V2_SHA256 appId=${appId},sign=${sign},timestamp=${timestamp},nonce=${nonce}`;
}

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly bytes: Buffer;
  readonly text: string;
}

/** Sends a request with undici and reads the whole answer. */
export async function send(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array },
): Promise<Answer> {
  const r = await request(url, {
    method: (init.method ?? 'POST') as 'POST',
    headers: init.headers ?? {},
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  const bytes = Buffer.from(await r.body.arrayBuffer());
  return { status: r.statusCode, headers: r.headers, bytes, text: bytes.toString('utf8') };
}

/** A signed JSON POST as a correct client sends it. */
export function signedPost(
  url: string,
  body: string,
  extra: Record<string, string> = {},
  merchant: { appId: string; appSecret: string } = MERCHANT,
): Promise<Answer> {
  return send(url, {
    body,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: authHeader({ ...merchant, url, body }),
      ...extra,
    },
  });
}

/** The credentials of a scenario (or the plain gateway), asserting success. */
export async function credentials(
  gateway: Gateway,
  scenarioId: string | undefined,
  body = PDF_BODY,
): Promise<{ answer: Answer; url: string; data: CredentialsData }> {
  const url = `${scenarioId === undefined ? gateway.baseUrl : gateway.url(scenarioId)}${CREDENTIALS_PATH}`;
  const answer = await signedPost(url, body);
  if (answer.status !== 200) throw new Error(`credentials: ${answer.status} ${answer.text}`);
  return { answer, url, data: (JSON.parse(answer.text) as { data: CredentialsData }).data };
}

export interface CredentialsData {
  uploadUrl: string;
  storageUri: string;
  uploadNo: string;
  formFields: Record<string, string>;
  httpMethod: string;
}

/** A part of a hand-written multipart body. */
export type FormPart =
  { name: string; value: string } | { name: string; filename: string; contentType?: string; data: Uint8Array };

export const BOUNDARY = 'gw-test-Boundary-7MA4YWxk';

/** A multipart/form-data body written byte by byte. */
export function multipart(parts: readonly FormPart[], boundary = BOUNDARY): { contentType: string; body: Buffer } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition =
      'filename' in p ? `form-data; name="${p.name}"; filename="${p.filename}"` : `form-data; name="${p.name}"`;
    const type = 'filename' in p && p.contentType !== undefined ? `Content-Type: ${p.contentType}\r\n` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`, 'utf8'));
    chunks.push('filename' in p ? Buffer.from(p.data) : Buffer.from(p.value, 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
}

/** The form a correct client sends: every formFields entry in order, then the file. */
export function correctForm(
  data: CredentialsData,
  file: Uint8Array,
  filename = 'evidence.pdf',
  contentType = 'application/pdf',
): FormPart[] {
  return [
    ...Object.entries(data.formFields).map(([name, value]) => ({ name, value })),
    { name: 'file', filename, contentType, data: file },
  ];
}

/** POSTs a form to an uploadUrl. */
export function postForm(uploadUrl: string, parts: readonly FormPart[]): Promise<Answer> {
  const { contentType, body } = multipart(parts);
  return send(uploadUrl, { body, headers: { 'content-type': contentType } });
}

/** n bytes, byte i = i mod 256 (every byte value). */
export function everyByte(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = i % 256;
  return out;
}

/** The text of one XML element of an S3-style error. */
export function xmlElement(xml: string, name: string): string | undefined {
  return new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];
}

/** What {@link streamRequest} saw. */
export interface Streamed {
  readonly status: number;
  readonly text: string;
  /** Bytes written when the answer's head arrived (-1: no answer). */
  readonly sentBeforeAnswer: number;
  /** Bytes written in all. */
  readonly sent: number;
  readonly total: number;
  /** The connection broke while still writing. */
  readonly cut: boolean;
  /** The answer's Connection header, if any. */
  readonly connection: string | undefined;
}

/**
 * Sends a body in 256 KiB pieces with node:http (chunked unless a content-length header
 * is given), noting how much was written when the answer arrived; stops writing then.
 */
export function streamRequest(
  target: string,
  headers: Record<string, string>,
  body: Buffer,
  pauseAfter = Number.POSITIVE_INFINITY,
): Promise<Streamed> {
  const url = new URL(target);
  return new Promise((resolve) => {
    let sent = 0;
    let answered = -1;
    let status = 0;
    let text = '';
    let cut = false;
    let responseDone = false;
    let writingDone = false;
    let crossedAt: number | undefined;
    let connection: string | undefined;
    const finish = (): void => {
      if (responseDone && writingDone)
        resolve({ status, text, sentBeforeAnswer: answered, sent, total: body.length, cut, connection });
    };
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: headers['content-length'] ? headers : { ...headers, 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      answered = sent;
      status = res.statusCode ?? 0;
      connection = res.headers.connection;
      res.setEncoding('utf8');
      res.on('data', (c: string) => void (text += c));
      res.on('end', () => {
        responseDone = true;
        finish();
      });
    });
    const broken = (): void => {
      if (writingDone) return;
      cut = sent < body.length;
      writingDone = true;
      responseDone ||= answered < 0;
      finish();
    };
    req.on('error', broken);
    req.on('close', broken);
    const pump = (): void => {
      if (writingDone) return;
      if (answered >= 0 || sent >= body.length) {
        writingDone = true;
        if (sent >= body.length) req.end();
        else req.destroy();
        finish();
        return;
      }
      // past the limit (pauseAfter), give the gateway up to 3 s to answer before sending
      // more: an early refusal is then seen as one even on a loaded machine
      if (sent > pauseAfter && Date.now() - (crossedAt ??= Date.now()) < 3000) {
        setTimeout(pump, 20);
        return;
      }
      const piece = body.subarray(sent, sent + 256 * 1024);
      sent += piece.length;
      if (!req.write(piece)) req.once('drain', () => setTimeout(pump, 2));
      else setTimeout(pump, 2);
    };
    pump();
  });
}
