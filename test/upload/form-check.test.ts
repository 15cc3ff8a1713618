import { describe, expect, it } from 'vitest';
import { FORM_PROBLEMS, checkUploadBody, checkUploadForm, type FormProblem } from '../../src/upload/form-check.js';
import type { UploadFormInput } from '../../src/upload/form.js';
import { parseMultipart } from '../../src/upload/multipart.js';

const TYPE = 'multipart/form-data; boundary=b0';
const FILE = '%PDF-1.7\r\n\x00\xff\r\n%%EOF';
const latin1 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));

const ISSUED: UploadFormInput = {
  formFields: [
    ['bucket', '<BUCKET>'],
    ['key', '<OBJECT_KEY>'],
    ['policy', '<POLICY_BASE64>'],
    ['x-vendor-signature', '<SIGNATURE>'],
  ],
  filename: 'evidence.pdf',
  contentType: 'application/pdf',
  file: latin1(FILE),
};

// Parts written by hand, CRLF line ends; a body is its parts followed by the close delimiter.
const text = (name: string, value: string): string =>
  `--b0\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const file = (filename = 'evidence.pdf', type: string | null = 'application/pdf', data = FILE, name = 'file'): string =>
  `--b0\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n${type === null ? '' : `Content-Type: ${type}\r\n`}\r\n${data}\r\n`;
const END = '--b0--\r\n';
const bucket = text('bucket', '<BUCKET>');
const key = text('key', '<OBJECT_KEY>');
const policy = text('policy', '<POLICY_BASE64>');
const signature = text('x-vendor-signature', '<SIGNATURE>');
const fields = bucket + key + policy + signature;

async function check(body: string, issued: UploadFormInput = ISSUED) {
  return checkUploadBody(issued, latin1(body), TYPE);
}

describe('checkUploadForm on hand-written bodies (3, 4.2, 7, R14)', () => {
  it('accepts every entry unchanged, in order, then the file part, last', async () => {
    const body =
      '--b0\r\n' +
      'Content-Disposition: form-data; name="bucket"\r\n\r\n<BUCKET>\r\n' +
      '--b0\r\n' +
      'Content-Disposition: form-data; name="key"\r\n\r\n<OBJECT_KEY>\r\n' +
      '--b0\r\n' +
      'Content-Disposition: form-data; name="policy"\r\n\r\n<POLICY_BASE64>\r\n' +
      '--b0\r\n' +
      'Content-Disposition: form-data; name="x-vendor-signature"\r\n\r\n<SIGNATURE>\r\n' +
      '--b0\r\n' +
      'Content-Disposition: form-data; name="file"; filename="evidence.pdf"\r\n' +
      'Content-Type: application/pdf\r\n\r\n' +
      FILE +
      '\r\n--b0--\r\n';
    expect(body).toBe(fields + file() + END);
    expect(await check(body)).toEqual({ valid: true });
  });

  it.each<[string, string, FormProblem]>([
    ['no file part at all', fields + END, { kind: 'no-file-part' }],
    [
      'the file under another name',
      fields + file('evidence.pdf', 'application/pdf', FILE, 'upload') + END,
      { kind: 'no-file-part' },
    ],
    ['a part named file without a filename', fields + text('file', FILE) + END, { kind: 'no-file-part' }],
    ['a part named file with filename=""', fields + file('') + END, { kind: 'no-file-part' }],
    [
      'a second file part under another name',
      fields + file() + file('b.pdf', 'application/pdf', 'x', 'file2') + END,
      { kind: 'extra-file-part' },
    ],
    [
      'a second file part before the first',
      file('b.pdf', 'application/pdf', 'x', 'attachment') + fields + file() + END,
      { kind: 'extra-file-part' },
    ],
    ['two parts named file', fields + file() + file() + END, { kind: 'extra-file-part' }],
    ['an entry after the file part', bucket + key + policy + file() + signature + END, { kind: 'file-not-last' }],
    ['every entry after the file part', file() + fields + END, { kind: 'file-not-last' }],
    ['an empty text part after the file part', fields + file() + text('x', '') + END, { kind: 'file-not-last' }],
    ['an entry left out', bucket + key + signature + file() + END, { kind: 'field-missing', field: 'policy' }],
    [
      'two entries left out: the first in formFields order',
      bucket + signature + file() + END,
      { kind: 'field-missing', field: 'key' },
    ],
    [
      'a name in another case',
      bucket + key + text('Policy', '<POLICY_BASE64>') + signature + file() + END,
      { kind: 'field-missing', field: 'policy' },
    ],
    [
      'a value changed',
      bucket + key + text('policy', '<POLICY_BASE64>x') + signature + file() + END,
      { kind: 'field-changed', field: 'policy' },
    ],
    [
      'a value with a trailing space',
      bucket + key + policy + text('x-vendor-signature', '<SIGNATURE> ') + file() + END,
      { kind: 'field-changed', field: 'x-vendor-signature' },
    ],
    [
      'a value in another case',
      text('bucket', '<bucket>') + key + policy + signature + file() + END,
      { kind: 'field-changed', field: 'bucket' },
    ],
    [
      'a value emptied',
      bucket + text('key', '') + policy + signature + file() + END,
      { kind: 'field-changed', field: 'key' },
    ],
    ['a part added', fields + text('acl', 'private') + file() + END, { kind: 'field-added', field: 'acl' }],
    [
      'a part added first',
      text('success_action_status', '201') + fields + file() + END,
      { kind: 'field-added', field: 'success_action_status' },
    ],
    ['an entry sent twice', fields + key + file() + END, { kind: 'field-added', field: 'key' }],
    ['another filename', fields + file('other.pdf') + END, { kind: 'file-name' }],
    ['the filename in another case', fields + file('evidence.PDF') + END, { kind: 'file-name' }],
    ['the filename without its path-free form', fields + file('C:\\docs\\evidence.pdf') + END, { kind: 'file-name' }],
    [
      'another content type',
      fields + file('evidence.pdf', 'application/octet-stream') + END,
      { kind: 'file-content-type' },
    ],
    ['no content type (read as text/plain)', fields + file('evidence.pdf', null) + END, { kind: 'file-content-type' }],
    [
      'a bare "pdf" content type (read as text/plain)',
      fields + file('evidence.pdf', 'pdf') + END,
      { kind: 'file-content-type' },
    ],
    [
      'one byte changed',
      fields + file('evidence.pdf', 'application/pdf', FILE.replace('1.7', '1.6')) + END,
      { kind: 'file-content' },
    ],
    [
      'the last byte dropped',
      fields + file('evidence.pdf', 'application/pdf', FILE.slice(0, -1)) + END,
      { kind: 'file-content' },
    ],
    [
      'an extra CRLF after the bytes',
      fields + file('evidence.pdf', 'application/pdf', `${FILE}\r\n`) + END,
      { kind: 'file-content' },
    ],
    ['no bytes', fields + file('evidence.pdf', 'application/pdf', '') + END, { kind: 'file-content' }],
  ])('refuses %s', async (_, body, problem) => {
    const outcome = await check(body);
    expect(outcome.valid).toBe(false);
    expect(!outcome.valid && outcome.problem).toEqual(problem);
  });

  it.each<[string, string, FormProblem]>([
    [
      'extra-file-part before file-not-last',
      file() + fields + file('b.pdf', 'application/pdf', 'x', 'other') + END,
      { kind: 'extra-file-part' },
    ],
    ['file-not-last before field-missing', bucket + file() + key + END, { kind: 'file-not-last' }],
    [
      'field-missing before field-changed',
      text('bucket', 'x') + key + policy + file() + END,
      { kind: 'field-missing', field: 'x-vendor-signature' },
    ],
    [
      'field-changed before field-added',
      text('acl', 'private') + bucket + key + text('policy', 'x') + signature + file() + END,
      { kind: 'field-changed', field: 'policy' },
    ],
    [
      'field-added in a reordered form',
      key + bucket + policy + signature + text('acl', 'private') + file() + END,
      { kind: 'field-added', field: 'acl' },
    ],
    ['file-name in a reordered form', key + bucket + policy + signature + file('x.pdf') + END, { kind: 'file-name' }],
    ['file-name before file-content-type', fields + file('x.pdf', 'image/png') + END, { kind: 'file-name' }],
    [
      'file-content-type before file-content',
      fields + file('evidence.pdf', 'image/png', 'x') + END,
      { kind: 'file-content-type' },
    ],
  ])('reports the first problem: %s', async (_, body, problem) => {
    const outcome = await check(body);
    expect(!outcome.valid && outcome.problem).toEqual(problem);
  });

  it.each([
    ['the media type in another case', fields + file('evidence.pdf', 'APPLICATION/PDF') + END],
    ['parameters on the media type', fields + file('evidence.pdf', 'application/pdf; charset=binary') + END],
    ['a preamble and an epilogue', `preamble\r\n${fields}${file()}${END}epilogue`],
  ])('accepts %s', async (_, body) => {
    expect(await check(body)).toEqual({ valid: true });
  });

  // R14: another order than issued is acceptable (the spec's failures are a file part not last and an
  // entry missing or modified; S3-style policies do not depend on order): valid, and said
  it.each([
    ['two entries swapped', key + bucket + policy + signature + file() + END],
    ['the entries reversed', signature + policy + key + bucket + file() + END],
  ])('accepts %s, saying the form is reordered', async (_, body) => {
    expect(await check(body)).toEqual({ valid: true, reordered: true });
  });

  it('accepts a quote in the filename sent browser-escaped or as a quoted pair, but not dropped', async () => {
    const issued = { ...ISSUED, filename: 'a"b.pdf' };
    expect(await check(fields + file('a%22b.pdf') + END, issued)).toEqual({ valid: true });
    expect(await check(fields + file('a\\"b.pdf') + END, issued)).toEqual({ valid: true });
    expect(await check(fields + file('ab.pdf') + END, issued)).toMatchObject({
      valid: false,
      problem: { kind: 'file-name' },
    });
  });

  it('accepts a name with a quote sent browser-escaped', async () => {
    const issued = { ...ISSUED, formFields: [['x"y', 'v']] as const };
    expect(await check(text('x%22y', 'v') + file() + END, issued)).toEqual({ valid: true });
    expect(await check(text('x%22y', 'w') + file() + END, issued)).toEqual({
      valid: false,
      problem: { kind: 'field-changed', field: 'x"y' },
      message: expect.any(String),
    });
  });

  it('accepts any content type when the credentials request gave none', async () => {
    const issued = { ...ISSUED, contentType: '' };
    for (const type of ['application/pdf', 'image/png', null]) {
      expect(await check(fields + file('evidence.pdf', type) + END, issued)).toEqual({ valid: true });
    }
  });

  it('checks parts given directly, without a body', async () => {
    const parts = await parseMultipart(latin1(fields + file() + END), TYPE);
    expect(checkUploadForm(ISSUED, parts)).toEqual({ valid: true });
    expect(checkUploadForm(ISSUED, [])).toMatchObject({ valid: false, problem: { kind: 'no-file-part' } });
    expect(checkUploadForm({ ...ISSUED, formFields: [] }, parts.slice(-1))).toEqual({ valid: true });
  });

  it('says what is wrong and where, in the message', async () => {
    const message = async (body: string): Promise<string> => {
      const r = await check(body);
      return r.valid ? '' : r.message;
    };
    expect(await message(bucket + key + signature + file() + END)).toBe(
      'formFields entry "policy" has no text part before the file part (4.2, R14)',
    );
    expect(await message(bucket + key + policy + file() + signature + END)).toBe(
      '1 part(s) follow the file part, the first named "x-vendor-signature"; the file part must be last (4.2, R14)',
    );
    expect(await message(fields + key + file() + END)).toBe(
      'text part "key" appears more than once (R14: no other parts)',
    );
    expect(await message(fields + file('evidence.pdf', 'image/png') + END)).toBe(
      "the file part's content type is image/png, not application/pdf (4.2, R14)",
    );
    expect(await message(fields + file('evidence.pdf', 'application/pdf', 'x') + END)).toBe(
      `the file part holds 1 bytes that are not the file's ${FILE.length} (4.2)`,
    );
  });
});

