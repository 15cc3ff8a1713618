/**
 * The client's edges: misuse refused with TypeError / RangeError before anything is
 * sent, a connection cut in the middle of a body, answers without a body, the nonce
 * source, header lookup, and secrets masked in every error class.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endpoint } from '../../src/client/_endpoint.js';
import { singleHeader } from '../../src/client/_http.js';
import { maskError } from '../../src/client/_mask.js';
import {
  ClientError,
  createPayment,
  requestUploadCredentials,
  signedRequest,
  upload,
  uploadFile,
  type UploadCredentials,
} from '../../src/client/index.js';
import { nonceOf } from '../../src/client/options.js';
import { serve, signedReply, type Received, type TestServer } from './_server.js';
import type { ServerResponse } from 'node:http';

const merchant = { appId: 'app_edge', appSecret: 'sk_edge_secret_9f8e7d' };
const pdf = { filename: 'a.pdf', contentType: 'application/pdf', scene: 'DISPUTE_EVIDENCE' };

let server: TestServer;
let answer: (r: Received, res: ServerResponse) => void;
beforeAll(async () => {
  server = await serve((r, res) => answer(r, res));
});
afterAll(() => server.close());
beforeEach(() => {
  server.received.length = 0;
});

describe('misuse is refused before anything is sent', () => {
  it.each<[string, () => Promise<unknown>, ErrorConstructor, RegExp]>([
    [
      'a filename that is not a string',
      () => requestUploadCredentials({ baseUrl: server.origin, ...merchant, ...pdf, filename: 5 as never }),
      TypeError,
      /filename must be a string/,
    ],
    [
      'a contentType that is a number',
      () => requestUploadCredentials({ baseUrl: server.origin, ...merchant, ...pdf, contentType: 5 as never }),
      TypeError,
      /contentType must be a string, null or undefined/,
    ],
    [
      'a file that is not bytes',
      () => upload({ baseUrl: server.origin, ...merchant, ...pdf, file: 'abc' as never }),
      TypeError,
      /file must be a Uint8Array/,
    ],
    [
      'a baseUrl that is not a string',
      () => createPayment({ baseUrl: undefined as never, ...merchant, payment: {} }),
      TypeError,
      /baseUrl must be a string/,
    ],
    [
      'a baseUrl without a scheme',
      () => createPayment({ baseUrl: '127.0.0.1:8080', ...merchant, payment: {} }),
      RangeError,
      /^baseUrl "127\.0\.0\.1:8080" is not an absolute URL$/,
    ],
    [
      'a nonce source giving a number',
      () =>
        signedRequest({ method: 'POST', url: `${server.origin}/x`, ...merchant, body: '', nonce: (() => 7) as never }),
      TypeError,
      /nonce must be a string/,
    ],
  ])('%s', async (_what, call, type, message) => {
    answer = (_r, res) => res.end();
    const e = await call().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(type);
    expect((e as Error).message).toMatch(message);
    expect(server.received).toEqual([]);
  });

  it('endpoint: the base without its trailing slashes, then the path', () => {
    expect(endpoint('http://127.0.0.1:4000/s/x//', '/pg/v2/payment/create')).toBe(
      'http://127.0.0.1:4000/s/x/pg/v2/payment/create',
    );
    expect(() => endpoint('http://127.0.0.1:4000/#f', '/p')).toThrow(/has a query or fragment/);
  });
});

describe('answers', () => {
  it('a connection cut in the middle of the body is PGV2_CLIENT_NETWORK', async () => {
    answer = (_r, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('{"code":');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const e = await signedRequest({ method: 'POST', url: `${server.origin}/x`, ...merchant, body: '{}' }).catch(
      (x: unknown) => x,
    );
    expect(e).toMatchObject({ name: 'ClientError', code: 'PGV2_CLIENT_NETWORK' });
  });

  it('an upload answered without a body says so; the status is kept', async () => {
    answer = (_r, res) => {
      res.writeHead(403);
      res.end();
    };
    const credentials: UploadCredentials = {
      uploadUrl: `${server.origin}/store`,
      storageUri: 's3://b/a.pdf',
      uploadNo: '1-a',
      formFields: [['key', 'k']],
      httpMethod: 'PUT',
      responseBody: new Uint8Array(),
    };
    const e = (await uploadFile(credentials, { ...pdf, file: Uint8Array.of(1) }).catch(
      (x: unknown) => x,
    )) as ClientError;
    expect(e).toMatchObject({ code: 'PGV2_CLIENT_UPLOAD_FAILED', status: 403 });
    expect(e.message).toBe('the upload address answered HTTP 403, not 204 with no body; the file is not stored (4.2)');
    expect(server.received[0]?.method).toBe('PUT');
  });

  it.each<[string, string, RegExp]>([
    [
      'an empty uploadNo',
      '{"code":"OK","data":{"uploadUrl":"http://127.0.0.1:1/u","storageUri":"s","uploadNo":"","formFields":{},"httpMethod":"POST"}}',
      /data\.uploadNo is not a non-empty string/,
    ],
    [
      'no formFields',
      '{"code":"OK","data":{"uploadUrl":"http://127.0.0.1:1/u","storageUri":"s","uploadNo":"1-a","httpMethod":"POST"}}',
      /data\.formFields is missing/,
    ],
    [
      'a code not OK without errorMessage',
      '{"code":"DENIED","errorMessage":null}',
      /its code is "DENIED", not OK \(2\.3\)$/,
    ],
    ['an errorMessage that is a number', '{"code":"OK","errorMessage":5}', /errorMessage is neither a string nor null/],
    ['data that is a string', '{"code":"OK","data":"x"}', /its data is not a JSON object/],
  ])('credentials: %s is refused', async (_what, body, message) => {
    answer = (r, res) => signedReply(res, r, server.origin, merchant, body);
    await expect(requestUploadCredentials({ baseUrl: server.origin, ...merchant, ...pdf })).rejects.toThrow(message);
  });

  it('createPayment: no data means paymentNo null', async () => {
    answer = (r, res) => signedReply(res, r, server.origin, merchant, '{"code":"OK"}');
    expect(await createPayment({ baseUrl: server.origin, ...merchant, payment: { amount: '1.00' } })).toMatchObject({
      code: 'OK',
      paymentNo: null,
    });
  });
});

describe('helpers', () => {
  it('nonceOf: a given string, a function called per request, or 32 random hex digits', () => {
    let n = 0;
    expect(nonceOf({ nonce: 'fixed' })).toBe('fixed');
    expect([nonceOf({ nonce: () => `n${++n}` }), nonceOf({ nonce: () => `n${++n}` })]).toEqual(['n1', 'n2']);
    expect(nonceOf({})).toMatch(/^[0-9a-f]{32}$/);
  });

  it('singleHeader: a value, absent, or null when received more than once', () => {
    expect(singleHeader({ authorization: 'a' }, 'authorization')).toBe('a');
    expect(singleHeader({}, 'authorization')).toBeUndefined();
    expect(singleHeader({ 'set-cookie': ['x'] }, 'set-cookie')).toBe('x');
    expect(singleHeader({ 'set-cookie': ['x', 'y'] }, 'set-cookie')).toBeNull();
  });

  it.each<[string, unknown, string]>([
    [
      'ClientError',
      new ClientError('PGV2_CLIENT_NETWORK', 'sent sk_edge_secret_9f8e7d', { status: 500 }),
      'ClientError',
    ],
    ['RangeError', new RangeError('bad sk_edge_secret_9f8e7d'), 'RangeError'],
    ['TypeError', new TypeError('bad sk_edge_secret_9f8e7d'), 'TypeError'],
    ['Error', new Error('bad sk_edge_secret_9f8e7d'), 'Error'],
  ])('maskError keeps the class of a %s and masks the secret', (_what, error, name) => {
    const masked = maskError(error, [merchant.appSecret]) as Error;
    expect(masked.name).toBe(name);
    expect(masked.message).not.toContain(merchant.appSecret);
    expect(masked.message).toMatch(/sk\*+ \(21 chars\)/);
    if (masked instanceof ClientError) expect(masked).toMatchObject({ code: 'PGV2_CLIENT_NETWORK', status: 500 });
  });

  it('maskError returns the error itself when there is nothing to mask, and non-errors as they are', () => {
    const e = new Error('clean');
    expect(maskError(e, [merchant.appSecret])).toBe(e);
    expect(maskError('text', [merchant.appSecret])).toBe('text');
  });
});
