/**
 * What the gateway records per scenario id: API requests as received (URL as sent,
 * headers, raw body, verification with the known mistake that reproduces a wrong sign)
 * and uploads (parts in order, the exact rule broken, whether stored).
 */
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientRecord } from '../../src/checks/context.js';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import {
  Recorder,
  SUMMARY_BODY_BYTES,
  SUMMARY_PARTS,
  type RecordedRequest,
  type RecordedUpload,
} from '../../src/gateway/recorder.js';
import {
  CREDENTIALS_PATH,
  MERCHANT,
  PDF_BODY,
  authHeader,
  correctForm,
  credentials,
  everyByte,
  postForm,
  send,
  signedPost,
} from './_support.js';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway({
    merchants: [MERCHANT],
    scenarios: { 'rec.pretty': { response: { bytes: 'pretty' } } },
  });
});
afterAll(() => gateway.close());

const headers = (authorization: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json',
  authorization,
});

describe('API requests', () => {
  it('a correct request: method, the full URL as sent, raw headers, raw body, verified, the answer and what was issued', async () => {
    const url = `${gateway.url('rec.ok')}${CREDENTIALS_PATH}?z=1&a=%2f`;
    const a = await signedPost(url, PDF_BODY);
    const [r] = gateway.recorder.for('rec.ok').requests;
    expect(r).toMatchObject({
      method: 'POST',
      url,
      path: CREDENTIALS_PATH,
      bodyComplete: true,
      verified: true,
      verification: { valid: true, appId: MERCHANT.appId, tolerated: [] },
    });
    expect(r?.problem).toBeUndefined();
    expect(Buffer.from(r?.body ?? []).toString()).toBe(PDF_BODY);
    expect(r?.headers).toContainEqual(['content-type', 'application/json']);
    expect(r?.response).toMatchObject({
      status: 200,
      code: 'OK',
      errorMessage: null,
      authorization: a.headers['authorization'],
    });
    expect(Buffer.from(r?.response.body ?? []).equals(a.bytes)).toBe(true);
    const data = (JSON.parse(a.text) as { data: { uploadNo: string; storageUri: string; uploadUrl: string } }).data;
    expect(r?.issued).toMatchObject({
      uploadNo: data.uploadNo,
      storageUri: data.storageUri,
      uploadUrl: data.uploadUrl,
    });
    expect(r?.issued?.formFields.map(([n]) => n)).toContain('x-amz-signature');
  });

  it('headers are recorded as written on the wire, names in their case and order', async () => {
    const url = `${gateway.url('rec.raw')}${CREDENTIALS_PATH}`;
    const head = `POST /s/rec.raw${CREDENTIALS_PATH} HTTP/1.1\r\nHost: ${new URL(gateway.baseUrl).host}\r\nContent-Type: application/json\r\nAccept: application/json\r\nX-Trace: A b\r\nAuthorization: ${authHeader({ url, body: PDF_BODY })}\r\nContent-Length: ${PDF_BODY.length}\r\nConnection: close\r\n\r\n`;
    const text = await new Promise<string>((resolve) => {
      const u = new URL(gateway.baseUrl);
      const s = connect(Number(u.port), u.hostname, () => s.end(head + PDF_BODY));
      let got = '';
      s.on('data', (c) => void (got += c.toString('latin1')));
      s.on('close', () => resolve(got));
    });
    expect(text).toMatch(/^HTTP\/1.1 200 OK/);
    const r = gateway.recorder.for('rec.raw').requests[0];
    expect(r?.headers.map(([n]) => n)).toEqual([
      'Host',
      'Content-Type',
      'Accept',
      'X-Trace',
      'Authorization',
      'Content-Length',
      'Connection',
    ]);
    expect(r?.headers[3]).toEqual(['X-Trace', 'A b']);
    expect(r?.url).toBe(url);
  });

  const mistakeCases: Array<
    [
      string,
      (url: string) => {
        signedUrl?: string;
        signedBody?: string;
        sentBody?: string;
        raw?: (url: string, body: string) => string;
      },
      string,
      RegExp,
    ]
  > = [
    [
      'a re-serialized body',
      () => ({ sentBody: JSON.stringify(JSON.parse(PDF_BODY), null, 2), signedBody: PDF_BODY }),
      'body-reserialized',
      /^sign does not match: body signed differs from body sent — the body was parsed and serialized again/,
    ],
    [
      'the path signed',
      (url) => ({ signedUrl: new URL(url).pathname }),
      'url-path-only',
      /^sign does not match: the path was signed instead of the full URL — part 4 was the path and query only/,
    ],
    [
      'the URL without the scenario prefix',
      (url) => ({ signedUrl: url.replace('/s/rec.mistake', '') }),
      'url-without-scenario-prefix',
      /^sign does not match: the URL signed differs from the URL sent — part 4 was the URL without the \/s\/<scenario id> prefix/,
    ],
    [
      'https for http',
      (url) => ({ signedUrl: url.replace('http:', 'https:') }),
      'url-https',
      /^sign does not match: the URL signed differs from the URL sent — part 4 was the URL with https:\/\//,
    ],
    [
      'the method signed in lower case',
      () => ({ raw: (url, body) => authHeader({ url, body, method: 'post' }) }),
      'method-lower-case',
      /^sign does not match: the method signed differs from the method sent — the method was signed in lower case/,
    ],
    [
      'a body with é signed as Latin-1',
      () => ({
        sentBody: '{"filename":"é.pdf","scene":"DISPUTE_EVIDENCE"}',
        raw: (url, body) => {
          const ts = '1718090000000';
          const sign = createHash('sha256')
            .update(
              Buffer.from(`${MERCHANT.appId}\n${MERCHANT.appSecret}\nPOST\n${url}\n${ts}\nn-2\n${body}\n`, 'latin1'),
            )
            .digest('hex');
          return `V2_SHA256 appId=${MERCHANT.appId},sign=${sign},timestamp=${ts},nonce=n-2`;
        },
      }),
      'latin1',
      /^sign does not match: the content was not encoded as UTF-8 — the content was encoded as Latin-1/,
    ],
    [
      'the final LF left out',
      () => ({
        raw: (url, body) => {
          const ts = '1718090000000';
          const sign = createHash('sha256')
            .update(`${MERCHANT.appId}\n${MERCHANT.appSecret}\nPOST\n${url}\n${ts}\nn-1\n${body}`)
            .digest('hex');
          return `V2_SHA256 appId=${MERCHANT.appId},sign=${sign},timestamp=${ts},nonce=n-1`;
        },
      }),
      'no-final-lf',
      /^sign does not match: the signature content was not built as 5\.1 says — the LF after part 7 \(the body\) was left out \(§5\.1, R1\)$/,
    ],
  ];

  it.each(mistakeCases)('%s: refused 401, the record names the mistake', async (_name, make, id, message) => {
    const url = `${gateway.url('rec.mistake')}${CREDENTIALS_PATH}`;
    const m = make(url);
    const sent = m.sentBody ?? PDF_BODY;
    const authorization = m.raw
      ? m.raw(url, sent)
      : authHeader({ url: m.signedUrl ?? url, body: m.signedBody ?? sent });
    const a = await send(url, { body: sent, headers: headers(authorization) });
    expect(a.status).toBe(401);
    const r = gateway.recorder.for('rec.mistake').requests.at(-1);
    expect(r?.verified).toBe(false);
    expect(r?.problem).toMatch(message);
    expect((JSON.parse(a.text) as { errorMessage: string }).errorMessage).toBe(r?.problem);
    expect(r?.verification.valid === false && r.verification.mistakes.map((x) => x.id)).toContain(id);
    expect(r?.verification).toMatchObject({ valid: false, problem: 'sign-mismatch', appId: MERCHANT.appId });
  });

  it('an unknown appId and a request without Authorization are recorded with their problem', async () => {
    const url = `${gateway.url('rec.who')}${CREDENTIALS_PATH}`;
    await send(url, { body: PDF_BODY, headers: headers(authHeader({ appId: 'app_ghost', url, body: PDF_BODY })) });
    await send(url, { body: PDF_BODY, headers: { 'content-type': 'application/json', accept: 'application/json' } });
    const [a, b] = gateway.recorder.for('rec.who').requests;
    expect(a?.verification).toEqual({
      valid: false,
      problem: 'unknown-app-id',
      appId: 'app_ghost',
      message: 'unknown appId "app_ghost": no merchant has it',
      mistakes: [],
    });
    expect(b?.verification).toMatchObject({ valid: false, problem: 'no-authorization' });
    expect(b?.problem).toBe('no Authorization header: every request is signed (V2_SHA256, 5.3)');
  });

  it('a signed request refused for its body: verified, with the problem', async () => {
    await signedPost(
      `${gateway.url('rec.body')}${CREDENTIALS_PATH}`,
      '{"filename":"a.gif","scene":"DISPUTE_EVIDENCE"}',
    );
    const [r] = gateway.recorder.for('rec.body').requests;
    expect(r).toMatchObject({
      verified: true,
      problem: expect.stringMatching(/^filename breaks fileType/) as string,
      response: { status: 400, code: 'INVALID_ARGUMENT' },
    });
  });
});

