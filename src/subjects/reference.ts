/**
 * The reference subject: the kit's own implementation of every rule (src/scheme,
 * src/upload) behind the operations of protocol v1. It is what `pgv2kit run` checks
 * when no target is given, and what the Node example adapter wraps.
 * @module
 */
import { formatAuthorization, parseAuthorization } from '../scheme/authorization.js';
import { fromBase64, toBase64 } from '../scheme/bytes.js';
import { signatureContent } from '../scheme/content.js';
import { ClientError } from '../client/errors.js';
import { createPayment } from '../client/create-payment.js';
import type { ClientOptions } from '../client/options.js';
import { upload } from '../client/upload.js';
import { verifyRedirect } from '../scheme/redirect.js';
import { sign } from '../scheme/sign.js';
import {
  verifyRequest,
  verifyResponse,
  verifyWebhook,
  type VerifyOptions,
  type VerifyOutcome,
} from '../scheme/verify.js';
import { buildUploadForm, checkUploadBody, validateCredentialsRequest } from '../upload/index.js';
import { kitVersion } from '../version.js';
import type { Operation } from '../protocol/operations.js';
import type { Answer, Json, OperationInput, Subject } from './subject.js';
import { Pgv2kitError } from '../errors.js';

/** Options of {@link createReferenceSubject}: the choices the readings leave open, and the client's. */
export interface ReferenceOptions extends VerifyOptions {
  /**
   * Options of the reference client behind `client.upload` and `client.createPayment`
   * (timeouts, clock, nonce, dispatcher). Its response verification uses the choices above.
   */
  readonly client?: Omit<ClientOptions, 'verify'>;
}

/**
 * Creates the reference subject.
 * @param options - choices where the readings leave room (R7, R8), and the client's options
 * @returns a subject offering every protocol v1 operation, plus `upload.formCheck`. The
 *   `client.*` operations make real HTTP calls with the reference client (src/client) to the
 *   input's baseUrl; a {@link ClientError} (a response that does not verify, a refusal, a
 *   failed upload, a network failure) answers `rejected` with its code and message.
 * @example const answer = await createReferenceSubject().call('signature.sign', input, 'signature.x');
 */
export function createReferenceSubject(options: ReferenceOptions = {}): Subject {
  const { client: clientOptions, ...verifyOptions } = options;
  const client: ClientOptions = { ...clientOptions, verify: verifyOptions };
  const handlers: Partial<Record<Operation, (input: Input) => Promise<Answer> | Answer>> = {
    'signature.content': (i) => ok({ contentB64: toBase64(signatureContent(parts(i))) }),
    'signature.sign': (i) => ok({ sign: sign(parts(i)) }),
    'authorization.format': (i) =>
      ok({
        header: formatAuthorization({
          appId: i.str('appId'),
          sign: i.str('sign'),
          timestamp: i.str('timestamp'),
          nonce: i.str('nonce'),
        }),
      }),
    'authorization.parse': (i) => {
      const parsed = parseAuthorization(i.str('header'));
      return parsed.ok ? ok({ ...parsed.items }) : { rejected: { reason: parsed.message } };
    },
    'request.verify': (i) =>
      verdict(
        verifyRequest(
          {
            appId: i.str('appId'),
            appSecret: i.str('appSecret'),
            method: i.str('method'),
            url: i.str('url'),
            authorization: i.auth(),
            body: i.bytes('bodyB64'),
          },
          options,
        ),
      ),
    'response.verify': (i) =>
      verdict(
        verifyResponse(
          {
            appId: i.str('appId'),
            appSecret: i.str('appSecret'),
            method: i.str('method'),
            url: i.str('url'),
            status: i.num('status'),
            authorization: i.auth(),
            body: i.bytes('bodyB64'),
          },
          options,
        ),
      ),
    'webhook.verify': (i) =>
      verdict(
        verifyWebhook(
          {
            appId: i.str('appId'),
            appSecret: i.str('appSecret'),
            notifyUrl: i.str('notifyUrl'),
            method: i.str('method'),
            authorization: i.auth(),
            body: i.bytes('bodyB64'),
          },
          options,
        ),
      ),
    'redirect.verify': (i) => {
      const outcome = verifyRedirect(
        {
          appId: i.str('appId'),
          appSecret: i.str('appSecret'),
          returnUrl: i.str('returnUrl'),
          redirectUrl: i.str('redirectUrl'),
        },
        options,
      );
      return ok(
        outcome.valid
          ? { valid: true, payment: outcome.payment ?? null }
          : { valid: false, payment: null, reason: outcome.message },
      );
    },
    'upload.validate': (i) => {
      const outcome = validateCredentialsRequest({
        filename: i.raw('filename'),
        contentType: i.raw('contentType'),
        scene: i.raw('scene'),
        fileSize: i.raw('fileSize'),
      });
      return ok(outcome.valid ? { valid: true } : { valid: false, reason: outcome.message });
    },
    'upload.form': (i) => {
      const form = buildUploadForm({
        formFields: i.pairs('formFields'),
        filename: i.str('filename'),
        contentType: i.str('contentType'),
        file: i.bytes('fileB64'),
      });
      return ok({ contentType: form.contentType, bodyB64: toBase64(form.body) });
    },
    'upload.formCheck': async (i) => {
      const multipart = new Input(i.obj('multipart'));
      const outcome = await checkUploadBody(
        {
          formFields: i.pairs('formFields'),
          filename: i.str('filename'),
          contentType: i.str('contentType'),
          file: i.bytes('fileB64'),
        },
        multipart.bytes('bodyB64'),
        multipart.str('contentType'),
      );
      return ok(outcome.valid ? { valid: true } : { valid: false, reason: outcome.message });
    },
    'client.upload': async (i) => {
      const { storageUri, uploadNo } = await upload({
        ...client,
        baseUrl: i.str('baseUrl'),
        appId: i.str('appId'),
        appSecret: i.str('appSecret'),
        filename: i.str('filename'),
        contentType: i.strOrNull('contentType'),
        scene: i.str('scene'),
        file: i.bytes('fileB64'),
      });
      return ok({ storageUri, uploadNo });
    },
    'client.createPayment': async (i) => {
      const { code, paymentNo } = await createPayment({
        ...client,
        baseUrl: i.str('baseUrl'),
        appId: i.str('appId'),
        appSecret: i.str('appSecret'),
        payment: i.obj('payment'),
      });
      return ok({ code, paymentNo });
    },
  };
  return {
    implementation: { name: 'pgv2kit-reference', version: kitVersion(), language: 'typescript' },
    operations: Object.keys(handlers) as Operation[],
    async call(op, input) {
      const handler = handlers[op];
      if (!handler) return { unsupported: { reason: `the reference does not implement ${op}` } };
      try {
        return await handler(new Input(input));
      } catch (e) {
        if (e instanceof ClientError) return { rejected: { reason: `${e.code}: ${e.message}` } };
        if (e instanceof InputError || e instanceof RangeError || e instanceof TypeError)
          return { rejected: { reason: e.message } };
        throw e;
      }
    },
  };
}

