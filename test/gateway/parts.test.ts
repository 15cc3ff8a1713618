/**
 * The gateway's parts on their own: the SigV4 key chain and POST policy against AWS's
 * published examples, the envelope styles byte for byte, the credentials schema against
 * the kit's credentials vectors and rules, scenario routing, merchants, storage, XML,
 * the failure tables, start-up errors.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { s3ErrorXml, escapeXml } from '../../src/gateway/_xml.js';
import {
  API_FAILURES,
  DEMO_MERCHANT,
  MerchantBook,
  UPLOAD_RULES,
  scenarioPrefix,
  splitScenarioPath,
  startGateway,
  type Scenario,
  type UploadRule,
} from '../../src/gateway/index.js';
// the gateway's inner parts, from their own modules (the package entry exports only what a client's tests need)
import { checkCredentialsBody } from '../../src/gateway/credentials-schema.js';
import { OrderedPairs, envelopeBytes, foreignMerchant } from '../../src/gateway/envelope.js';
import {
  algorithmOf,
  amzDate,
  checkPostPolicy,
  decodePolicy,
  policySignature,
  presignPost,
  signingKey,
} from '../../src/gateway/policy.js';
import { checkScenario, lookupScenario } from '../../src/gateway/scenario-routing.js';
import { GatewayStorage } from '../../src/gateway/storage.js';
import { ruleMessage } from '../../src/gateway/upload-problems.js';
import { validateCredentialsRequest } from '../../src/upload/credentials-request.js';

// AWS SigV4 documentation: "Examples of how to derive a signing key for Signature Version 4".
const AWS_KEY_EXAMPLE = {
  secret: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  date: '20120215',
  region: 'us-east-1',
  service: 'iam',
  key: 'f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d',
};

// AWS S3 documentation: "Example: Browser-based upload using HTTP POST (using AWS Signature Version 4)".
const AWS_POST_EXAMPLE = {
  signer: {
    accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
    secretKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    region: 'us-east-1',
  },
  policy:
    'eyAiZXhwaXJhdGlvbiI6ICIyMDEzLTA4LTA3VDEyOjAwOjAwLjAwMFoiLA0KICAiY29uZGl0aW9ucyI6IFsNCiAgICB7ImJ1Y2tldCI6ICJleGFtcGxlYnVja2V0In0sDQogICAgWyJzdGFydHMtd2l0aCIsICIka2V5IiwgInVzZXIvdXNlcjEvIl0sDQogICAgeyJhY2wiOiAicHVibGljLXJlYWQifSwNCiAgICB7InN1Y2Nlc3NfYWN0aW9uX3JlZGlyZWN0IjogImh0dHA6Ly9leGFtcGxlYnVja2V0LnMzLmFtYXpvbmF3cy5jb20vc3VjY2Vzc2Z1bF91cGxvYWQuaHRtbCJ9LA0KICAgIFsic3RhcnRzLXdpdGgiLCAiJENvbnRlbnQtVHlwZSIsICJpbWFnZS8iXSwNCiAgICB7IngtYW16LW1ldGEtdXVpZCI6ICIxNDM2NTEyMzY1MTI3NCJ9LA0KICAgIFsic3RhcnRzLXdpdGgiLCAiJHgtYW16LW1ldGEtdGFnIiwgIiJdLA0KDQogICAgeyJ4LWFtei1jcmVkZW50aWFsIjogIkFLSUFJT1NGT0ROTjdFWEFNUExFLzIwMTMwODA2L3VzLWVhc3QtMS9zMy9hd3M0X3JlcXVlc3QifSwNCiAgICB7IngtYW16LWFsZ29yaXRobSI6ICJBV1M0LUhNQUMtU0hBMjU2In0sDQogICAgeyJ4LWFtei1kYXRlIjogIjIwMTMwODA2VDAwMDAwMFoiIH0NCiAgXQ0KfQ==',
  signature: '21496b44de44ccb73d545f1a995c68214c9cb0d41c45a17a5daeec0b1a6db047',
};

describe('the presigned POST (policy.ts)', () => {
  it("the SigV4 signing key of AWS's example", () => {
    const e = AWS_KEY_EXAMPLE;
    expect(signingKey(e.secret, e.date, e.region, e.service).toString('hex')).toBe(e.key);
  });

  it("the POST policy signature of AWS's example, and the example form accepted", () => {
    const { signer, policy, signature } = AWS_POST_EXAMPLE;
    expect(policySignature(signingKey(signer.secretKey, '20130806', signer.region, 's3'), policy)).toBe(signature);
    const fields: Array<[string, string]> = [
      ['key', 'user/user1/evidence.jpg'],
      ['acl', 'public-read'],
      ['success_action_redirect', 'http://examplebucket.s3.amazonaws.com/successful_upload.html'],
      ['Content-Type', 'image/jpeg'],
      ['x-amz-meta-uuid', '14365123651274'],
      ['x-amz-meta-tag', ''],
      ['x-amz-credential', 'AKIAIOSFODNN7EXAMPLE/20130806/us-east-1/s3/aws4_request'],
      ['x-amz-algorithm', 'AWS4-HMAC-SHA256'],
      ['x-amz-date', '20130806T000000Z'],
      ['policy', policy],
      ['x-amz-signature', signature],
      ['bucket', 'examplebucket'],
    ];
    const at = Date.UTC(2013, 7, 6, 12);
    const ok = checkPostPolicy(signer, fields, at);
    expect(ok).toMatchObject({ ok: true, key: undefined, sizeRange: undefined });
    const changed = checkPostPolicy(
      signer,
      fields.map(([n, v]) => [n, n === 'Content-Type' ? 'text/html' : v] as [string, string]),
      at,
    );
    expect(changed).toMatchObject({
      ok: false,
      problem: { kind: 'field-changed', field: 'Content-Type' },
      detail: 'Invalid according to Policy: Policy Condition failed: ["starts-with","$Content-Type","image/"]',
    });
    expect(checkPostPolicy(signer, fields, Date.UTC(2013, 7, 7, 12))).toMatchObject({
      ok: false,
      problem: { kind: 'expired' },
    });
    expect(checkPostPolicy(signer, [['x-ignore-a', '1'], ...fields], at).ok).toBe(true);
  });

  it('a signature mismatch over a policy this gateway did not issue is "policy changed"', () => {
    const { signer, policy } = AWS_POST_EXAMPLE;
    const fields: Array<[string, string]> = [
      ['policy', policy],
      ['x-amz-credential', 'AKIAIOSFODNN7EXAMPLE/20130806/us-east-1/s3/aws4_request'],
      ['x-amz-signature', '0'.repeat(64)],
    ];
    expect(checkPostPolicy(signer, fields, 0, () => false)).toMatchObject({
      ok: false,
      problem: { kind: 'field-changed', field: 'policy' },
      s3Code: 'SignatureDoesNotMatch',
    });
    expect(checkPostPolicy(signer, fields, 0)).toMatchObject({
      ok: false,
      problem: { kind: 'field-changed', field: 'x-amz-signature' },
    });
  });

  it('a policy without an algorithm condition is read as vendor amz', () => {
    const policy = Buffer.from('{"expiration":"2030-01-01T00:00:00.000Z","conditions":[]}').toString('base64');
    expect(checkPostPolicy(AWS_POST_EXAMPLE.signer, [['policy', policy]], 0)).toMatchObject({
      ok: false,
      problem: { kind: 'field-missing', field: 'x-amz-signature' },
    });
  });

  it("presignPost: boto3's field order, then the extra entries; the conditions of every field but policy and signature", () => {
    const signer = { accessKeyId: 'AK', secretKey: 'sk', region: 'r-1' };
    const issuedAt = Date.UTC(2025, 0, 1, 0, 0, 0);
    const p = presignPost(signer, {
      bucket: 'b',
      key: 'k/a.pdf',
      tagging: '<Tagging/>',
      vendor: 'amz',
      extra: [['z', '1']],
      issuedAt,
      expiresAt: issuedAt + 600_000,
      maxSize: 10,
    });
    expect(p.formFields.map(([n]) => n)).toEqual([
      'bucket',
      'key',
      'tagging',
      'policy',
      'x-amz-algorithm',
      'x-amz-credential',
      'x-amz-date',
      'x-amz-signature',
      'z',
    ]);
    expect(Buffer.from(p.policy, 'base64').toString()).toBe(
      '{"expiration":"2025-01-01T00:10:00.000Z","conditions":[{"bucket":"b"},{"key":"k/a.pdf"},{"tagging":"<Tagging/>"},{"z":"1"},{"x-amz-algorithm":"AWS4-HMAC-SHA256"},{"x-amz-credential":"AK/20250101/r-1/s3/aws4_request"},{"x-amz-date":"20250101T000000Z"},["content-length-range",0,10]]}',
    );
    expect(p.document.conditions).toHaveLength(8);
    expect(checkPostPolicy(signer, p.formFields, issuedAt)).toMatchObject({
      ok: true,
      key: 'k/a.pdf',
      sizeRange: [0, 10],
    });
  });

  it('amzDate, algorithmOf, decodePolicy', () => {
    expect(amzDate(0)).toBe('19700101T000000Z');
    expect(algorithmOf('amz')).toBe('AWS4-HMAC-SHA256');
    expect(algorithmOf('oss')).toBe('OSS4-HMAC-SHA256');
    const b64 = (s: string): string => Buffer.from(s).toString('base64');
    expect(
      decodePolicy(b64('{"expiration":"x","conditions":[{"a":"b"},["eq","$a","b"],["content-length-range",0,1]]}'))
        ?.conditions,
    ).toHaveLength(3);
    for (const bad of [
      'null',
      '{"expiration":1,"conditions":[]}',
      '{"expiration":"x","conditions":[{"a":1}]}',
      '{"expiration":"x","conditions":[["eq","a","b"]]}',
      '{"expiration":"x","conditions":[["content-length-range","0",1]]}',
      '{"expiration":"x","conditions":[["in","$a","b"]]}',
      '{"expiration":"x","conditions":[null]}',
      '{"expiration":"x","conditions":[{"a":"b","c":"d"}]}',
    ]) {
      expect(decodePolicy(b64(bad)), bad).toBeUndefined();
    }
    expect(decodePolicy('e30')).toBeUndefined(); // not canonical padded Base64
  });
});

describe('envelope bytes, byte for byte', () => {
  const envelope = {
    code: 'OK',
    errorMessage: null,
    data: {
      url: 'http://h/a<b>',
      é: 'ü',
      pairs: new OrderedPairs([
        ['b', '1'],
        ['0', '2'],
      ]),
      list: [1, true, null],
      empty: {},
      none: [],
    },
  };
  const extras = { requestId: 'r1', serverTime: 5 };
  const text = (style: Parameters<typeof envelopeBytes>[1]): string =>
    new TextDecoder().decode(envelopeBytes(envelope, style, extras));

  it.each([
    [
      'compact',
      '{"code":"OK","errorMessage":null,"data":{"url":"http://h/a<b>","é":"ü","pairs":{"b":"1","0":"2"},"list":[1,true,null],"empty":{},"none":[]}}',
    ],
    [
      'pretty',
      '{\n  "code": "OK",\n  "errorMessage": null,\n  "data": {\n    "url": "http://h/a<b>",\n    "é": "ü",\n    "pairs": {\n      "b": "1",\n      "0": "2"\n    },\n    "list": [\n      1,\n      true,\n      null\n    ],\n    "empty": {},\n    "none": []\n  }\n}\n',
    ],
    [
      'reordered',
      '{"data":{"none":[],"empty":{},"list":[1,true,null],"pairs":{"b":"1","0":"2"},"é":"ü","url":"http://h/a<b>"},"errorMessage":null,"code":"OK"}',
    ],
    [
      'unicode-escapes',
      '{"code":"OK","errorMessage":null,"data":{"url":"http:\\/\\/h\\/a\\u003cb\\u003e","\\u00e9":"\\u00fc","pairs":{"b":"1","0":"2"},"list":[1,true,null],"empty":{},"none":[]}}',
    ],
    [
      'null-fields',
      '{"code":"OK","errorMessage":null,"subCode":null,"data":{"url":"http://h/a<b>","é":"ü","pairs":{"b":"1","0":"2"},"list":[1,true,null],"empty":{},"none":[],"remark":null}}',
    ],
    [
      'extra-fields',
      '{"code":"OK","errorMessage":null,"data":{"url":"http://h/a<b>","é":"ü","pairs":{"b":"1","0":"2"},"list":[1,true,null],"empty":{},"none":[],"traceTags":["pgv2kit","reference"],"meta":{"version":2,"nested":{"flag":true,"ratio":0.5,"none":null}}},"requestId":"r1","serverTime":5}',
    ],
  ] as const)('%s', (style, expected) => {
    expect(text(style)).toBe(expected);
    expect(JSON.parse(text(style))).toBeTypeOf('object');
  });

  it('a refusal envelope has no data in any style; a number JSON cannot carry is refused', () => {
    expect(new TextDecoder().decode(envelopeBytes({ code: 'X', errorMessage: 'e' }, 'null-fields'))).toBe(
      '{"code":"X","errorMessage":"e","subCode":null}',
    );
    expect(new TextDecoder().decode(envelopeBytes({ code: 'X', errorMessage: 'e' }, 'extra-fields'))).toBe(
      '{"code":"X","errorMessage":"e","requestId":"0","serverTime":0}',
    );
    expect(() => envelopeBytes({ code: 'X', errorMessage: null, data: { n: Number.NaN } })).toThrow(RangeError);
  });

  it('the foreign merchant is never the merchant itself', () => {
    expect(foreignMerchant(DEMO_MERCHANT).appId).toBe('pgv2kit-foreign');
    expect(foreignMerchant({ appId: 'pgv2kit-foreign', appSecret: 'x' }).appId).toBe('pgv2kit-foreign-2');
  });
});

describe("the credentials schema agrees with the kit's rules and vectors", () => {
  const dir = join(import.meta.dirname, '../../vectors/upload');
  const cases = readdirSync(dir)
    .filter((f) => f.startsWith('credentials-'))
    .flatMap(
      (f) =>
        (
          parse(readFileSync(join(dir, f), 'utf8')) as {
            cases: Array<{
              id: string;
              op: string;
              result: string;
              inputs: Record<string, unknown>;
              expected: { problem?: { field: string; rule: string } };
            }>;
          }
        ).cases,
    )
    .filter((c) => c.op === 'upload.validate');

  it('there are credentials vectors to compare with', () => {
    expect(cases.length).toBeGreaterThan(30);
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const body = Object.fromEntries(
      Object.entries({
        filename: c.inputs['filename'],
        contentType: c.inputs['contentType'],
        scene: c.inputs['scene'],
      }).filter(([, v]) => v !== undefined),
    );
    const gateway = checkCredentialsBody(body);
    const rules = validateCredentialsRequest(body);
    expect(gateway.valid).toBe(rules.valid);
    if (!gateway.valid && !rules.valid)
      expect([gateway.problem.field, gateway.problem.rule, gateway.problem.limit]).toEqual([
        rules.problem.field,
        rules.problem.rule,
        rules.problem.limit,
      ]);
    const expected = c.expected.problem;
    if (expected && expected.field !== 'fileSize') {
      expect(gateway.valid).toBe(false);
      if (!gateway.valid)
        expect([gateway.problem.field, gateway.problem.rule]).toEqual([expected.field, expected.rule]);
    }
    if (c.result === 'valid') expect(gateway.valid).toBe(true);
  });
});

describe('scenario routing', () => {
  it.each([
    ['/s/a.b/pg/v2/x', { id: 'a.b', prefix: '/s/a.b', rest: '/pg/v2/x' }],
    ['/s/a%20b', { id: 'a b', prefix: '/s/a%20b', rest: '' }],
    ['/s/%E0%A4%A/x', { id: undefined, prefix: '', rest: '/s/%E0%A4%A/x' }],
    ['/s//x', { id: undefined, prefix: '', rest: '/s//x' }],
    ['/pg/v2/x', { id: undefined, prefix: '', rest: '/pg/v2/x' }],
  ])('splitScenarioPath(%s)', (path, expected) => {
    expect(splitScenarioPath(path)).toEqual(expected);
  });

  it('lookup: absent source or id is the plain gateway; checkScenario names what is wrong', () => {
    expect(lookupScenario(undefined, 'a')).toEqual({});
    expect(lookupScenario({ a: { upload: { expired: true } } }, undefined)).toEqual({});
    expect(lookupScenario(() => null as unknown as Scenario, 'a')).toEqual({});
    expect(() => scenarioPrefix('')).toThrow(RangeError);
    const bad: Array<[Scenario, RegExp]> = [
      [{ response: { signature: 'forged' as never } }, /unknown response signature "forged"/],
      [{ formFields: { vendor: 'X-Y' } }, /vendor must be lower-case letters and digits, not "X-Y"/],
      [{ formFields: { extra: 'a' as never } }, /must be an array/],
      [{ formFields: { extra: [['a', 1 as never]] } }, /pairs of strings/],
      [{ formFields: { extra: [['', 'v']] } }, /non-empty name/],
      [{ formFields: { extra: [['policy', 'v']] } }, /"policy" repeats an issued name or is reserved/],
      [{ formFields: { extra: [['x-goog-date', 'v']] } }, /reserved/],
      [
        {
          formFields: {
            extra: [
              ['a', '1'],
              ['a', '2'],
            ],
          },
        },
        /"a" repeats/,
      ],
    ];
    for (const [scenario, message] of bad) expect(() => checkScenario(scenario, 's1')).toThrow(message);
    expect(() =>
      checkScenario(
        {
          response: { bytes: 'pretty', signature: 'valid' },
          formFields: { vendor: 'goog', extra: [['x-a', '1']], specialValues: true },
          upload: { expired: true },
        },
        's',
      ),
    ).not.toThrow();
  });
});

describe('merchants, storage, XML, tables', () => {
  it('MerchantBook refuses what a header cannot carry', () => {
    expect(() => new MerchantBook([{ appId: 1 as never, appSecret: 's' }])).toThrow(TypeError);
    expect(() => new MerchantBook([{ appId: '', appSecret: 's' }])).toThrow(RangeError);
    expect(() => new MerchantBook([{ appId: 'a,b', appSecret: 's' }])).toThrow(/comma or white space/);
    const book = new MerchantBook([{ appId: 'a', appSecret: '1' }])
      .add({ appId: 'a', appSecret: '2' })
      .add({ appId: 'b', appSecret: '3' });
    expect(book.list()).toEqual([
      { appId: 'a', appSecret: '2' },
      { appId: 'b', appSecret: '3' },
    ]);
    expect(book.get('c')).toBeUndefined();
  });

  it('a storage folder that was given is kept on close; a discarded upload leaves nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-storage-'));
    try {
      const storage = await GatewayStorage.open(join(dir, 'nested'));
      const a = storage.begin();
      a.write(Uint8Array.of(1, 2));
      await a.discard();
      const b = storage.begin();
      expect(b.write(Uint8Array.of(9))).toBe(true);
      await new Promise<void>((resolve) => {
        b.onDrain(resolve);
        b.write(new Uint8Array(1 << 20));
      });
      const o = await b.commit({
        key: 'k',
        storageUri: 's3://b/k',
        bucket: 'b',
        uploadNo: '1-a',
        filename: 'f.pdf',
        contentType: 'application/pdf',
        storedAt: 0,
      });
      expect(o.size).toBe((1 << 20) + 1);
      expect(storage.get('k')).toBe(o);
      expect(await storage.files()).toEqual([o.path.slice(o.path.lastIndexOf('/') + 1)]);
      await storage.close();
      expect(readdirSync(join(dir, 'nested'))).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('S3-style XML: escaped text, characters XML cannot hold replaced', () => {
    expect(s3ErrorXml('AccessDenied', 'a<b & "c"', [['Field', 'x\u0001y']])).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>a&lt;b &amp; &quot;c&quot;</Message><Field>x\ufffdy</Field></Error>\n',
    );
    expect(escapeXml('\ud800>')).toBe('\ufffd&gt;');
  });

  it('every failure code is a 4xx but INTERNAL; every upload rule has words', () => {
    for (const [code, info] of Object.entries(API_FAILURES))
      expect(code === 'INTERNAL' ? info.status === 500 : info.status >= 400 && info.status < 500).toBe(true);
    for (const rule of Object.keys(UPLOAD_RULES) as UploadRule[]) {
      expect(UPLOAD_RULES[rule].status).toBeGreaterThanOrEqual(400);
      expect(ruleMessage(rule, 'f')).toMatch(/^[a-z]/);
    }
    expect(ruleMessage('file-not-last')).toBe('file part not last');
    expect(ruleMessage('expired')).toBe('uploadUrl expired');
  });
});

describe('startGateway refuses bad options and cleans up', () => {
  it('a bad vendor or extra entry: RangeError before anything listens', async () => {
    await expect(startGateway({ vendor: 'A B' })).rejects.toThrow(RangeError);
    await expect(startGateway({ extraFormFields: [['key', 'x']] })).rejects.toThrow(/reserved/);
  });

  it('a port in use: the error, and nothing left listening', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(startGateway({ port })).rejects.toThrow(/EADDRINUSE/);
      await expect(startGateway({ uploadPort: port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      blocker.close();
    }
  });

  it('close() twice is fine; the default merchant is the demo one; IPv6 loopback works', async () => {
    const g = await startGateway({ host: '::1' });
    expect(g.baseUrl).toMatch(/^http:\/\/\[::1\]:\d+$/);
    expect(g.merchants.list()).toEqual([DEMO_MERCHANT]);
    await Promise.all([g.close(), g.close()]);
  });
});
