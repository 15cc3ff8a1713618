/**
 * The reference client against the real reference gateway on loopback: the happy upload
 * (the stored bytes identical), payment creation, each bad response signature refused
 * with nothing uploaded, non-canonical but valid responses accepted, formFields forwarded
 * unchanged and in order (extra entries, another vendor, special values, integer-like
 * names), an expired uploadUrl and an oversize file failing with nothing stored, and the
 * gateway's refusals of the client's own request reported with their errorMessage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, createPayment, requestUploadCredentials, upload, uploadFile } from '../../src/client/index.js';
import { startGateway, type Gateway, type Scenario } from '../../src/gateway/index.js';
import type { ResponseBytes, ResponseSignature } from '../../src/vectors/scenario.js';

const merchant = { appId: 'app_7f3a9c', appSecret: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc' };
const pdf = { filename: 'evidence-0412.pdf', contentType: 'application/pdf', scene: 'DISPUTE_EVIDENCE' };
const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 7 + 3) % 256);
/** Byte equality without a deep comparison of millions of elements (that blocks the event loop for seconds). */
const same = (a: Uint8Array | undefined, b: Uint8Array): boolean =>
  a !== undefined && Buffer.from(a).equals(Buffer.from(b));
/** The uploads of a scenario once the gateway has recorded them (it records an upload after answering it). */
const uploadsOf = async (id: string, count: number) => {
  for (let i = 0; i < 50 && gateway.recorder.for(id).uploads.length < count; i++)
    await new Promise((r) => setTimeout(r, 20));
  return gateway.recorder.for(id).uploads;
};
const file = bytes(4096);
const payment = {
  merchantTradeNo: 'MT20240611000187',
  amount: '149.90',
  currency: 'EUR',
  description: 'Order 187 - 2 items',
  payer: { userId: 'u_55120', name: 'Jane Doe', email: 'jane.doe@example.org', phone: '+33612345678' },
  payMethod: { type: 'CARD' },
  tradeEnv: { ip: '203.0.113.24', deviceId: 'dev-8f2c41' },
  merchantAttach: 'cart=187',
  notifyUrl: 'https://shop.example.net/pg/notify',
  returnUrl: 'https://shop.example.net/checkout/return',
};

const SIGNATURES: ResponseSignature[] = ['tampered', 'foreign-app-id', 'wrong-secret', 'missing'];
const BYTES: ResponseBytes[] = ['compact', 'pretty', 'reordered', 'unicode-escapes', 'null-fields', 'extra-fields'];
const scenarios = new Map<string, Scenario>([
  ...SIGNATURES.flatMap((signature): Array<[string, Scenario]> => [
    [`sig-${signature}`, { response: { signature } }],
    [`pay-sig-${signature}`, { response: { signature } }],
  ]),
  ...BYTES.flatMap((b): Array<[string, Scenario]> => [
    [`bytes-${b}`, { response: { bytes: b } }],
    [`pay-bytes-${b}`, { response: { bytes: b } }],
  ]),
  [
    'fields-extra',
    {
      formFields: {
        extra: [
          ['x-pgv2-trace', 'a b+c/d=='],
          ['17', 'seventeen'],
          ['0', ''],
          ['x-new-entry', 'é ü <x/>'],
        ],
      },
    },
  ],
  ['fields-vendor', { formFields: { vendor: 'oss' } }],
  ['fields-special', { formFields: { specialValues: true } }],
  [
    'fields-all',
    {
      response: { bytes: 'reordered' },
      formFields: {
        vendor: 'goog',
        specialValues: true,
        extra: [
          ['10', 'ten'],
          ['2', 'two'],
        ],
      },
    },
  ],
  ['expired', { upload: { expired: true } }],
]);

let gateway: Gateway;
let now = Date.UTC(2024, 5, 11, 10, 0, 0);
beforeAll(async () => {
  gateway = await startGateway({
    merchants: [merchant, { appId: 'app_other', appSecret: 'sk_other_Zx81' }],
    scenarios,
    clock: { now: () => now },
  });
});
afterAll(() => gateway.close());

const base = (id: string): string => gateway.url(id);
const rejection = async (p: Promise<unknown>): Promise<ClientError> => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ClientError);
  expect((e as Error).message).not.toContain(merchant.appSecret);
  return e as ClientError;
};
const nothingStored = (id: string): void => {
  const record = gateway.recorder.for(id);
  expect(record.uploads.filter((u) => u.stored)).toEqual([]);
  for (const r of record.requests) if (r.issued) expect(gateway.storage.get(r.issued.storageUri)).toBeUndefined();
};