// --- internal ---

/** An operation input of the wrong shape: the operation is rejected, naming the field. */
class InputError extends Pgv2kitError {
  override readonly name = 'InputError';
  override readonly code = 'PGV2_OPERATION_INPUT';
  override readonly exit = 'usage';
}

/** Typed access to an operation input; a wrong shape is refused with the field named. */
class Input {
  constructor(private readonly input: OperationInput) {}
  raw(name: string): Json | undefined {
    return this.input[name];
  }
  str(name: string): string {
    const v = this.input[name];
    if (typeof v !== 'string') throw new InputError(`input ${name} must be a string`);
    return v;
  }
  strOrNull(name: string): string | null {
    const v = this.input[name];
    if (v === null || v === undefined) return null;
    if (typeof v !== 'string') throw new InputError(`input ${name} must be a string or null`);
    return v;
  }
  num(name: string): number {
    const v = this.input[name];
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new InputError(`input ${name} must be an integer`);
    return v;
  }
  auth(): string | null {
    const v = this.input['authorization'];
    if (v === null || v === undefined) return null;
    if (typeof v !== 'string') throw new InputError('input authorization must be a string or null');
    return v;
  }
  bytes(name: string): Uint8Array {
    return fromBase64(this.str(name));
  }
  obj(name: string): OperationInput {
    const v = this.input[name];
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      throw new InputError(`input ${name} must be an object`);
    return v;
  }
  pairs(name: string): Array<[string, string]> {
    const v = this.input[name];
    if (
      !Array.isArray(v) ||
      !v.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string')
    ) {
      throw new InputError(`input ${name} must be an array of [name, value] string pairs`);
    }
    return v as Array<[string, string]>;
  }
}

function parts(i: Input) {
  return {
    appId: i.str('appId'),
    appSecret: i.str('appSecret'),
    method: i.str('method'),
    url: i.str('url'),
    timestamp: i.str('timestamp'),
    nonce: i.str('nonce'),
    body: i.bytes('bodyB64'),
  };
}

function ok(result: { [key: string]: Json }): Answer {
  return { result };
}

function verdict(outcome: VerifyOutcome): Answer {
  return ok(outcome.valid ? { valid: true } : { valid: false, reason: outcome.message });
}