describe('uploads', () => {
  it('parts in order with names, values, filename, content type, size; the rule broken; not stored', async () => {
    const { data } = await credentials(gateway, 'rec.upload');
    const parts = correctForm(data, everyByte(777)).map((p) =>
      p.name === 'x-amz-date' && 'value' in p ? { ...p, value: '20000101T000000Z' } : p,
    );
    const r = await postForm(data.uploadUrl, parts);
    expect(r.status).toBe(403);
    const [u] = gateway.recorder.for('rec.upload').uploads;
    expect(u).toMatchObject({
      method: 'POST',
      url: data.uploadUrl,
      status: 403,
      stored: false,
      problem: 'formFields entry x-amz-date changed',
      outcome: {
        ok: false,
        rule: 'field-changed',
        field: 'x-amz-date',
        message: 'formFields entry x-amz-date changed',
        detail: expect.stringMatching(
          /^Invalid according to Policy: Policy Condition failed: \["eq","\$x-amz-date","\d{8}T\d{6}Z"\]$/,
        ) as string,
      },
    });
    expect(u?.parts.map((p) => p.name)).toEqual([...Object.keys(data.formFields), 'file']);
    expect(u?.parts[7]).toEqual({ kind: 'field', name: 'x-amz-date', value: '20000101T000000Z', size: 16 });
    expect(u?.parts.at(-1)).toEqual({
      kind: 'file',
      name: 'file',
      filename: 'evidence.pdf',
      contentType: 'application/pdf',
      size: 777,
    });
  });

  it("a stored upload: its storageUri, key, uploadNo and the file's SHA-256", async () => {
    const { data } = await credentials(gateway, 'rec.stored');
    const file = everyByte(1234);
    await postForm(data.uploadUrl, correctForm(data, file));
    const [u] = gateway.recorder.for('rec.stored').uploads;
    expect(u).toMatchObject({
      status: 204,
      stored: true,
      storageUri: data.storageUri,
      key: data.formFields['key'],
      uploadNo: data.uploadNo,
      outcome: { ok: true },
      advisories: [],
    });
    expect(u?.parts.at(-1)).toMatchObject({ size: 1234, sha256: createHash('sha256').update(file).digest('hex') });
  });

  it("reads as the runner's ClientRecord; plain paths are recorded apart; ids() and clear()", async () => {
    const view: ClientRecord = gateway.recorder.for('rec.stored');
    expect(view.uploads[0]?.stored).toBe(true);
    const before = gateway.recorder.for().requests.length;
    await credentials(gateway, undefined);
    expect(gateway.recorder.for().requests).toHaveLength(before + 1);
    expect(gateway.recorder.for(undefined).id).toBeUndefined();
    expect(gateway.recorder.ids()).toContain('rec.stored');
    expect(gateway.recorder.ids()).toContain(undefined);
    gateway.recorder.clear('rec.stored');
    expect(gateway.recorder.for('rec.stored').uploads).toEqual([]);
    expect(gateway.recorder.ids()).not.toContain('rec.stored');
    expect(gateway.recorder.for('never-seen')).toEqual({ id: 'never-seen', requests: [], uploads: [] });
  });
});