describe('the reference client against the reference gateway', () => {
  it('uploads: credentials verified, the form accepted, the stored bytes identical; no Authorization on the upload', async () => {
    const r = await upload({ baseUrl: base('happy'), ...merchant, ...pdf, file });
    expect(r.storageUri).toMatch(/^[a-z0-9]+:\/\/.+\/[^/]+\.pdf$/);
    expect(r.uploadNo).toMatch(/^\d+-[0-9a-f]+$/);
    expect(same(await gateway.storage.read(r.storageUri), file)).toBe(true);
    const [u] = await uploadsOf('happy', 1);
    const record = gateway.recorder.for('happy');
    expect(record.requests.map((q) => [q.path, q.verified, q.problem])).toEqual([
      ['/pg/v2/file/generateUploadUrl', true, undefined],
    ]);
    expect(record.requests[0]?.issued?.storageUri).toBe(r.storageUri);
    expect(u).toMatchObject({ stored: true, status: 204, storageUri: r.storageUri, advisories: [] });
    expect(u?.problem).toBeUndefined();
    expect(u?.headers.some(([n]) => n.toLowerCase() === 'authorization')).toBe(false);
    expect(u?.parts.at(-1)).toMatchObject({
      kind: 'file',
      name: 'file',
      filename: pdf.filename,
      contentType: 'application/pdf',
      size: file.length,
    });
  });

  it('uploads with contentType null (the file part then carries none) and a file of exactly 2 MiB (R13)', async () => {
    const big = bytes(2_097_152);
    const r = await upload({
      baseUrl: base('happy-null-type'),
      ...merchant,
      ...pdf,
      filename: 'sheet.xlsx',
      contentType: null,
      file: big,
    });
    expect(same(await gateway.storage.read(r.storageUri), big)).toBe(true);
    expect(gateway.recorder.for('happy-null-type').requests[0]?.body).toEqual(
      new TextEncoder().encode('{"filename":"sheet.xlsx","scene":"DISPUTE_EVIDENCE"}'),
    );
  });

  it('creates a payment: the code and the paymentNo the gateway issued', async () => {
    const r = await createPayment({ baseUrl: base('payment'), ...merchant, payment });
    const [q] = gateway.recorder.for('payment').requests;
    expect(r).toMatchObject({ code: 'OK', paymentNo: q?.paymentNo });
    expect(r.paymentNo).toEqual(expect.any(String));
    expect(q).toMatchObject({ path: '/pg/v2/payment/create', verified: true });
    expect(new TextDecoder().decode(q?.body)).toBe(JSON.stringify(payment));
  });

  it.each(SIGNATURES)(
    'a credentials response whose signature is %s: PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC, and nothing is uploaded',
    async (signature) => {
      const id = `sig-${signature}`;
      const e = await rejection(upload({ baseUrl: base(id), ...merchant, ...pdf, file }));
      expect(e.code).toBe('PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC');
      expect(e.status).toBe(200);
      const kinds: Record<ResponseSignature, string> = {
        valid: '',
        tampered: 'sign-mismatch',
        'foreign-app-id': 'app-id-mismatch',
        'wrong-secret': 'sign-mismatch',
        missing: 'no-authorization',
      };
      expect(e.problem?.kind).toBe(kinds[signature]);
      const record = gateway.recorder.for(id);
      expect(record.requests).toHaveLength(1);
      expect(record.requests[0]?.verified).toBe(true); // the client's own request was fine
      expect(record.uploads).toEqual([]);
      nothingStored(id);
    },
  );

  it.each(SIGNATURES)(
    'a payment response whose signature is %s: PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC',
    async (signature) => {
      const e = await rejection(createPayment({ baseUrl: base(`pay-sig-${signature}`), ...merchant, payment }));
      expect(e.code).toBe('PGV2_CLIENT_RESPONSE_NOT_AUTHENTIC');
    },
  );

  it.each(BYTES)(
    'a valid credentials response written %s is accepted (verified over the bytes received, R9, R15)',
    async (b) => {
      const id = `bytes-${b}`;
      const r = await upload({ baseUrl: base(id), ...merchant, ...pdf, file });
      expect(same(await gateway.storage.read(r.storageUri), file)).toBe(true);
      expect((await uploadsOf(id, 1))[0]).toMatchObject({ stored: true, advisories: [] });
    },
  );

  it.each(BYTES)('a valid payment response written %s is accepted', async (b) => {
    const r = await createPayment({ baseUrl: base(`pay-bytes-${b}`), ...merchant, payment });
    expect(r.code).toBe('OK');
    expect(r.paymentNo).toBe(gateway.recorder.for(`pay-bytes-${b}`).requests[0]?.paymentNo);
  });

  it.each(['fields-extra', 'fields-vendor', 'fields-special', 'fields-all'])(
    '%s: every formFields entry forwarded unchanged and in the order issued; the upload passes the check',
    async (id) => {
      const credentials = await requestUploadCredentials({ baseUrl: base(id), ...merchant, ...pdf });
      const issued = gateway.recorder.for(id).requests[0]?.issued;
      expect(credentials.formFields).toEqual(issued?.formFields);
      await uploadFile(credentials, { ...pdf, file });
      const [u] = await uploadsOf(id, 1);
      expect(u).toMatchObject({ stored: true, status: 204, advisories: [] });
      expect(
        u?.parts.filter((p) => p.kind === 'field').map((p) => (p.kind === 'field' ? [p.name, p.value] : [])),
      ).toEqual(issued?.formFields);
      expect(same(await gateway.storage.read(credentials.storageUri), file)).toBe(true);
    },
  );

  it('integer-like formFields names keep their place (JSON.parse would move them to the front)', async () => {
    const credentials = await requestUploadCredentials({ baseUrl: base('fields-extra'), ...merchant, ...pdf });
    const names = credentials.formFields.map(([n]) => n);
    expect(names.indexOf('17')).toBeGreaterThan(names.indexOf('policy'));
    expect(names.slice(-4)).toEqual(['x-pgv2-trace', '17', '0', 'x-new-entry']);
  });

  it("an uploadUrl already expired when issued: PGV2_CLIENT_UPLOAD_FAILED with the storage's words, nothing stored", async () => {
    const e = await rejection(upload({ baseUrl: base('expired'), ...merchant, ...pdf, file }));
    expect(e.code).toBe('PGV2_CLIENT_UPLOAD_FAILED');
    expect(e.status).toBeGreaterThanOrEqual(400);
    expect(e.message).toMatch(
      /^the upload address answered HTTP \d+, not 204: ".*expired.*"; the file is not stored \(4\.2\)$/i,
    );
    expect((await uploadsOf('expired', 1))[0]).toMatchObject({ stored: false, status: e.status });
    nothingStored('expired');
  });

  it('credentials used after 10 minutes on the gateway clock: PGV2_CLIENT_UPLOAD_FAILED, nothing stored', async () => {
    const credentials = await requestUploadCredentials({ baseUrl: base('late'), ...merchant, ...pdf });
    now += 10 * 60 * 1000 + 1000;
    try {
      const e = await rejection(uploadFile(credentials, { ...pdf, file }));
      expect(e.code).toBe('PGV2_CLIENT_UPLOAD_FAILED');
      expect((await uploadsOf('late', 1))[0]).toMatchObject({ stored: false });
    } finally {
      now -= 10 * 60 * 1000 + 1000;
    }
    nothingStored('late');
  });

  it('a file one byte over 2 MiB: PGV2_CLIENT_UPLOAD_FAILED from the upload address, nothing stored', async () => {
    const e = await rejection(upload({ baseUrl: base('over-size'), ...merchant, ...pdf, file: bytes(2_097_153) }));
    expect(e.code).toBe('PGV2_CLIENT_UPLOAD_FAILED');
    expect(e.status).toBeGreaterThanOrEqual(400);
    expect((await uploadsOf('over-size', 1))[0]).toMatchObject({ stored: false });
    nothingStored('over-size');
  });

  it('the same file with preflight: PGV2_CLIENT_INVALID_REQUEST, and the gateway saw nothing', async () => {
    const e = await rejection(
      upload({ baseUrl: base('over-size-preflight'), ...merchant, ...pdf, file: bytes(2_097_153), preflight: true }),
    );
    expect(e.code).toBe('PGV2_CLIENT_INVALID_REQUEST');
    expect(gateway.recorder.for('over-size-preflight')).toMatchObject({ requests: [], uploads: [] });
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a request signed with the wrong secret', { appSecret: 'sk_test_wrong_secret_000000000000' }, /HTTP 4\d\d/],
    ['an unknown appId', { appId: 'app_nobody' }, /HTTP 4\d\d/],
    ['a scene in lower case', { scene: 'dispute_evidence' }, /HTTP 4\d\d/],
    ['a file type 2.2 does not accept', { filename: 'scan.gif', contentType: 'image/gif' }, /HTTP 4\d\d/],
  ])(
    '%s: the gateway refuses, PGV2_CLIENT_HTTP_STATUS with its errorMessage, no upload',
    async (what, change, status) => {
      const id = `refused-${what.replace(/\W+/g, '-')}`;
      const e = await rejection(upload({ baseUrl: base(id), ...merchant, ...pdf, file, ...change }));
      expect(e.code).toBe('PGV2_CLIENT_HTTP_STATUS');
      expect(e.message).toMatch(status);
      expect(e.message).toMatch(/errorMessage ".+"/);
      expect(e.gatewayCode).toEqual(expect.any(String));
      expect(gateway.recorder.for(id).uploads).toEqual([]);
    },
  );

  it('the secret never appears in a message, even when the gateway echoes it', async () => {
    const e = await rejection(upload({ baseUrl: base('echo'), ...merchant, appId: 'app_other', ...pdf, file }));
    expect(e.message).not.toContain('sk_other_Zx81');
    expect(e.message).not.toContain(merchant.appSecret);
  });
});
