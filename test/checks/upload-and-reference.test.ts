/**
 * The upload check's comparison of a built form with the expected parts, and the
 * reference subject's handling of inputs of the wrong shape.
 */
import { describe, expect, it } from 'vitest';
import { runCase } from '../../src/roles/run-case.js';
import { toBase64 } from '../../src/scheme/bytes.js';
import { createReferenceSubject } from '../../src/subjects/reference.js';
import type { Answer, Subject } from '../../src/subjects/subject.js';
import { buildUploadForm } from '../../src/upload/index.js';
import type { LoadedCase, VectorCase } from '../../src/vectors/types.js';

const reference = createReferenceSubject();
const loaded = (c: unknown): LoadedCase => ({ case: c as VectorCase, file: 'inline.yaml' });
const answering = (answer: Answer): Subject => ({
  implementation: { name: 'x', version: '0', language: 'ts' },
  operations: ['upload.form', 'authorization.parse', 'authorization.format'],
  call: async () => answer,
});
const fields: Array<[string, string]> = [
  ['bucket', 'evidence'],
  ['key', 'k/1.pdf'],
];
const file = new TextEncoder().encode('%PDF-1.4');
const formCase = {
  id: 'upload.t',
  kind: 'upload',
  op: 'upload.form',
  comment: 'c',
  spec: ['4.2'],
  readings: ['R14'],
  flags: ['UploadForm'],
  result: 'valid',
  inputs: { formFields: fields, filename: 'a.pdf', contentType: 'application/pdf', file: '%PDF-1.4' },
  expected: {
    parts: [
      { name: 'bucket', value: 'evidence' },
      { name: 'key', value: 'k/1.pdf' },
      { name: 'file', filename: 'a.pdf', contentType: 'application/pdf', data: '%PDF-1.4' },
    ],
  },
};
const built = (
  formFields: Array<[string, string]>,
  filename = 'a.pdf',
  contentType = 'application/pdf',
  bytes = file,
): Answer => {
  const form = buildUploadForm({ formFields, filename, contentType, file: bytes });
  return { result: { contentType: form.contentType, bodyB64: toBase64(form.body) } };
};
const message = async (answer: Answer): Promise<string> => (await runCase(loaded(formCase), answering(answer))).message;

describe('upload.form check', () => {
  it('passes the reference', async () => {
    expect((await runCase(loaded(formCase), reference)).status).toBe('pass');
  });
  it.each([
    ['a field dropped', built([['bucket', 'evidence']]), 'upload.form: formFields entry "key" is missing'],
    [
      'a field added at the end of the fields',
      built([...fields, ['x', '1']]),
      'upload.form: extra part 3 named "x" (R14: no other parts)',
    ],
    [
      'a field sent twice',
      built([...fields, ['key', 'k/1.pdf']]),
      'upload.form: part 3 repeats "key" (R14: each formFields entry once)',
    ],
    [
      'a value changed',
      built([
        ['bucket', 'evidence'],
        ['key', 'k/2.pdf'],
      ]),
      'upload.form: formFields entry key changed: "k/2.pdf" instead of "k/1.pdf"',
    ],
    ['another filename', built(fields, 'b.pdf'), 'upload.form: file part\'s filename is "b.pdf", expected "a.pdf"'],
    [
      'another content type',
      built(fields, 'a.pdf', 'image/png'),
      'upload.form: file part\'s content type is "image/png", expected "application/pdf"',
    ],
    [
      'other bytes',
      built(fields, 'a.pdf', 'application/pdf', new TextEncoder().encode('%PDF-1.5')),
      "upload.form: file part's bytes differ (8 bytes, expected 8)",
    ],
    [
      'a body that is not multipart',
      {
        result: {
          contentType: 'multipart/form-data; boundary=x',
          bodyB64: toBase64(new TextEncoder().encode('garbage')),
        },
      },
      /^upload\.form: the body is not valid multipart\/form-data: /,
    ],
    ['a refusal', { rejected: { reason: 'no' } }, 'upload.form: refused to build the form'],
    [
      'no body',
      { result: { contentType: 'multipart/form-data' } },
      'upload.form: result needs string contentType and bodyB64',
    ],
  ] as Array<[string, Answer, string | RegExp]>)('fails on %s', async (_, answer, expected) => {
    expect(await message(answer)).toMatch(expected);
  });
  it('fails when the file part is missing or a part too many follows it', async () => {
    const noFile = { ...formCase, expected: { parts: [...formCase.expected.parts, { name: 'extra', value: 'x' }] } };
    expect((await runCase(loaded(noFile), reference)).message).toBe('upload.form: formFields entry "extra" is missing');
    const fewer = { ...formCase, expected: { parts: formCase.expected.parts.slice(1) } };
    expect((await runCase(loaded(fewer), reference)).message).toBe(
      'upload.form: extra part 1 named "bucket" (R14: no other parts)',
    );
    const asText = {
      ...formCase,
      expected: { parts: [...formCase.expected.parts.slice(0, 2), { name: 'file', value: '%PDF-1.4' }] },
    };
    expect((await runCase(loaded(asText), reference)).message).toBe(
      'upload.form: part 3 (file) is a file part, expected a text part',
    );
    const asFile = {
      ...formCase,
      expected: {
        parts: [{ name: 'bucket', filename: 'a', contentType: 'x', data: '' }, ...formCase.expected.parts.slice(1)],
      },
    };
    expect((await runCase(loaded(asFile), reference)).message).toBe(
      'upload.form: extra part 1 named "bucket" (R14: no other parts)',
    );
    const trailing = { ...formCase, expected: { parts: formCase.expected.parts.slice(0, 2) } };
    expect((await runCase(loaded(trailing), reference)).message).toBe(
      'upload.form: part 3 (file) is a file part, expected a text part',
    );
  });
});

