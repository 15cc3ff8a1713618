/**
 * Scenarios (src/vectors/scenario.ts): response bytes that are valid but not canonical
 * (each still verifies over the raw bytes, none over re-serialized data), signatures
 * broken exactly as each scenario says, formFields with another vendor, extra entries
 * and special values, an uploadUrl already expired; scenario sources and prefixes.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway, type Scenario } from '../../src/gateway/index.js';
import { verifyResponse } from '../../src/scheme/verify.js';
import {
  CREDENTIALS_PATH,
  MERCHANT,
  PAYMENT_PATH,
  correctForm,
  credentials,
  everyByte,
  postForm,
  signedPost,
  xmlElement,
} from './_support.js';

const scenarios: Record<string, Scenario> = {
  'bytes.pretty': { response: { bytes: 'pretty' } },
  'bytes.reordered': { response: { bytes: 'reordered' } },
  'bytes.unicode-escapes': { response: { bytes: 'unicode-escapes' } },
  'bytes.null-fields': { response: { bytes: 'null-fields' } },
  'bytes.extra-fields': { response: { bytes: 'extra-fields' } },
  'bytes.compact': { response: { bytes: 'compact', signature: 'valid' } },
  'sig.tampered': { response: { signature: 'tampered' } },
  'sig.foreign-app-id': { response: { signature: 'foreign-app-id' } },
  'sig.wrong-secret': { response: { signature: 'wrong-secret' } },
  'sig.missing': { response: { signature: 'missing' } },
  'ff.goog': { formFields: { vendor: 'goog' } },
  'ff.extra': {
    formFields: {
      extra: [
        ['x-trace-id', 't-1'],
        ['acl', 'private'],
        ['17', 'numeric name'],
      ],
    },
  },
  'ff.special': { formFields: { specialValues: true } },
  'up.expired': { upload: { expired: true } },
};

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway({ merchants: [MERCHANT], scenarios: (id) => scenarios[id] });
});
afterAll(() => gateway.close());

const verify = (
  url: string,
  a: { headers: Record<string, unknown>; bytes: Uint8Array },
  merchant: { appId: string; appSecret: string } = MERCHANT,
) =>
  verifyResponse({
    ...merchant,
    method: 'POST',
    url,
    status: 200,
    authorization: (a.headers['authorization'] as string | undefined) ?? null,
    body: a.bytes,
  });

describe('response bytes: valid JSON, only compact canonical; each verifies over the raw bytes only', () => {
  it.each(['pretty', 'reordered', 'unicode-escapes', 'null-fields', 'extra-fields'])('%s', async (style) => {
    const { answer, url, data } = await credentials(gateway, `bytes.${style}`);
    expect(verify(url, answer).valid).toBe(true);
    const parsed = JSON.parse(answer.text) as Record<string, unknown> & { data: Record<string, unknown> };
    // What a client verifying parsed data would sign: JSON.stringify of what it parsed, or of its typed model (2.3, 2.4 fields only).
    const d = parsed.data;
    const typed = {
      code: parsed['code'],
      errorMessage: parsed['errorMessage'],
      data: {
        uploadUrl: d['uploadUrl'],
        storageUri: d['storageUri'],
        uploadNo: d['uploadNo'],
        formFields: d['formFields'],
        httpMethod: d['httpMethod'],
      },
    };
    if (style === 'pretty' || style === 'unicode-escapes')
      expect(verify(url, { headers: answer.headers, bytes: Buffer.from(JSON.stringify(parsed)) }).valid).toBe(false);
    expect(verify(url, { headers: answer.headers, bytes: Buffer.from(JSON.stringify(typed)) }).valid).toBe(false);
    expect(parsed).toMatchObject({ code: 'OK', errorMessage: null });
    expect(Object.keys(data.formFields)[0]).toBe('bucket');
    if (style === 'pretty') {
      expect(answer.text.endsWith('}\n')).toBe(true);
      expect(answer.text).toContain('\n  "code": "OK",\n');
    }
    if (style === 'reordered') {
      expect(Object.keys(parsed)).toEqual(['data', 'errorMessage', 'code']);
      expect(Object.keys(parsed.data)).toEqual(['httpMethod', 'formFields', 'uploadNo', 'storageUri', 'uploadUrl']);
      expect(Object.keys(data.formFields).at(-1)).toBe('x-amz-signature');
    }
    if (style === 'unicode-escapes') {
      expect(answer.text).toContain('http:\\/\\/127.0.0.1');
      expect(answer.text).toContain('\\u003cTagging\\u003e');
      expect(answer.text).not.toMatch(/[<>]/);
    }
    if (style === 'null-fields') {
      expect(parsed['subCode']).toBeNull();
      expect(parsed.data['remark']).toBeNull();
    }
    if (style === 'extra-fields') {
      expect(parsed['requestId']).toMatch(/^[0-9a-f]{16}$/);
      expect(typeof parsed['serverTime']).toBe('number');
      expect(parsed.data).toMatchObject({
        traceTags: ['pgv2kit', 'reference'],
        meta: { version: 2, nested: { flag: true, ratio: 0.5, none: null } },
      });
    }
    // and the credentials work
    expect((await postForm(data.uploadUrl, correctForm(data, everyByte(300)))).status).toBe(204);
  });

  it('compact is JSON.stringify of the envelope', async () => {
    const { answer, url } = await credentials(gateway, 'bytes.compact');
    expect(JSON.stringify(JSON.parse(answer.text))).toBe(answer.text);
    expect(verify(url, answer).valid).toBe(true);
  });

  it('payment/create answers in the scenario bytes too', async () => {
    const url = `${gateway.url('bytes.pretty')}${PAYMENT_PATH}`;
    const a = await signedPost(url, '{"merchantTradeNo":"M-1","amount":"1.00","currency":"USD"}');
    expect(a.status).toBe(200);
    expect(a.text.endsWith('}\n')).toBe(true);
    expect(verify(url, a).valid).toBe(true);
  });
});

describe('response signatures broken exactly as each scenario says', () => {
  it('tampered: the merchant appId, a sign that does not match', async () => {
    const { answer, url } = await credentials(gateway, 'sig.tampered');
    expect(String(answer.headers['authorization'])).toContain(`appId=${MERCHANT.appId},`);
    const v = verify(url, answer);
    expect(!v.valid && v.problem.kind).toBe('sign-mismatch');
  });

  it("foreign-app-id: a genuine signature of another merchant; the appId is not the merchant's own (R9)", async () => {
    const { answer, url } = await credentials(gateway, 'sig.foreign-app-id');
    const header = String(answer.headers['authorization']);
    const v = verify(url, answer);
    expect(!v.valid && v.problem.kind).toBe('app-id-mismatch');
    const appId = /appId=([^,]+)/.exec(header)?.[1] ?? '';
    expect(appId).not.toBe(MERCHANT.appId);
    expect(verify(url, answer, { appId, appSecret: 'pgv2kit-foreign-secret' }).valid).toBe(true);
  });

  it('wrong-secret: the merchant appId, signed with another secret', async () => {
    const { answer, url } = await credentials(gateway, 'sig.wrong-secret');
    const header = String(answer.headers['authorization']);
    expect(header).toContain(`appId=${MERCHANT.appId},`);
    const [, ts, nonce] = /timestamp=(\d+),nonce=(\w+)/.exec(header) ?? [];
    const withOwn = createHash('sha256')
      .update(`${MERCHANT.appId}\n${MERCHANT.appSecret}\nPOST\n${url}\n${ts}\n${nonce}\n`)
      .update(answer.bytes)
      .update('\n')
      .digest('hex');
    expect(header).not.toContain(withOwn);
    const v = verify(url, answer);
    expect(!v.valid && v.problem.kind).toBe('sign-mismatch');
  });

  it('missing: a 200 without Authorization', async () => {
    const { answer, url } = await credentials(gateway, 'sig.missing');
    expect(answer.headers['authorization']).toBeUndefined();
    const v = verify(url, answer);
    expect(!v.valid && v.problem.kind).toBe('no-authorization');
  });
});

describe('formFields variants', () => {
  it('another vendor: x-goog-* entries (GOOG4-HMAC-SHA256); the upload works', async () => {
    const { data } = await credentials(gateway, 'ff.goog');
    expect(Object.keys(data.formFields)).toEqual([
      'bucket',
      'key',
      'Content-Type',
      'tagging',
      'policy',
      'x-goog-algorithm',
      'x-goog-credential',
      'x-goog-date',
      'x-goog-signature',
    ]);
    expect(data.formFields['x-goog-algorithm']).toBe('GOOG4-HMAC-SHA256');
    expect((await postForm(data.uploadUrl, correctForm(data, everyByte(1000)))).status).toBe(204);
  });

  it('extra entries come after the usual ones, in order (an integer-like name included), each with its condition', async () => {
    const { answer, data } = await credentials(gateway, 'ff.extra');
    expect(answer.text).toMatch(
      /"x-amz-signature":"[0-9a-f]{64}","x-trace-id":"t-1","acl":"private","17":"numeric name"\}/,
    );
    const policy = JSON.parse(Buffer.from(data.formFields['policy'] ?? '', 'base64').toString()) as {
      conditions: unknown[];
    };
    expect(policy.conditions).toContainEqual({ acl: 'private' });
    const names = [
      'bucket',
      'key',
      'Content-Type',
      'tagging',
      'policy',
      'x-amz-algorithm',
      'x-amz-credential',
      'x-amz-date',
      'x-amz-signature',
      'x-trace-id',
      'acl',
      '17',
    ];
    const form = names.map((name) => ({ name, value: data.formFields[name] ?? '' }));
    const file = { name: 'file', filename: 'evidence.pdf', contentType: 'application/pdf', data: everyByte(64) };
    const without = await postForm(data.uploadUrl, [...form.filter((p) => p.name !== 'acl'), file]);
    expect(without.status).toBe(403);
    expect(xmlElement(without.text, 'Message')).toMatch(/^formFields entry acl missing: /);
    expect((await postForm(data.uploadUrl, [...form, file])).status).toBe(204);
  });

  it('values with spaces, "+", "/", "=": sent exactly they pass; form-encoded they are "changed"', async () => {
    const { data } = await credentials(gateway, 'ff.special');
    expect(data.formFields['key']).toMatch(/ .*\+.*=/);
    expect(data.formFields['tagging']).toContain('<Value>scan 1+2/3=ok</Value>');
    const parts = correctForm(data, everyByte(5));
    const mangled = parts.map((p) =>
      'value' in p && p.name === 'key' ? { ...p, value: encodeURIComponent(p.value) } : p,
    );
    const refused = await postForm(data.uploadUrl, mangled);
    expect(refused.status).toBe(403);
    expect(xmlElement(refused.text, 'Message')).toMatch(/^formFields entry key changed: /);
    expect((await postForm(data.uploadUrl, parts)).status).toBe(204);
    expect(gateway.storage.get(data.storageUri)?.key).toBe(data.formFields['key']);
  });

  it('an uploadUrl already expired when issued: 403 AccessDenied "uploadUrl expired", nothing stored', async () => {
    const { data } = await credentials(gateway, 'up.expired');
    const r = await postForm(data.uploadUrl, correctForm(data, everyByte(5)));
    expect(r.status).toBe(403);
    expect(xmlElement(r.text, 'Code')).toBe('AccessDenied');
    expect(xmlElement(r.text, 'Message')).toBe('uploadUrl expired: Invalid according to Policy: Policy expired.');
    expect(gateway.storage.get(data.storageUri)).toBeUndefined();
    expect(gateway.recorder.for('up.expired').uploads[0]).toMatchObject({
      stored: false,
      problem: 'uploadUrl expired',
      outcome: { ok: false, rule: 'expired' },
    });
  });
});

describe('scenario sources and paths', () => {
  it('a Map, a plain object, or a function; an unknown id is the plain gateway, recorded under its id', async () => {
    const viaMap = await startGateway({
      merchants: [MERCHANT],
      scenarios: new Map([['m', { response: { signature: 'missing' } }]]),
      vendor: 'oss',
      extraFormFields: [['x-oss-meta', 'm1']],
    });
    try {
      const m = await credentials(viaMap, 'm');
      expect(m.answer.headers['authorization']).toBeUndefined();
      const plain = await credentials(viaMap, 'nobody-knows-me');
      expect(plain.answer.headers['authorization']).toBeDefined();
      expect(Object.keys(plain.data.formFields).slice(5)).toEqual([
        'x-oss-algorithm',
        'x-oss-credential',
        'x-oss-date',
        'x-oss-signature',
        'x-oss-meta',
      ]);
      expect((await postForm(plain.data.uploadUrl, correctForm(plain.data, everyByte(9)))).status).toBe(204);
      expect(viaMap.recorder.for('nobody-knows-me').uploads[0]?.stored).toBe(true);
      expect(viaMap.recorder.ids()).toEqual(['m', 'nobody-knows-me']);
    } finally {
      await viaMap.close();
    }
    const viaObject = await startGateway({
      merchants: [MERCHANT],
      scenarios: { o: { response: { bytes: 'pretty' } } },
    });
    try {
      expect((await credentials(viaObject, 'o')).answer.text.endsWith('\n')).toBe(true);
      expect((await credentials(viaObject, 'toString')).answer.text.endsWith('}')).toBe(true);
    } finally {
      await viaObject.close();
    }
  });

  it('ids are percent-encoded in the prefix; the uploadUrl carries the same prefix', async () => {
    const id = 'client.odd id/ü';
    expect(gateway.url(id)).toBe(`${gateway.baseUrl}/s/client.odd%20id%2F%C3%BC`);
    const { data } = await credentials(gateway, id);
    expect(data.uploadUrl).toBe(`${gateway.uploadUrl}/s/client.odd%20id%2F%C3%BC/pgv2kit-evidence`);
    await postForm(data.uploadUrl, correctForm(data, everyByte(3)));
    expect(gateway.recorder.for(id).requests).toHaveLength(1);
    expect(gateway.recorder.for(id).uploads[0]?.stored).toBe(true);
  });

  it('a scenario with an unknown style is a bug of the caller: 500, logged', async () => {
    const lines: string[] = [];
    const bad = await startGateway({
      merchants: [MERCHANT],
      scenarios: { b: { response: { bytes: 'wavy' as never } } },
      log: (l) => lines.push(l),
    });
    try {
      const r = await signedPost(
        `${bad.url('b')}${CREDENTIALS_PATH}`,
        '{"filename":"a.pdf","scene":"DISPUTE_EVIDENCE"}',
      );
      expect(r.status).toBe(500);
      expect(JSON.parse(r.text)).toMatchObject({ code: 'INTERNAL' });
      expect(lines.join('\n')).toMatch(/internal error: RangeError: scenario "b": unknown response bytes "wavy"/);
    } finally {
      await bad.close();
    }
  });
});
