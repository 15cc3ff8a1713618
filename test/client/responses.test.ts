/**
 * What the client does with a gateway's answer, against a bare node:http server that
 * signs by hand: the credentials request as sent, every way a 200 can fail to be
 * authentic (R9), non-200 answers (R16), malformed envelopes and data, formFields in the
 * text's order (integer-like names too), the preflight check, secrets never in messages.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ClientError, createPayment, requestUploadCredentials, upload } from '../../src/client/index.js';
import { handSign, header, serve, signedReply, type Received, type TestServer } from './_server.js';

const merchant = { appId: 'app_7f3a9c', appSecret: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc' };
const request = { filename: 'evidence-0412.pdf', contentType: 'application/pdf', scene: 'DISPUTE_EVIDENCE' };

let server: TestServer;
/** How the server answers the next API request. */
let answer: (r: Received, res: ServerResponse) => void;
beforeAll(async () => {
  server = await serve((r, res) => {
    if (r.target.startsWith('/store/')) {
      res.writeHead(204);
      res.end();
      return;
    }
    answer(r, res);
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.received.length = 0;
  answer = (r, res) => signedReply(res, r, server.origin, merchant, credentialsBody());
});

const credentialsBody = (fields = '{"key":"dispute/a.pdf","policy":"P"}', extra = ''): string =>
  `{"code":"OK","errorMessage":null,"data":{"uploadUrl":"${server.origin}/store/1","storageUri":"s3://b/dispute/a.pdf","uploadNo":"1718090123456-9c4e2a7f","formFields":${fields},"httpMethod":"POST"${extra}}}`;
const credentials = (more: object = {}) =>
  requestUploadCredentials({ baseUrl: server.origin, ...merchant, ...request, ...more });
const refusal = async (p: Promise<unknown>): Promise<ClientError> => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ClientError);
  expect((e as Error).message).not.toContain(merchant.appSecret);
  return e as ClientError;
};

describe('requestUploadCredentials: the request', () => {
  it('POSTs the JSON of 2.1 to {baseUrl}/pg/v2/file/generateUploadUrl, signed over exactly the bytes sent', async () => {
    const c = await credentials({ clock: () => 1718090123000, nonce: 'n-42' });
    const [got] = server.received as [Received];
    expect(got.method).toBe('POST');
    expect(got.target).toBe('/pg/v2/file/generateUploadUrl');
    expect(got.body.toString()).toBe(
      '{"filename":"evidence-0412.pdf","contentType":"application/pdf","scene":"DISPUTE_EVIDENCE"}',
    );
    expect(header(got, 'content-type')).toBe('application/json');
    expect(header(got, 'accept')).toBe('application/json');
    const sign = handSign(
      merchant.appId,
      merchant.appSecret,
      'POST',
      `${server.origin}/pg/v2/file/generateUploadUrl`,
      '1718090123000',
      'n-42',
      got.body,
    );
    expect(header(got, 'authorization')).toBe(
      `V2_SHA256 appId=app_7f3a9c,sign=${sign},timestamp=1718090123000,nonce=n-42`,
    );
    expect(c).toMatchObject({
      uploadUrl: `${server.origin}/store/1`,
      storageUri: 's3://b/dispute/a.pdf',
      uploadNo: '1718090123456-9c4e2a7f',
      httpMethod: 'POST',
    });
    expect(Buffer.from(c.responseBody).toString()).toBe(credentialsBody());
  });

  it('leaves contentType out when it is null; drops a trailing "/" of baseUrl', async () => {
    await credentials({ contentType: null, baseUrl: `${server.origin}/s/case-1/` });
    const [got] = server.received as [Received];
    expect(got.target).toBe('/s/case-1/pg/v2/file/generateUploadUrl');
    expect(got.body.toString()).toBe('{"filename":"evidence-0412.pdf","scene":"DISPUTE_EVIDENCE"}');
  });

  it('preflight: a request outside 2.1/2.2/8 is refused before anything is sent (PGV2_CLIENT_INVALID_REQUEST)', async () => {
    const e = await refusal(
      upload({ baseUrl: server.origin, ...merchant, ...request, file: new Uint8Array(2_097_153), preflight: true }),
    );
    expect(e.code).toBe('PGV2_CLIENT_INVALID_REQUEST');
    expect(e.message).toMatch(/fileSize is 2097153 bytes/);
    const gif = await refusal(credentials({ filename: 'scan.gif', preflight: true }));
    expect(gif.message).toMatch(/extension "gif" is not accepted/);
    expect(server.received).toEqual([]);
  });
});