describe('checkUploadBody', () => {
  it.each([
    ['a truncated body', (fields + file() + END).slice(0, 200), TYPE],
    ['garbage', 'not a form', TYPE],
    ['a Content-Type without boundary', fields + file() + END, 'multipart/form-data'],
    ['a urlencoded Content-Type', 'bucket=%3CBUCKET%3E', 'application/x-www-form-urlencoded'],
    ['a part without Content-Disposition', `${fields}--b0\r\nX-Note: 1\r\n\r\nv\r\n${file()}${END}`, TYPE],
  ])('reports %s as malformed-multipart', async (_, body, type) => {
    const r = await checkUploadBody(ISSUED, latin1(body), type);
    expect(r.valid).toBe(false);
    expect(!r.valid && r.problem).toEqual({ kind: 'malformed-multipart' });
    expect(!r.valid && r.message).toMatch(/\(4\.2\)$/);
  });

  it('rethrows misuse', async () => {
    await expect(checkUploadBody(ISSUED, 'x' as unknown as Uint8Array, TYPE)).rejects.toBeInstanceOf(TypeError);
  });
});

describe('FORM_PROBLEMS', () => {
  it('describes every kind once, in the order of the checks', () => {
    expect(Object.keys(FORM_PROBLEMS)).toEqual([
      'malformed-multipart',
      'no-file-part',
      'extra-file-part',
      'file-not-last',
      'field-missing',
      'field-changed',
      'field-added',
      'file-name',
      'file-content-type',
      'file-content',
    ]);
    for (const info of Object.values(FORM_PROBLEMS)) {
      expect(info.title).not.toBe('');
      expect(info.description).toMatch(/\.$/);
      expect(info.sources.length).toBeGreaterThan(0);
    }
  });
});
