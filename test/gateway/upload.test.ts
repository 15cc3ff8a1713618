/**
 * The upload address (4.2, 3, 7, 8; R13, R14, R16): each rule with its status, S3 code and
 * words; the size limit enforced while streaming (answered before the body is consumed);
 * the injected clock for expiry; nothing stored for any refusal.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import {
  MERCHANT,
  correctForm,
  credentials,
  everyByte,
  multipart,
  postForm,
  send,
  streamRequest,
  xmlElement,
  type CredentialsData,
  type FormPart,
  type Streamed,
} from './_support.js';

let gateway: Gateway;
let now = Date.UTC(2025, 0, 2, 3, 4, 5);
const logs: string[] = [];

beforeAll(async () => {
  gateway = await startGateway({
    merchants: [MERCHANT],
    clock: { now: () => now },
    bodyTimeoutMs: 300,
    log: (l) => logs.push(l),
  });
});
afterEach(async () => {
  // A refused upload's partial file is deleted right after the answer.
  let partial: string[] = [];
  for (let i = 0; i < 100; i++) {
    partial = (await gateway.storage.files()).filter((f) => f.startsWith('.incoming-'));
    if (partial.length === 0) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(partial).toEqual([]);
});
afterAll(async () => {
  await gateway.close();
  expect(logs.filter((l) => l.includes('internal error'))).toEqual([]);
});

const FILE = everyByte(4096);
const fieldsOf = (data: CredentialsData): FormPart[] =>
  Object.entries(data.formFields).map(([name, value]) => ({ name, value }));
const fileOf = (
  over: Partial<{ name: string; filename: string; contentType: string; data: Uint8Array }> = {},
): FormPart => ({ name: 'file', filename: 'evidence.pdf', contentType: 'application/pdf', data: FILE, ...over });
const change = (parts: FormPart[], name: string, value: string): FormPart[] =>
  parts.map((p) => (p.name === name && 'value' in p ? { name, value } : p));

async function expectRefused(
  data: CredentialsData,
  parts: FormPart[],
  status: number,
  code: string,
  rule: string,
  message: RegExp | string,
): Promise<void> {
  const r = await postForm(data.uploadUrl, parts);
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toBe('application/xml');
  expect(r.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>')).toBe(true);
  expect(xmlElement(r.text, 'Code')).toBe(code);
  expect(xmlElement(r.text, 'Rule')).toBe(rule);
  const text = (xmlElement(r.text, 'Message') ?? '')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  if (typeof message === 'string') expect(text.startsWith(`${message}: `)).toBe(true);
  else expect(text).toMatch(message);
  expect(gateway.storage.get(data.storageUri)).toBeUndefined();
}

describe('the form: every issued field present and unchanged, the file part named file and last (4.2, R14)', () => {
  it('file part first, fields after (ignored as S3 does): "file part not last", its conditions fail', async () => {
    const { data } = await credentials(gateway, 'up.file-first');
    await expectRefused(
      data,
      [fileOf(), ...fieldsOf(data)],
      400,
      'InvalidArgument',
      'file-not-last',
      /^file part not last: 9 part\(s\) follow the file part, the first named "bucket"; fields after the file are ignored as S3 does, so: formFields entry policy missing/,
    );
    expect(gateway.recorder.for('up.file-first').uploads[0]).toMatchObject({
      stored: false,
      problem: 'file part not last',
      status: 400,
    });
  });

  it('every field first, then the file, then one more part: "file part not last"', async () => {
    const { data } = await credentials(gateway, undefined);
    await expectRefused(
      data,
      [...fieldsOf(data), fileOf(), { name: 'note', value: 'x' }],
      400,
      'InvalidArgument',
      'file-not-last',
      /the file part must be last/,
    );
  });

  it('a field after the file: its condition fails (403), and the rule is "file part not last"', async () => {
    const { data } = await credentials(gateway, undefined);
    const fields = fieldsOf(data);
    const tagging = fields.find((p) => p.name === 'tagging') as FormPart;
    await expectRefused(
      data,
      [...fields.filter((p) => p !== tagging), fileOf(), tagging],
      403,
      'AccessDenied',
      'file-not-last',
      /so: formFields entry tagging missing \(Invalid according to Policy: Policy Condition failed: \["eq","\$tagging",/,
    );
  });

  it('the signature fields after the file: 400 InvalidArgument, the rule "file part not last"', async () => {
    const { data } = await credentials(gateway, undefined);
    const fields = fieldsOf(data);
    await expectRefused(
      data,
      [...fields.slice(0, 5), fileOf(), ...fields.slice(5)],
      400,
      'InvalidArgument',
      'file-not-last',
      /so: formFields entry x-amz-signature missing/,
    );
  });

  it.each([
    ['tagging', 403, 'AccessDenied'],
    ['bucket', 403, 'AccessDenied'],
    ['x-amz-date', 403, 'AccessDenied'],
    ['Content-Type', 403, 'AccessDenied'],
    ['policy', 400, 'InvalidArgument'],
    ['x-amz-signature', 400, 'InvalidArgument'],
    ['x-amz-credential', 400, 'InvalidArgument'],
  ])('formFields entry %s missing', async (name, status, code) => {
    const { data } = await credentials(gateway, undefined);
    await expectRefused(
      data,
      [...fieldsOf(data).filter((p) => p.name !== name), fileOf()],
      status,
      code,
      'field-missing',
      `formFields entry ${name} missing`,
    );
  });

  it.each([
    [
      'x-amz-date',
      (v: string) => v.replace(/\d{2}Z$/, '59Z'),
      'AccessDenied',
      /Policy Condition failed: \["eq","\$x-amz-date","20250102T030405Z"\]/,
    ],
    ['key', (v: string) => `${v}.exe`, 'AccessDenied', /Policy Condition failed/],
    ['tagging', (v: string) => v.replace('uploadNo', 'UploadNo'), 'AccessDenied', /Policy Condition failed/],
    ['x-amz-algorithm', () => 'AWS4-HMAC-SHA1', 'AccessDenied', /Policy Condition failed/],
    [
      'policy',
      (v: string) => Buffer.from(Buffer.from(v, 'base64').toString().replace('2097152', '9999999')).toString('base64'),
      'SignatureDoesNotMatch',
      /does not match the signature you provided/,
    ],
    [
      'x-amz-signature',
      (v: string) => v.replace(/^./, (c) => (c === '0' ? '1' : '0')),
      'SignatureDoesNotMatch',
      /does not match/,
    ],
    ['x-amz-signature', (v: string) => v.toUpperCase(), 'SignatureDoesNotMatch', /does not match/],
    [
      'x-amz-credential',
      (v: string) => v.replace(/\/\d{8}\//, '/20250101/'),
      'SignatureDoesNotMatch',
      /does not match/,
    ],
    ['x-amz-credential', (v: string) => `X${v}`, 'InvalidAccessKeyId', /does not name an access key/],
    [
      'x-amz-credential',
      (v: string) => v.replace('/aws4_request', '/aws5_request'),
      'InvalidAccessKeyId',
      /does not name an access key/,
    ],
  ])('formFields entry %s changed', async (name, mangle, code, detail) => {
    const { data } = await credentials(gateway, undefined);
    const value = data.formFields[name] ?? '';
    await expectRefused(
      data,
      [...change(fieldsOf(data), name, mangle(value)), fileOf()],
      403,
      code,
      'field-changed',
      new RegExp(`^formFields entry ${name} changed: .*${detail.source}`),
    );
  });

  it('a policy that is not a Base64 policy document: 400 InvalidPolicyDocument, "formFields entry policy changed"', async () => {
    const { data } = await credentials(gateway, undefined);
    for (const bad of [
      'not base64!',
      Buffer.from('{"conditions":[]}').toString('base64'),
      Buffer.from('[1]').toString('base64'),
      Buffer.from('{"expiration":"x","conditions":[[1,2]]}').toString('base64'),
      Buffer.from('{').toString('base64'),
    ]) {
      await expectRefused(
        data,
        [...change(fieldsOf(data), 'policy', bad), fileOf()],
        400,
        'InvalidPolicyDocument',
        'field-changed',
        'formFields entry policy changed',
      );
    }
  });

  it('a part added, or repeated: "part <name> added"', async () => {
    const { data } = await credentials(gateway, undefined);
    await expectRefused(
      data,
      [...fieldsOf(data), { name: 'x-extra', value: '1' }, fileOf()],
      403,
      'AccessDenied',
      'field-added',
      /^part x-extra added: Invalid according to Policy: Extra input fields: x-extra$/,
    );
    await expectRefused(
      data,
      [...fieldsOf(data), { name: 'key', value: data.formFields['key'] ?? '' }, fileOf()],
      403,
      'AccessDenied',
      'field-added',
      'part key added',
    );
  });

  it('x-ignore-* parts are ignored as S3 does; fields out of order are accepted with an advisory (R14)', async () => {
    const { data } = await credentials(gateway, 'up.order');
    const fields = fieldsOf(data);
    const r = await postForm(data.uploadUrl, [
      { name: 'x-ignore-trace', value: 'abc' },
      ...fields.slice(1),
      fields[0] as FormPart,
      fileOf(),
    ]);
    expect(r.status).toBe(204);
    expect(gateway.recorder.for('up.order').uploads[0]?.advisories).toEqual([
      'sent the formFields in another order than received (acceptable, R14); the upload address accepted the reordered form',
    ]);
    expect(gateway.recorder.for('up.order').uploads[0]?.reordered).toBe(true);
  });

  it('a correct form sent with an Authorization header: 400 InvalidArgument, the rule naming R14, nothing stored, recorded', async () => {
    const { data } = await credentials(gateway, 'up.auth');
    const form = multipart([...fieldsOf(data), fileOf()]);
    // the header a client signed its credentials request with, sent again on the upload (R14: never sent there)
    const r = await send(data.uploadUrl, {
      body: form.body,
      headers: {
        'content-type': form.contentType,
        authorization: `V2_SHA256 appId=${MERCHANT.appId},sign=${'0'.repeat(64)},timestamp=1,nonce=n`,
      },
    });
    expect([r.status, xmlElement(r.text, 'Code'), xmlElement(r.text, 'Rule')]).toEqual([
      400,
      'InvalidArgument',
      'authorization-header',
    ]);
    expect(xmlElement(r.text, 'Message')).toMatch(
      /^an Authorization header sent \(R14: never sent to the upload address\): Unsupported Authorization Type/,
    );
    expect(gateway.storage.get(data.storageUri)).toBeUndefined();
    const recorded = gateway.recorder.for('up.auth').uploads[0];
    expect([recorded?.stored, recorded?.problem]).toEqual([
      false,
      'an Authorization header sent (R14: never sent to the upload address)',
    ]);
    // the same form without the header is stored
    expect(
      (await send(data.uploadUrl, { body: form.body, headers: { 'content-type': form.contentType } })).status,
    ).toBe(204);
  });

  it('no file part; a text part named file; two file parts; a file part named otherwise', async () => {
    const { data } = await credentials(gateway, undefined);
    await expectRefused(
      data,
      fieldsOf(data),
      400,
      'IncorrectNumberOfFilesInPostRequest',
      'no-file-part',
      'no file part',
    );
    await expectRefused(
      data,
      [...fieldsOf(data), { name: 'file', value: 'not a file' }],
      400,
      'IncorrectNumberOfFilesInPostRequest',
      'no-file-part',
      'no file part',
    );
    await expectRefused(
      data,
      [...fieldsOf(data), fileOf(), fileOf({ name: 'file2' })],
      400,
      'IncorrectNumberOfFilesInPostRequest',
      'extra-file-part',
      'part file2 is a second file part',
    );
    await expectRefused(
      data,
      [...fieldsOf(data), fileOf({ name: 'upload' })],
      400,
      'InvalidArgument',
      'file-part-name',
      'file part named upload, not file',
    );
  });

  it('a text part sent as application/octet-stream without filename is still a text part', async () => {
    const { data } = await credentials(gateway, undefined);
    const { contentType, body } = multipart([...fieldsOf(data), fileOf()]);
    const tagged = body
      .toString('latin1')
      .replace('name="tagging"\r\n', 'name="tagging"\r\nContent-Type: application/octet-stream\r\n');
    const r = await send(data.uploadUrl, {
      body: Buffer.from(tagged, 'latin1'),
      headers: { 'content-type': contentType },
    });
    expect(r.status).toBe(204);
  });

  it('uploading again with the same credentials replaces the object (S3 semantics, within validity)', async () => {
    const { data } = await credentials(gateway, undefined);
    expect((await postForm(data.uploadUrl, correctForm(data, everyByte(10)))).status).toBe(204);
    expect((await postForm(data.uploadUrl, correctForm(data, Uint8Array.of(1, 2, 3)))).status).toBe(204);
    expect(await gateway.storage.read(data.storageUri)).toEqual(Uint8Array.of(1, 2, 3));
    expect(gateway.storage.list().filter((o) => o.storageUri === data.storageUri)).toHaveLength(1);
    expect((await gateway.storage.files()).filter((f) => !f.startsWith('.'))).toHaveLength(
      gateway.storage.list().length,
    );
  });
});

describe('the file: type per scene, the requested name and content type (2.2, 4.2)', () => {
  it.each([
    [
      'a type the scene does not accept',
      { filename: 'evidence.gif' },
      'file-type',
      /^file type not accepted: The file's type "gif" is not accepted for scene DISPUTE_EVIDENCE/,
    ],
    ['no extension', { filename: 'evidence' }, 'file-type', /type "" is not accepted/],
    [
      'another file name',
      { filename: 'other.pdf' },
      'file-name',
      /^file name changed: The file part's filename is "other.pdf", not "evidence.pdf"/,
    ],
    [
      'another content type',
      { contentType: 'image/png' },
      'file-content-type',
      /^file content type changed: The file part's content type is image\/png, not application\/pdf/,
    ],
  ])('%s: 400 InvalidArgument', async (_name, over, rule, message) => {
    const { data } = await credentials(gateway, undefined);
    await expectRefused(data, [...fieldsOf(data), fileOf(over)], 400, 'InvalidArgument', rule, message);
  });

  it('the content type compared as busboy reports it (case and parameters ignored)', async () => {
    const { data } = await credentials(gateway, undefined);
    expect(
      (await postForm(data.uploadUrl, [...fieldsOf(data), fileOf({ contentType: 'Application/PDF; name=x' })])).status,
    ).toBe(204);
  });
});

describe('size: 2 MiB (R13), refused as soon as the limit is crossed', () => {
  it('2,097,153 bytes: 400 EntityTooLarge, nothing stored', async () => {
    const { data } = await credentials(gateway, undefined);
    await expectRefused(
      data,
      [...fieldsOf(data), fileOf({ data: everyByte(2_097_153) })],
      400,
      'EntityTooLarge',
      'file-too-large',
      /^file over the size limit: .*over 2097152 bytes/,
    );
  });

  it('a Content-Length over the limit is refused before the body is read', async () => {
    const { data } = await credentials(gateway, undefined);
    const r = await streamUpload(data, 3 * 1024 * 1024, { contentLength: true });
    expect(r.status).toBe(400);
    expect(xmlElement(r.text, 'Rule')).toBe('body-too-large');
    expect(r.sentBeforeAnswer).toBeLessThan(r.total);
  });

  it('a body over 3 MiB sent chunked, its bulk in a second file part: 400 EntityTooLarge "body over the size limit" once crossed', async () => {
    const { data } = await credentials(gateway, undefined);
    const { contentType, body } = multipart([
      ...fieldsOf(data),
      fileOf(),
      fileOf({ name: 'more', data: everyByte(5_000_000) }),
    ]);
    const r = await streamRequest(data.uploadUrl, { 'content-type': contentType }, body, 3.25 * 1024 * 1024);
    expect([r.status, xmlElement(r.text, 'Rule')]).toEqual([400, 'body-too-large']);
    expect(r.sentBeforeAnswer).toBeLessThan(r.total);
  });

  it('a 3 MiB file sent chunked: answered before the whole body was sent, nothing kept', async () => {
    const { data } = await credentials(gateway, 'up.stream');
    const r = await streamUpload(data, 3 * 1024 * 1024, { contentLength: false });
    expect(r.status).toBe(400);
    expect(xmlElement(r.text, 'Rule')).toBe('file-too-large');
    expect(r.sentBeforeAnswer).toBeLessThan(r.total);
    expect(r.sentBeforeAnswer).toBeGreaterThan(2 * 1024 * 1024);
    // answered before the body ended: the answer says so (issue 12), never keep-alive and then a cut
    expect(r.connection).toBe('close');
    expect(gateway.storage.get(data.storageUri)).toBeUndefined();
    const [u] = gateway.recorder.for('up.stream').uploads;
    expect(u).toMatchObject({ stored: false, problem: 'file over the size limit' });
    expect(u?.parts.at(-1)).toMatchObject({ kind: 'file', filename: 'evidence.pdf' });
  });
});

describe('validity: 10 minutes from issue, on the injected clock (2.4, 3)', () => {
  it('9:59.999 after issue: stored; 10:00.000: "uploadUrl expired" (403)', async () => {
    const issued = now;
    const a = await credentials(gateway, undefined);
    const b = await credentials(gateway, undefined);
    try {
      now = issued + 10 * 60 * 1000 - 1;
      expect((await postForm(a.data.uploadUrl, correctForm(a.data, FILE))).status).toBe(204);
      now = issued + 10 * 60 * 1000;
      await expectRefused(b.data, correctForm(b.data, FILE), 403, 'AccessDenied', 'expired', 'uploadUrl expired');
    } finally {
      now = issued;
    }
  });
});

describe('a storage failure', () => {
  it('the storage folder gone: 500 InternalError, logged, nothing stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-broken-'));
    const lines: string[] = [];
    const g = await startGateway({ merchants: [MERCHANT], storageDir: dir, log: (l) => lines.push(l) });
    try {
      const { data } = await credentials(g, undefined);
      rmSync(dir, { recursive: true, force: true });
      const r = await postForm(data.uploadUrl, correctForm(data, everyByte(300_000)));
      expect([r.status, xmlElement(r.text, 'Code')]).toEqual([500, 'InternalError']);
      expect(lines.join('\n')).toMatch(/upload \/pgv2kit-evidence: internal error: Error: ENOENT/);
      expect(g.storage.list()).toEqual([]);
    } finally {
      await g.close();
    }
  });
});

describe('requests that are not an upload', () => {
  it('another path: 404 NoSuchBucket; GET: 405 with Allow: POST', async () => {
    const a = await send(`${gateway.uploadUrl}/other-bucket`, { body: 'x', headers: { 'content-type': 'text/plain' } });
    expect([a.status, xmlElement(a.text, 'Code'), xmlElement(a.text, 'Rule')]).toEqual([
      404,
      'NoSuchBucket',
      'no-such-bucket',
    ]);
    const b = await send(`${gateway.uploadUrl}/pgv2kit-evidence`, { method: 'GET' });
    expect([b.status, xmlElement(b.text, 'Code'), b.headers['allow']]).toEqual([405, 'MethodNotAllowed', 'POST']);
  });

  it.each([
    ['application/json', '{}'],
    ['multipart/form-data', 'x'],
    ['multipart/mixed; boundary=x', 'x'],
  ])('Content-Type %s: 412 PreconditionFailed', async (type, body) => {
    const r = await send(`${gateway.uploadUrl}/pgv2kit-evidence`, { body, headers: { 'content-type': type } });
    expect([r.status, xmlElement(r.text, 'Code'), xmlElement(r.text, 'Rule')]).toEqual([
      412,
      'PreconditionFailed',
      'not-multipart',
    ]);
  });

  it('a body that ends before its close delimiter: 400 MalformedPOSTRequest', async () => {
    const { data } = await credentials(gateway, undefined);
    const { contentType, body } = multipart([...fieldsOf(data), fileOf()]);
    const r = await send(data.uploadUrl, {
      body: body.subarray(0, body.length - 30),
      headers: { 'content-type': contentType },
    });
    expect([r.status, xmlElement(r.text, 'Code'), xmlElement(r.text, 'Rule')]).toEqual([
      400,
      'MalformedPOSTRequest',
      'malformed-multipart',
    ]);
  });

  it('a text part over 16 KiB, more than 100 parts: 400 MaxPostPreDataLengthExceeded', async () => {
    const { data } = await credentials(gateway, undefined);
    await expectRefused(
      data,
      [{ name: 'big', value: 'b'.repeat(17 * 1024) }, ...fieldsOf(data), fileOf()],
      400,
      'MaxPostPreDataLengthExceeded',
      'part-too-large',
      'part big too large',
    );
    const many = Array.from({ length: 101 }, (_, i) => ({ name: `p${i}`, value: 'v' }));
    await expectRefused(
      data,
      [...many, fileOf()],
      400,
      'MaxPostPreDataLengthExceeded',
      'too-many-parts',
      'too many parts',
    );
    const { contentType, body } = multipart([...fieldsOf(data), fileOf()]);
    const octet = body
      .toString('latin1')
      .replace('name="tagging"\r\n', 'name="tagging"\r\nContent-Type: application/octet-stream\r\n')
      .replace(/(<Tagging>)/, `$1${'t'.repeat(17 * 1024)}`);
    const r = await send(data.uploadUrl, {
      body: Buffer.from(octet, 'latin1'),
      headers: { 'content-type': contentType },
    });
    expect([r.status, xmlElement(r.text, 'Rule')]).toEqual([400, 'part-too-large']);
  });

  it('a body that stops half-way: 400 RequestTimeout after the body timeout', async () => {
    const { data } = await credentials(gateway, 'up.stall');
    const { contentType, body } = multipart(correctForm(data, FILE));
    const text = await rawExchange(
      data.uploadUrl,
      `POST ${new URL(data.uploadUrl).pathname} HTTP/1.1\r\nHost: x\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`,
      body.subarray(0, 500),
      false,
    );
    expect(text).toMatch(/^HTTP\/1.1 400 /);
    expect(text).toContain('<Rule>timeout</Rule>');
    expect(gateway.recorder.for('up.stall').uploads[0]).toMatchObject({
      stored: false,
      problem: 'body stopped arriving',
    });
  });

  it('a client that goes away half-way: recorded as incomplete, nothing stored', async () => {
    const { data } = await credentials(gateway, 'up.gone');
    const { contentType, body } = multipart(correctForm(data, everyByte(100_000)));
    await rawExchange(
      data.uploadUrl,
      `POST ${new URL(data.uploadUrl).pathname} HTTP/1.1\r\nHost: x\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`,
      body.subarray(0, 60_000),
      true,
    );
    await until(() => gateway.recorder.for('up.gone').uploads.length === 1);
    expect(gateway.recorder.for('up.gone').uploads[0]).toMatchObject({
      stored: false,
      status: 0,
      problem: 'connection closed half-way',
    });
  });
});

// --- helpers ---

/** Fields, then a file part of `size` bytes (every byte value), streamed. */
function streamUpload(data: CredentialsData, size: number, options: { contentLength: boolean }): Promise<Streamed> {
  const { contentType, body } = multipart([...fieldsOf(data), fileOf({ data: everyByte(size) })]);
  return streamRequest(
    data.uploadUrl,
    { 'content-type': contentType, ...(options.contentLength ? { 'content-length': String(body.length) } : {}) },
    body,
    2.25 * 1024 * 1024,
  );
}

/** Writes a request's head and (part of) its body on a raw socket; returns what comes back, or '' when `close` ends it first. */
function rawExchange(target: string, head: string, body: Uint8Array, close: boolean): Promise<string> {
  const url = new URL(target);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(head);
      socket.write(body);
      if (close) setTimeout(() => socket.destroy(), 50);
    });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => void (text += c));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(text));
  });
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}
