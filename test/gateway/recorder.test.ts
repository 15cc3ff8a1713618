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
import { CREDENTIALS_PATH, MERCHANT, PDF_BODY, authHeader, correctForm, credentials, everyByte, postForm, send, signedPost } from './_support.js';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway({ merchants: [MERCHANT], scenarios: { 'rec.pretty': { response: { bytes: 'pretty' } } } });
});
afterAll(() => gateway.close());

const headers = (authorization: string): Record<string, string> => ({ 'content-type': 'application/json', accept: 'application/json', authorization });

describe('API requests', () => {
  it('a correct request: method, the full URL as sent, raw headers, raw body, verified, the answer and what was issued', async () => {
    const url = `${gateway.url('rec.ok')}${CREDENTIALS_PATH}?z=1&a=%2f`;
    const a = await signedPost(url, PDF_BODY);
    const [r] = gateway.recorder.for('rec.ok').requests;
    expect(r).toMatchObject({ method: 'POST', url, path: CREDENTIALS_PATH, bodyComplete: true, verified: true, verification: { valid: true, appId: MERCHANT.appId, tolerated: [] } });
    expect(r?.problem).toBeUndefined();
    expect(Buffer.from(r?.body ?? []).toString()).toBe(PDF_BODY);
    expect(r?.headers).toContainEqual(['content-type', 'application/json']);
    expect(r?.response).toMatchObject({ status: 200, code: 'OK', errorMessage: null, authorization: a.headers['authorization'] });
    expect(Buffer.from(r?.response.body ?? []).equals(a.bytes)).toBe(true);
    const data = (JSON.parse(a.text) as { data: { uploadNo: string; storageUri: string; uploadUrl: string } }).data;
    expect(r?.issued).toMatchObject({ uploadNo: data.uploadNo, storageUri: data.storageUri, uploadUrl: data.uploadUrl });
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
    expect(r?.headers.map(([n]) => n)).toEqual(['Host', 'Content-Type', 'Accept', 'X-Trace', 'Authorization', 'Content-Length', 'Connection']);
    expect(r?.headers[3]).toEqual(['X-Trace', 'A b']);
    expect(r?.url).toBe(url);
  });

  const mistakeCases: Array<[string, (url: string) => { signedUrl?: string; signedBody?: string; sentBody?: string; raw?: (url: string, body: string) => string }, string, RegExp]> = [
    ['a re-serialized body', () => ({ sentBody: JSON.stringify(JSON.parse(PDF_BODY), null, 2), signedBody: PDF_BODY }), 'body-reserialized', /^sign does not match: body signed differs from body sent — the body was parsed and serialized again/],
    ['the path signed', (url) => ({ signedUrl: new URL(url).pathname }), 'url-path-only', /^sign does not match: the path was signed instead of the full URL — part 4 was the path and query only/],
    ['the URL without the scenario prefix', (url) => ({ signedUrl: url.replace('/s/rec.mistake', '') }), 'url-without-scenario-prefix', /^sign does not match: the URL signed differs from the URL sent — part 4 was the URL without the \/s\/<scenario id> prefix/],
    ['https for http', (url) => ({ signedUrl: url.replace('http:', 'https:') }), 'url-https', /^sign does not match: the URL signed differs from the URL sent — part 4 was the URL with https:\/\//],
    ['the method signed in lower case', () => ({ raw: (url, body) => authHeader({ url, body, method: 'post' }) }), 'method-lower-case', /^sign does not match: the method signed differs from the method sent — the method was signed in lower case/],
    [
      'a body with é signed as Latin-1',
      () => ({
        sentBody: '{"filename":"é.pdf","scene":"DISPUTE_EVIDENCE"}',
        raw: (url, body) => {
          const ts = '1718090000000';
          const sign = createHash('sha256').update(Buffer.from(`${MERCHANT.appId}\n${MERCHANT.appSecret}\nPOST\n${url}\n${ts}\nn-2\n${body}\n`, 'latin1')).digest('hex');
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
          const sign = createHash('sha256').update(`${MERCHANT.appId}\n${MERCHANT.appSecret}\nPOST\n${url}\n${ts}\nn-1\n${body}`).digest('hex');
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
    const authorization = m.raw ? m.raw(url, sent) : authHeader({ url: m.signedUrl ?? url, body: m.signedBody ?? sent });
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
    expect(a?.verification).toEqual({ valid: false, problem: 'unknown-app-id', appId: 'app_ghost', message: 'unknown appId "app_ghost": no merchant has it', mistakes: [] });
    expect(b?.verification).toMatchObject({ valid: false, problem: 'no-authorization' });
    expect(b?.problem).toBe('no Authorization header: every request is signed (V2_SHA256, 5.3)');
  });

  it('a signed request refused for its body: verified, with the problem', async () => {
    await signedPost(`${gateway.url('rec.body')}${CREDENTIALS_PATH}`, '{"filename":"a.gif","scene":"DISPUTE_EVIDENCE"}');
    const [r] = gateway.recorder.for('rec.body').requests;
    expect(r).toMatchObject({ verified: true, problem: expect.stringMatching(/^filename breaks fileType/) as string, response: { status: 400, code: 'INVALID_ARGUMENT' } });
  });
});

describe('uploads', () => {
  it('parts in order with names, values, filename, content type, size; the rule broken; not stored', async () => {
    const { data } = await credentials(gateway, 'rec.upload');
    const parts = correctForm(data, everyByte(777)).map((p) => (p.name === 'x-amz-date' && 'value' in p ? { ...p, value: '20000101T000000Z' } : p));
    const r = await postForm(data.uploadUrl, parts);
    expect(r.status).toBe(403);
    const [u] = gateway.recorder.for('rec.upload').uploads;
    expect(u).toMatchObject({
      method: 'POST',
      url: data.uploadUrl,
      status: 403,
      stored: false,
      problem: 'formFields entry x-amz-date changed',
      outcome: { ok: false, rule: 'field-changed', field: 'x-amz-date', message: 'formFields entry x-amz-date changed', detail: expect.stringMatching(/^Invalid according to Policy: Policy Condition failed: \["eq","\$x-amz-date","\d{8}T\d{6}Z"\]$/) as string },
    });
    expect(u?.parts.map((p) => p.name)).toEqual([...Object.keys(data.formFields), 'file']);
    expect(u?.parts[7]).toEqual({ kind: 'field', name: 'x-amz-date', value: '20000101T000000Z', size: 16 });
    expect(u?.parts.at(-1)).toEqual({ kind: 'file', name: 'file', filename: 'evidence.pdf', contentType: 'application/pdf', size: 777 });
  });

  it('a stored upload: its storageUri, key, uploadNo and the file\'s SHA-256', async () => {
    const { data } = await credentials(gateway, 'rec.stored');
    const file = everyByte(1234);
    await postForm(data.uploadUrl, correctForm(data, file));
    const [u] = gateway.recorder.for('rec.stored').uploads;
    expect(u).toMatchObject({ status: 204, stored: true, storageUri: data.storageUri, key: data.formFields['key'], uploadNo: data.uploadNo, outcome: { ok: true }, advisories: [] });
    expect(u?.parts.at(-1)).toMatchObject({ size: 1234, sha256: createHash('sha256').update(file).digest('hex') });
  });

  it('reads as the runner\'s ClientRecord; plain paths are recorded apart; ids() and clear()', async () => {
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

describe('Recorder limit', () => {
  it('keeps only the newest records per scenario when given a limit', async () => {
    const { Recorder } = await import('../../src/gateway/recorder.js');
    const r = new Recorder(2);
    for (let i = 1; i <= 3; i++) r.addUpload('s', { seq: i } as never);
    expect(r.for('s').uploads.map((u) => u.seq)).toEqual([2, 3]);
    for (let i = 1; i <= 3; i++) r.addRequest('s', { seq: i } as never);
    expect(r.for('s').requests.map((u) => u.seq)).toEqual([2, 3]);
  });
});
