/**
 * The client zoo's mini SDK: a small, correct merchant client for the two operations a
 * client-role case runs end to end against the reference gateway — the two-step upload
 * (spec §4.1, §4.2) and payment creation (§4.3) — written the way an SDK is written:
 * undici for HTTP, the kit's signer (`sign`, `formatAuthorization`), the kit's response
 * verifier (`verifyResponse`) and the kit's upload form (`buildUploadForm`), one method
 * per step, `JSON.parse` for the envelope.
 *
 * A client zoo member subclasses {@link ZooClient} and overrides the ONE method that
 * holds its bug (what part 4 is, what bytes go on the wire, how a response is verified,
 * which formFields are forwarded, the part order, the payment model, the status check…).
 * The methods call each other as a real SDK's do, so the bug reaches every request that
 * goes through the method, whatever the case: nothing here looks at the case id.
 *
 * The SDK itself (no override) passes every client case: the client zoo test checks that
 * as its control run, so a member's failures are its bug's.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { formatAuthorization } from '../../../src/scheme/authorization.js';
import { sign } from '../../../src/scheme/sign.js';
import { verifyResponse } from '../../../src/scheme/verify.js';
import { createReferenceSubject } from '../../../src/subjects/reference.js';
import type { Operation } from '../../../src/protocol/operations.js';
import type { Answer, Json, OperationInput, Subject } from '../../../src/subjects/subject.js';
import { buildUploadForm } from '../../../src/upload/index.js';

/** The merchant's own credentials. */
export interface Creds {
  readonly appId: string;
  readonly appSecret: string;
}

/** A [name, value] formFields entry, in the order the credentials response gave it. */
export type FormField = readonly [string, string];

/** The inputs of {@link ZooClient.upload}. */
export interface UploadArgs extends Creds {
  readonly baseUrl: string;
  readonly filename: string;
  /** null: the credentials request carries no contentType. */
  readonly contentType: string | null;
  readonly scene: string;
  readonly file: Buffer;
}

/** The inputs of {@link ZooClient.createPayment}. */
export interface PaymentArgs extends Creds {
  readonly baseUrl: string;
  readonly payment: { readonly [key: string]: Json };
}

/** One exchange: what was sent (method, URL) and what came back. */
export interface Exchange {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  /** The response's Authorization header; null when absent or sent more than once. */
  readonly authorization: string | null;
  /** The raw response bytes. */
  readonly body: Buffer;
}

/** The upload credentials of §2.4. */
export interface UploadCredentials {
  readonly uploadUrl: string;
  readonly httpMethod: string;
  readonly storageUri: string;
  readonly uploadNo: string;
  readonly formFields: readonly FormField[];
}

/** The SDK's own failure: the subject answers it as `rejected`. */
export class ZooClientError extends Error {}

/** The paths of the two operations (§4.1, §4.3). */
export const CREDENTIALS_PATH = '/pg/v2/file/generateUploadUrl';
export const PAYMENT_PATH = '/pg/v2/payment/create';

/** The mini client SDK, correct as written; members override one method. */
export class ZooClient {
  // --- signing a request (§5.1–§5.3) ---

  /** Part 4 of the content: the full URL the request is sent to (R4). */
  signedUrl(url: string): string {
    return url;
  }

  /** The Authorization header of a request: V2_SHA256 over the seven parts, a fresh timestamp and nonce. */
  authorization(creds: Creds, method: string, url: string, body: string): string {
    const timestamp = String(Date.now());
    const nonce = randomBytes(16).toString('hex');
    const value = sign({ ...creds, method, url: this.signedUrl(url), timestamp, nonce, body });
    return formatAuthorization({ appId: creds.appId, sign: value, timestamp, nonce });
  }

  /** The bytes put on the wire for a JSON payload: the text that was signed. */
  wireBody(_payload: object, signed: string): string {
    return signed;
  }

  /** POSTs a JSON payload to an operation, signed (§5.1–§5.3); the response as received. */
  async post(creds: Creds, url: string, payload: object): Promise<Exchange> {
    const body = JSON.stringify(payload);
    const authorization = this.authorization(creds, 'POST', url, body);
    return this.send(
      'POST',
      url,
      { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: authorization },
      this.wireBody(payload, body),
    );
  }