describe('requestUploadCredentials: formFields', () => {
  it('keeps the order of the text, integer-like names included (JSON.parse would move them first)', async () => {
    answer = (r, res) =>
      signedReply(
        res,
        r,
        server.origin,
        merchant,
        credentialsBody('{"key":"k","17":"seventeen","policy":"P","0":"zero","x-amz-signature":"S"}'),
      );
    const c = await credentials();
    expect(c.formFields).toEqual([
      ['key', 'k'],
      ['17', 'seventeen'],
      ['policy', 'P'],
      ['0', 'zero'],
      ['x-amz-signature', 'S'],
    ]);
    expect(Object.keys(JSON.parse('{"key":"k","17":"s"}') as object)).toEqual(['17', 'key']);
  });

  it('keeps escapes decoded exactly, empty values and unknown entries (R15)', async () => {
    answer = (r, res) =>
      signedReply(
        res,
        r,
        server.origin,
        merchant,
        credentialsBody(
          '{"tagging":"<Tagging><TagSet><Tag><Key>uploadNo</Key></Tag></TagSet></Tagging>","a\\u002Fb":"x y+z=/","empty":"","x-new-thing":"\\u00e9"}',
        ),
      );
    const c = await credentials();
    expect(c.formFields).toEqual([
      ['tagging', '<Tagging><TagSet><Tag><Key>uploadNo</Key></Tag></TagSet></Tagging>'],
      ['a/b', 'x y+z=/'],
      ['empty', ''],
      ['x-new-thing', 'é'],
    ]);
  });
});