describe('upload.form: the order of the formFields (R14)', () => {
  it('passes a form whose entries came in another order, recording the choice', async () => {
    const outcome = await runCase(loaded(formCase), answering(built([...fields].reverse() as typeof fields)));
    expect([outcome.status, outcome.choice]).toEqual(['pass', 'reordered']);
    expect(outcome.message).toBe(
      'upload.form: parts as expected, file last; sent the formFields in another order than received (acceptable, R14)',
    );
  });
  it('records the order received as the choice of an acceptable case', async () => {
    const outcome = await runCase(loaded({ ...formCase, result: 'acceptable' }), reference);
    expect([outcome.status, outcome.choice]).toEqual(['pass', 'in-order']);
  });
});

describe('authorization checks on odd answers', () => {
  const items = { appId: 'a', sign: 'b', timestamp: '1', nonce: 'n' };
  const base = { comment: 'c', spec: ['5.3'], readings: ['R8'], flags: ['Baseline'], result: 'valid' };
  const format = {
    ...base,
    id: 'authorization.f',
    kind: 'authorization',
    op: 'authorization.format',
    inputs: { items },
    expected: { header: 'V2_SHA256 appId=a,sign=b,timestamp=1,nonce=n' },
  };
  const parse = {
    ...base,
    id: 'authorization.p',
    kind: 'authorization',
    op: 'authorization.parse',
    inputs: { header: 'V2_SHA256 appId=a,sign=b,timestamp=1,nonce=n' },
    expected: { items },
  };
  it.each([
    [format, { rejected: { reason: 'no' } }, 'fail'],
    [format, { failed: { reason: 'crashed' } }, 'error'],
    [format, { unsupported: { reason: 'no' } }, 'skip'],
    [parse, { failed: { reason: 'crashed' } }, 'error'],
    [parse, { strange: true } as unknown as Answer, 'error'],
  ] as Array<[object, Answer, string]>)('%#', async (c, answer, status) => {
    expect((await runCase(loaded(c), answering(answer))).status).toBe(status);
  });
});

describe('the reference subject', () => {
  it('refuses inputs of the wrong shape, naming the field', async () => {
    expect(await reference.call('signature.sign', { appId: 1 }, 'x')).toEqual({
      rejected: { reason: 'input appId must be a string' },
    });
    expect(
      await reference.call(
        'response.verify',
        { appId: 'a', appSecret: 's', method: 'GET', url: 'u', status: 2.5, authorization: null, bodyB64: '' },
        'x',
      ),
    ).toEqual({
      rejected: { reason: 'input status must be an integer' },
    });
    expect(
      await reference.call(
        'request.verify',
        { appId: 'a', appSecret: 's', method: 'GET', url: 'u', authorization: 5, bodyB64: '' },
        'x',
      ),
    ).toEqual({
      rejected: { reason: 'input authorization must be a string or null' },
    });
    expect(
      await reference.call(
        'upload.form',
        { formFields: [['a']], filename: 'a.pdf', contentType: 'application/pdf', fileB64: '' },
        'x',
      ),
    ).toEqual({
      rejected: { reason: 'input formFields must be an array of [name, value] string pairs' },
    });
    expect(
      await reference.call(
        'upload.formCheck',
        { formFields: [], filename: 'a.pdf', contentType: 'application/pdf', fileB64: '', multipart: 'x' },
        'x',
      ),
    ).toEqual({
      rejected: { reason: 'input multipart must be an object' },
    });
    expect(
      await reference.call(
        'signature.sign',
        { appId: 'a', appSecret: 's', method: 'GET', url: 'u', timestamp: '1', nonce: 'n', bodyB64: 'a' },
        'x',
      ),
    ).toMatchObject({
      rejected: { reason: expect.stringMatching(/not canonical base64/) },
    });
    expect(
      await reference.call('authorization.format', { appId: 'a', sign: 'b,c', timestamp: '1', nonce: 'n' }, 'x'),
    ).toMatchObject({ rejected: {} });
  });
  it('offers the client operations (test/client runs them against the gateway), refusing inputs of the wrong shape', async () => {
    expect(await reference.call('client.upload', {}, 'x')).toEqual({
      rejected: { reason: 'input baseUrl must be a string' },
    });
    expect(
      await reference.call(
        'client.createPayment',
        { baseUrl: 'http://127.0.0.1:1', appId: 'a', appSecret: 's', payment: [] },
        'x',
      ),
    ).toEqual({ rejected: { reason: 'input payment must be an object' } });
    expect(reference.operations).toContain('client.upload');
    expect(reference.operations).toContain('client.createPayment');
    expect(reference.operations).toContain('upload.formCheck');
  });
  it('gives a redirect verdict with the payment, or null', async () => {
    const r = await reference.call(
      'redirect.verify',
      { appId: 'a', appSecret: 's', returnUrl: 'https://m/r', redirectUrl: 'https://m/r?payment=x' },
      'x',
    );
    expect(r).toEqual({
      result: { valid: false, payment: null, reason: 'redirect has 0 authorization parameters, not exactly one (R11)' },
    });
  });
});