  /** One HTTP exchange with undici; a network failure is the SDK's error. */
  async send(method: string, url: string, headers: Record<string, string>, body: string | Buffer): Promise<Exchange> {
    try {
      const r = await request(url, { method: method as 'POST', headers, body });
      const bytes = Buffer.from(await r.body.arrayBuffer());
      const auth = r.headers['authorization'];
      const authorization = Array.isArray(auth) ? (auth.length === 1 ? (auth[0] ?? null) : null) : (auth ?? null);
      return { method, url, status: r.statusCode, authorization, body: bytes };
    } catch (e) {
      throw new ZooClientError(`${method} ${url}: network failure: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  // --- reading a response (§2.3, §5.4) ---

  /** The bytes a response is verified over: the raw bytes received (§5.4). */
  verifiedBytes(raw: Buffer): Uint8Array {
    return raw;
  }

  /** Whether a 200 is authentic: signed by the gateway for this merchant over the bytes (§5.4, R9). */
  authentic(ex: Exchange, creds: Creds): boolean {
    return verifyResponse({
      ...creds,
      method: ex.method,
      url: ex.url,
      status: ex.status,
      authorization: ex.authorization,
      body: this.verifiedBytes(ex.body),
    }).valid;
  }

  /** Refuses a response that is not an authentic 200 (§5.4, §7). */
  assertAuthentic(ex: Exchange, creds: Creds, what: string): void {
    if (ex.status !== 200)
      throw new ZooClientError(`${what}: HTTP ${ex.status}: ${ex.body.toString('utf8').slice(0, 300)}`);
    if (!this.authentic(ex, creds)) throw new ZooClientError(`${what}: the response signature does not verify`);
  }

  /** The envelope of §2.3, parsed. */
  envelope(ex: Exchange, what: string): { code: string; data: { [key: string]: unknown } | undefined } {
    if (ex.status !== 200)
      throw new ZooClientError(`${what}: HTTP ${ex.status}: ${ex.body.toString('utf8').slice(0, 300)}`);
    let value: unknown;
    try {
      value = JSON.parse(ex.body.toString('utf8'));
    } catch {
      throw new ZooClientError(`${what}: the body is not JSON`);
    }
    if (typeof value !== 'object' || value === null) throw new ZooClientError(`${what}: the body is not an object`);
    const { code, data } = value as { code?: unknown; data?: unknown };
    if (typeof code !== 'string') throw new ZooClientError(`${what}: no code`);
    return { code, data: typeof data === 'object' && data !== null ? (data as { [key: string]: unknown }) : undefined };
  }

  // --- the upload (§4.1, §4.2) ---

  /** Step 1: asks for credentials; the response as received. */
  async requestCredentials(args: UploadArgs): Promise<Exchange> {
    const payload = { filename: args.filename, contentType: args.contentType ?? undefined, scene: args.scene };
    return this.post(args, endpoint(args.baseUrl, CREDENTIALS_PATH), payload);
  }

  /** The credentials of §2.4 from a response: code OK, the data's strings, formFields in the order received. */
  readCredentials(ex: Exchange): UploadCredentials {
    const { code, data } = this.envelope(ex, 'credentials');
    if (code !== 'OK' || !data) throw new ZooClientError(`credentials: code ${code}`);
    const text = (name: string): string => {
      const v = data[name];
      if (typeof v !== 'string') throw new ZooClientError(`credentials: data.${name} is not a string`);
      return v;
    };
    const fields = data['formFields'];
    if (typeof fields !== 'object' || fields === null) throw new ZooClientError('credentials: no formFields');
    const formFields = Object.entries(fields).map(([name, value]) => [name, String(value)] as const);
    return {
      uploadUrl: text('uploadUrl'),
      httpMethod: text('httpMethod'),
      storageUri: text('storageUri'),
      uploadNo: text('uploadNo'),
      formFields,
    };
  }

  /** The formFields entries sent as text parts: every one, as received (§4.2, R14, R15). */
  fieldsToSend(fields: readonly FormField[]): FormField[] {
    return [...fields];
  }

  /** The multipart body of §4.2: the formFields, then the file part last (the kit's buildUploadForm). */
  form(
    fields: readonly FormField[],
    filename: string,
    contentType: string,
    file: Buffer,
  ): { contentType: string; body: Uint8Array } {
    return buildUploadForm({ formFields: fields, filename, contentType, file });
  }

  /** Whether the upload address stored the file: HTTP 204 (§3, §4.2). */
  uploaded(status: number): boolean {
    return status === 204;
  }

  /** Step 2: sends the file with the credentials' method to the uploadUrl. */
  async sendFile(c: UploadCredentials, args: UploadArgs): Promise<void> {
    const form = this.form(this.fieldsToSend(c.formFields), args.filename, args.contentType ?? '', args.file);
    const ex = await this.send(
      c.httpMethod,
      c.uploadUrl,
      { 'Content-Type': form.contentType },
      Buffer.from(form.body.buffer, form.body.byteOffset, form.body.byteLength),
    );
    if (!this.uploaded(ex.status))
      throw new ZooClientError(`upload: HTTP ${ex.status}: ${ex.body.toString('utf8').slice(0, 300)}`);
  }

  /** The whole upload: credentials, verified before anything in them is used, then the file. */
  async upload(args: UploadArgs): Promise<{ storageUri: string; uploadNo: string }> {
    const ex = await this.requestCredentials(args);
    this.assertAuthentic(ex, args, 'credentials');
    const c = this.readCredentials(ex);
    await this.sendFile(c, args);
    return { storageUri: c.storageUri, uploadNo: c.uploadNo };
  }

  // --- payment creation (§2.5, §4.3) ---

  /** The payment body as the SDK's model writes it: the fields as given (amount a decimal string, 2.5). */
  paymentBody(payment: { readonly [key: string]: Json }): object {
    return payment;
  }

  /** Creates a payment; the response verified like every other. */
  async createPayment(args: PaymentArgs): Promise<{ code: string; paymentNo: string | null }> {
    const ex = await this.post(args, endpoint(args.baseUrl, PAYMENT_PATH), this.paymentBody(args.payment));
    this.assertAuthentic(ex, args, 'payment');
    const { code, data } = this.envelope(ex, 'payment');
    const paymentNo = data?.['paymentNo'];
    return { code, paymentNo: typeof paymentNo === 'string' ? paymentNo : null };
  }
}

/** The operations a client zoo member answers with its SDK; every other one goes to the reference. */
export const CLIENT_OPERATIONS: readonly Operation[] = ['client.upload', 'client.createPayment'];

/**
 * A subject: the reference, with client.upload and client.createPayment answered by the SDK.
 * An error of the SDK ({@link ZooClientError}) is a refusal, as a real SDK's exception is.
 * @param name - the member's name
 * @param sdk - the (buggy) SDK
 * @returns the subject
 */
export function clientSubject(name: string, sdk: ZooClient): Subject {
  const reference = createReferenceSubject();
  return {
    implementation: { name: `zoo-client/${name}`, version: '0', language: 'typescript' },
    operations: reference.operations,
    async call(op: Operation, input: OperationInput, caseId: string): Promise<Answer> {
      try {
        if (op === 'client.upload') {
          const contentType = input['contentType'];
          const result = await sdk.upload({
            baseUrl: str(input, 'baseUrl'),
            appId: str(input, 'appId'),
            appSecret: str(input, 'appSecret'),
            filename: str(input, 'filename'),
            contentType: typeof contentType === 'string' ? contentType : null,
            scene: str(input, 'scene'),
            file: Buffer.from(str(input, 'fileB64'), 'base64'),
          });
          return { result };
        }
        if (op === 'client.createPayment') {
          const payment = input['payment'];
          if (typeof payment !== 'object' || payment === null || Array.isArray(payment))
            return { rejected: { reason: 'input payment must be an object' } };
          const result = await sdk.createPayment({
            baseUrl: str(input, 'baseUrl'),
            appId: str(input, 'appId'),
            appSecret: str(input, 'appSecret'),
            payment,
          });
          return { result };
        }
      } catch (e) {
        if (e instanceof ZooClientError) return { rejected: { reason: e.message } };
        throw e;
      }
      return reference.call(op, input, caseId);
    },
  };
}

// --- internal ---

function endpoint(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

function str(input: OperationInput, name: string): string {
  const v = input[name];
  if (typeof v !== 'string') throw new ZooClientError(`input ${name} must be a string`);
  return v;
}