describe('requestUploadCredentials: answers that are refused', () => {
  const reply =
    (status: number, headers: Record<string, string | string[]>, body: string) =>
    (_r: Received, res: ServerResponse) => {
      res.writeHead(status, headers);
      res.end(body);
    };
  const signedFor = (url: string, body: string, who = merchant, secret = who.appSecret) => {
    const sign = handSign(who.appId, secret, 'POST', url, '1', 'n', body);
    return `V2_SHA256 appId=${who.appId},sign=${sign},timestamp=1,nonce=n`;
  };
  const endpoint = () => `${server.origin}/pg/v2/file/generateUploadUrl`;

  it.each<[string, string, () => (r: Received, res: ServerResponse) => void, RegExp]>([
    [
      'a 200 without Authorization',
      'no-authorization',
      () => reply(200, { 'Content-Type': 'application/json' }, credentialsBody()),
      /is not authentic: no Authorization/,
    ],
    [
      'a 200 signed with another secret',
      'sign-mismatch',
      () =>
        reply(
          200,
          { Authorization: signedFor(endpoint(), credentialsBody(), merchant, 'sk_other') },
          credentialsBody(),
        ),
      /sign does not match/,
    ],
    [
      'a 200 for another appId',
      'app-id-mismatch',
      () =>
        reply(
          200,
          {
            Authorization: signedFor(endpoint(), credentialsBody(), {
              appId: 'app_other',
              appSecret: merchant.appSecret,
            }),
          },
          credentialsBody(),
        ),
      /appId "app_other" is not the expected "app_7f3a9c"/,
    ],
    [
      'a 200 signed for another URL',
      'sign-mismatch',
      () =>
        reply(
          200,
          { Authorization: signedFor(`${server.origin}/pg/v2/payment/create`, credentialsBody()) },
          credentialsBody(),
        ),
      /sign does not match/,
    ],
    [
      'a 200 whose body changed after signing',
      'sign-mismatch',
      () =>
        reply(
          200,
          { Authorization: signedFor(endpoint(), credentialsBody()) },
          credentialsBody().replace('dispute/a.pdf', 'dispute/b.pdf'),
        ),
      /sign does not match/,
    ],
    [
      'a 200 whose Authorization has no nonce',
      'malformed-authorization',
      () =>
        reply(
          200,
          { Authorization: 'V2_SHA256 appId=app_7f3a9c,sign=' + 'a'.repeat(64) + ',timestamp=1' },
          credentialsBody(),
        ),
      /item nonce is missing/,
    ],
  ])('%s: PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC (%s), and nothing is uploaded', async (_what, kind, make, message) => {
    answer = make();
    const e = await refusal(
      upload({ baseUrl: server.origin, ...merchant, ...request, file: new Uint8Array([1, 2, 3]) }),
    );
    expect(e.code).toBe('PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC');
    expect(e.problem?.kind).toBe(kind);
    expect(e.message).toMatch(message);
    expect(e.message).toMatch(
      /^the credentials response \(POST http:\/\/127\.0\.0\.1:\d+\/pg\/v2\/file\/generateUploadUrl\) is not authentic: .* \(5\.4, R9\); not used$/,
    );
    expect(server.received.map((r) => r.target)).toEqual(['/pg/v2/file/generateUploadUrl']);
  });

  it('a 200 with two Authorization headers is not authentic', async () => {
    const auth = signedFor(endpoint(), credentialsBody());
    answer = reply(200, { Authorization: [auth, auth] }, credentialsBody());
    const e = await refusal(credentials());
    expect(e.code).toBe('PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC');
    expect(e.message).toMatch(/more than one Authorization header/);
  });

  it('a non-200 is PGV2_CLIENT_HTTP_STATUS with the status and the errorMessage, the secret masked', async () => {
    answer = reply(
      401,
      { 'Content-Type': 'application/json' },
      `{"code":"SIGN_ERROR","errorMessage":"bad sign for secret ${merchant.appSecret}","data":null}`,
    );
    const e = await refusal(credentials());
    expect(e).toMatchObject({ code: 'PGV2_CLIENT_HTTP_STATUS', status: 401, gatewayCode: 'SIGN_ERROR' });
    expect(e.message).toMatch(
      /the gateway answered HTTP 401: errorMessage "bad sign for secret sk\*+ \(32 chars\)" \(code "SIGN_ERROR"\); not 200, so not used \(R9, R16\)$/,
    );
  });

  it('a non-200 that is not an envelope, a signed one included, is still refused', async () => {
    answer = (r, res) => {
      res.writeHead(500, { Authorization: signedFor(endpoint(), 'oops') });
      res.end('oops');
      void r;
    };
    const e = await refusal(credentials());
    expect(e).toMatchObject({ code: 'PGV2_CLIENT_HTTP_STATUS', status: 500 });
    expect(e.message).toMatch(/answered HTTP 500; not 200/);
  });

  it.each<[string, string, string, RegExp]>([
    [
      'code not OK',
      'PGV2_CLIENT_GATEWAY_CODE',
      '{"code":"PARAM_ERROR","errorMessage":"scene","data":null}',
      /its code is "PARAM_ERROR", not OK: errorMessage "scene"/,
    ],
    [
      'not JSON',
      'PGV2_CLIENT_MALFORMED_RESPONSE',
      '{"code":"OK",',
      /its body is not JSON: expected a key at offset 13/,
    ],
    ['a key twice', 'PGV2_CLIENT_MALFORMED_RESPONSE', '{"code":"OK","code":"OK"}', /key "code" appears twice/],
    ['an array', 'PGV2_CLIENT_MALFORMED_RESPONSE', '[]', /not a JSON object/],
    ['no data', 'PGV2_CLIENT_MALFORMED_RESPONSE', '{"code":"OK","errorMessage":null}', /no data object/],
    ['code a number', 'PGV2_CLIENT_MALFORMED_RESPONSE', '{"code":0}', /no string code/],
    [
      'no uploadUrl',
      'PGV2_CLIENT_MALFORMED_RESPONSE',
      '{"code":"OK","data":{"storageUri":"s","uploadNo":"1-a","formFields":{},"httpMethod":"POST"}}',
      /data\.uploadUrl is missing/,
    ],
    [
      'a file: uploadUrl',
      'PGV2_CLIENT_MALFORMED_RESPONSE',
      '{"code":"OK","data":{"uploadUrl":"file:///etc/passwd","storageUri":"s","uploadNo":"1-a","formFields":{},"httpMethod":"POST"}}',
      /uploadUrl cannot be sent to: .* is not http or https/,
    ],
    [
      'an httpMethod with a space',
      'PGV2_CLIENT_MALFORMED_RESPONSE',
      '{"code":"OK","data":{"uploadUrl":"http://127.0.0.1:1/u","storageUri":"s","uploadNo":"1-a","formFields":{},"httpMethod":"PO ST"}}',
      /httpMethod "PO ST" is not an HTTP method/,
    ],
    [
      'formFields an array',
      'PGV2_CLIENT_MALFORMED_RESPONSE',
      '{"code":"OK","data":{"uploadUrl":"http://127.0.0.1:1/u","storageUri":"s","uploadNo":"1-a","formFields":[],"httpMethod":"POST"}}',
      /formFields is not a JSON object/,
    ],
    [
      'a formFields value not a string',
      'PGV2_CLIENT_MALFORMED_RESPONSE',
      '{"code":"OK","data":{"uploadUrl":"http://127.0.0.1:1/u","storageUri":"s","uploadNo":"1-a","formFields":{"key":1},"httpMethod":"POST"}}',
      /formFields entry "key" is not a string/,
    ],
  ])('an authentic 200 with %s is %s', async (_what, code, body, message) => {
    answer = (r, res) => signedReply(res, r, server.origin, merchant, body);
    const e = await refusal(upload({ baseUrl: server.origin, ...merchant, ...request, file: new Uint8Array([1]) }));
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(server.received).toHaveLength(1);
  });

  it('invalid UTF-8 in an authentic 200 is malformed', async () => {
    answer = (r, res) => {
      const body = Buffer.from([0x7b, 0xff, 0x7d]);
      const sign = handSign(merchant.appId, merchant.appSecret, 'POST', `${server.origin}${r.target}`, '1', 'n', body);
      res.writeHead(200, { Authorization: `V2_SHA256 appId=${merchant.appId},sign=${sign},timestamp=1,nonce=n` });
      res.end(body);
    };
    const e = await refusal(credentials());
    expect(e.code).toBe('PGV2_CLIENT_MALFORMED_RESPONSE');
    expect(e.message).toMatch(/not UTF-8/);
  });
});