describe('Recorder bounds (issue 12, item 1)', () => {
  /** A request as the API listener records it: refused unless `ok`, with a body of `size` bytes. */
  const request = (seq: number, size = 10, ok = true): Omit<RecordedRequest, 'bodySize'> => ({
    seq,
    at: 0,
    method: 'POST',
    url: `http://127.0.0.1/s/x${CREDENTIALS_PATH}`,
    path: CREDENTIALS_PATH,
    headers: [['authorization', 'x'.repeat(5000)]],
    body: new Uint8Array(size).fill(0x61),
    bodyComplete: true,
    verification: ok
      ? { valid: true, appId: 'a', tolerated: [] }
      : { valid: false, problem: 'no-authorization', message: 'no', mistakes: [] },
    verified: ok,
    ...(ok ? {} : { problem: 'no Authorization header' }),
    response: {
      status: ok ? 200 : 401,
      code: ok ? 'OK' : 'UNAUTHENTICATED',
      errorMessage: null,
      body: new Uint8Array(100),
    },
  });
  const upload = (seq: number, ok = true): RecordedUpload => ({
    seq,
    at: 0,
    method: 'POST',
    url: 'http://127.0.0.1/b',
    headers: [],
    parts: Array.from({ length: 100 }, (_, i) => ({
      kind: 'field' as const,
      name: `f${i}`,
      value: 'v'.repeat(5000),
      size: 5000,
    })),
    outcome: ok ? { ok: true } : { ok: false, rule: 'policy', message: 'm', detail: 'd' },
    status: ok ? 204 : 403,
    stored: ok,
    advisories: [],
  });

  it('keeps only the newest records per scenario when given a count', () => {
    const r = new Recorder(2);
    for (let i = 1; i <= 3; i++) r.addUpload('s', upload(i));
    expect(r.for('s').uploads.map((u) => u.seq)).toEqual([2, 3]);
    for (let i = 1; i <= 3; i++) r.addRequest('s', request(i));
    expect(r.for('s').requests.map((u) => u.seq)).toEqual([2, 3]);
  });

  it('a refused request is a summary: the first KiB of its body (bodySize says how much came), headers clipped', () => {
    const r = new Recorder();
    r.addRequest('s', request(1, 60_000, false));
    r.addRequest('s', request(2, 60_000, true));
    const [refused, accepted] = r.for('s').requests;
    expect(refused?.body.byteLength).toBe(SUMMARY_BODY_BYTES);
    expect(refused?.body.buffer.byteLength).toBe(SUMMARY_BODY_BYTES);
    expect(refused?.bodySize).toBe(60_000);
    expect(refused?.headers[0]?.[1]).toBe(`${'x'.repeat(1024)}…`);
    expect(accepted?.body.byteLength).toBe(60_000);
    expect(accepted?.bodySize).toBe(60_000);
    expect(accepted?.headers[0]?.[1]).toHaveLength(5000);
  });

  it('a refused upload keeps 32 parts, each value clipped; a stored one keeps all', () => {
    const r = new Recorder();
    r.addUpload('s', upload(1, false));
    r.addUpload('s', upload(2, true));
    const [refused, stored] = r.for('s').uploads;
    expect(refused?.parts).toHaveLength(SUMMARY_PARTS);
    expect(refused?.parts[0]).toMatchObject({ kind: 'field', value: `${'v'.repeat(1024)}…`, size: 5000 });
    expect(stored?.parts).toHaveLength(100);
  });

  it('one byte budget across every scenario id: the least recently written scenarios go first', () => {
    const r = new Recorder({ maxBytes: 200_000 });
    for (let i = 0; i < 50; i++) r.addRequest(`id-${i}`, request(i, 20_000));
    const usage = r.usage();
    expect(usage.bytes).toBeLessThanOrEqual(200_000);
    expect(usage.dropped).toBeGreaterThan(35);
    expect(r.ids().at(-1)).toBe('id-49');
    expect(r.ids()).not.toContain('id-0');
    // written again, an old id becomes the newest and outlives the others
    const kept = r.ids()[0] as string;
    r.addRequest(kept, request(99, 10));
    for (let i = 50; i < 55; i++) r.addRequest(`id-${i}`, request(i, 20_000));
    expect(r.ids()).toContain(kept);
  });

  it('a single scenario over the budget keeps its newest entries', () => {
    const r = new Recorder({ maxBytes: 100_000 });
    for (let i = 1; i <= 20; i++) r.addRequest('one', request(i, 20_000));
    expect(r.usage().bytes).toBeLessThanOrEqual(100_000);
    expect(r.for('one').requests.at(-1)?.seq).toBe(20);
    expect(r.for('one').requests.length).toBeLessThan(20);
  });

  it('scenario ids are bounded: past the count, the least recently written is dropped', () => {
    const r = new Recorder({ maxScenarios: 100 });
    for (let i = 0; i < 1000; i++) r.addRequest(`id-${i}`, request(i, 10, false));
    expect(r.usage()).toMatchObject({ scenarios: 100, dropped: 900 });
    expect(r.ids()[0]).toBe('id-900');
  });

  it('a flood of refused 60 KB requests to distinct ids over real HTTP: each kept as a summary, the ids and bytes bounded', async () => {
    const flooded = await startGateway({ merchants: [MERCHANT], recordBounds: { maxScenarios: 50 } });
    try {
      const body = 'a'.repeat(60 * 1024);
      for (let i = 0; i < 120; i++) {
        const r = await send(`${flooded.url(`flood-${i}`)}${CREDENTIALS_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body,
        });
        expect(r.status).toBe(401);
      }
      const usage = flooded.recorder.usage();
      expect(usage).toMatchObject({ scenarios: 50, dropped: 70 });
      // 50 summaries: their bodies' first KiB, not 3 MB of bodies
      expect(usage.bytes).toBeLessThan(50 * 4096);
      const last = flooded.recorder.for('flood-119').requests[0];
      expect(last).toMatchObject({ bodySize: 60 * 1024, verified: false, response: { status: 401 } });
      expect(last?.body.byteLength).toBe(SUMMARY_BODY_BYTES);
    } finally {
      await flooded.close();
    }
  });
});