describe('createPayment', () => {
  const payment = {
    merchantTradeNo: 'MT20240611000187',
    amount: '149.90',
    currency: 'EUR',
    payer: { userId: 'u_55120', name: 'Jane Doe' },
  };

  it('POSTs JSON.stringify(payment) to /pg/v2/payment/create and returns code and paymentNo', async () => {
    answer = (r, res) =>
      signedReply(
        res,
        r,
        server.origin,
        merchant,
        '{"code":"OK","errorMessage":null,"data":{"paymentNo":"P2024061100042","status":"PENDING"}}',
      );
    const r = await createPayment({ baseUrl: server.origin, ...merchant, payment });
    expect(r).toMatchObject({ code: 'OK', paymentNo: 'P2024061100042' });
    const [got] = server.received as [Received];
    expect(got.target).toBe('/pg/v2/payment/create');
    expect(got.body.toString()).toBe(JSON.stringify(payment));
  });

  it('returns a signed refusal (code not OK) with paymentNo null', async () => {
    answer = (r, res) =>
      signedReply(res, r, server.origin, merchant, '{"code":"PARAM_ERROR","errorMessage":"amount","data":null}');
    expect(await createPayment({ baseUrl: server.origin, ...merchant, payment })).toMatchObject({
      code: 'PARAM_ERROR',
      paymentNo: null,
    });
  });

  it('refuses a response that does not verify, a paymentNo that is not a string, and a payment that is not an object', async () => {
    answer = (_r, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"code":"OK","data":{"paymentNo":"P1"}}');
    };
    expect((await refusal(createPayment({ baseUrl: server.origin, ...merchant, payment }))).code).toBe(
      'PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC',
    );
    answer = (r, res) => signedReply(res, r, server.origin, merchant, '{"code":"OK","data":{"paymentNo":42}}');
    expect((await refusal(createPayment({ baseUrl: server.origin, ...merchant, payment }))).code).toBe(
      'PGV2_CLIENT_MALFORMED_RESPONSE',
    );
    await expect(createPayment({ baseUrl: server.origin, ...merchant, payment: [] as never })).rejects.toThrow(
      TypeError,
    );
    await expect(createPayment({ baseUrl: `${server.origin}/?x=1`, ...merchant, payment })).rejects.toThrow(RangeError);
  });
});
