/**
 * Upload cases (§4.2, R13, R14): a form that does not hold the expected parts is
 * checked as the upload address checks it, which names the problem; a valid credentials
 * request refused while a text is within its limit in code points but over it in UTF-16
 * units is diagnosed utf16-length. The multipart bodies are written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/roles/run-case.js';
import type { UploadCase } from '../../src/vectors/types.js';
import { BASE, failed } from './_support.js';

const formCase: UploadCase = {
  ...BASE,
  id: 'upload.form-t',
  kind: 'upload',
  op: 'upload.form',
  result: 'valid',
  inputs: {
    formFields: [
      ['key', 'k1'],
      ['policy', 'cG9s'],
    ],
    filename: 'a.pdf',
    contentType: 'application/pdf',
    file: '%PDF',
  },
  expected: {
    parts: [
      { name: 'key', value: 'k1' },
      { name: 'policy', value: 'cG9s' },
      { name: 'file', filename: 'a.pdf', contentType: 'application/pdf', data: '%PDF' },
    ],
  },
};

const text = (name: string, value: string): string =>
  `--b0\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const FILE =
  '--b0\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF\r\n';
const END = '--b0--\r\n';
const form = (...parts: string[]) =>
  failed('upload.form', {
    result: {
      contentType: 'multipart/form-data; boundary=b0',
      bodyB64: Buffer.from(parts.join('') + END).toString('base64'),
    },
  });
const REF = '§3, §4.2, §7, R14';

describe('upload.form', () => {
  it.each([
    [
      'the file part first',
      [FILE, text('key', 'k1'), text('policy', 'cG9s')],
      'file-not-last',
      'your form is one in which a part follows the file part, which goes last',
      REF,
    ],
    [
      'an entry left out',
      [text('key', 'k1'), FILE],
      'field-missing',
      'your form is one in which a formFields entry was left out',
      REF,
    ],
    [
      'a value changed',
      [text('key', 'k2'), text('policy', 'cG9s'), FILE],
      'field-changed',
      'your form is one in which a formFields value was changed',
      REF,
    ],
  ])('%s: %s', async (_, parts, mistake, message, ref) => {
    expect(await diagnose(formCase, form(...parts))).toEqual([{ mistake, message, ref }]);
  });

  it('entries out of order: no mistake (R14: acceptable)', async () => {
    expect(await diagnose(formCase, form(text('policy', 'cG9s'), text('key', 'k1'), FILE))).toEqual([]);
  });

  it('a body that is not multipart/form-data: malformed-multipart', async () => {
    const got = { result: { contentType: 'application/json', bodyB64: Buffer.from('{}').toString('base64') } };
    expect(await diagnose(formCase, failed('upload.form', got))).toEqual([
      {
        mistake: 'malformed-multipart',
        message: 'your form is one in which the body cannot be read as multipart/form-data',
        ref: '§4.2',
      },
    ]);
  });

  it('a form the upload address accepts, an answer without a body, or a body that is not base64: no diagnosis', async () => {
    expect(await diagnose(formCase, form(text('key', 'k1'), text('policy', 'cG9s'), FILE))).toEqual([]);
    expect(await diagnose(formCase, failed('upload.form', { rejected: { reason: 'no' } }))).toEqual([]);
    expect(
      await diagnose(
        formCase,
        failed('upload.form', { result: { contentType: 'multipart/form-data; boundary=b0', bodyB64: 'not base64!' } }),
      ),
    ).toEqual([]);
  });
});

describe('upload.validate', () => {
  const validate = (filename: string, result: UploadCase['result'] = 'valid'): UploadCase => ({
    ...BASE,
    id: 'upload.validate-t',
    kind: 'upload',
    op: 'upload.validate',
    result,
    inputs: { filename, contentType: 'application/pdf', scene: 'DISPUTE_EVIDENCE', fileSize: 10 },
    expected: {},
  });
  // 28 emoji and ".pdf": 32 code points, 60 UTF-16 units
  const emoji = validate(`${'\u{1F600}'.repeat(28)}.pdf`);
  const UTF16 = [
    {
      mistake: 'utf16-length',
      message:
        'your length is the count of UTF-16 units, in which a character beyond U+FFFF (an emoji) counts twice: lengths count code points',
      ref: 'R13',
    },
  ];

  it('a valid request refused, within 32 code points but over 32 UTF-16 units: utf16-length', async () => {
    expect(
      await diagnose(emoji, failed('upload.validate', { result: { valid: false, reason: 'filename too long' } })),
    ).toEqual(UTF16);
    expect(await diagnose(emoji, failed('upload.validate', { rejected: { reason: 'filename too long' } }))).toEqual(
      UTF16,
    );
  });

  it('no diagnosis when the texts are within the limit in UTF-16 units too, or the subject accepted, or the case is not valid', async () => {
    expect(
      await diagnose(validate(`${'\u00e9'.repeat(28)}.pdf`), failed('upload.validate', { result: { valid: false } })),
    ).toEqual([]);
    expect(await diagnose(emoji, failed('upload.validate', { result: { valid: true } }))).toEqual([]);
    expect(
      await diagnose(
        validate(`${'\u{1F600}'.repeat(29)}.pdf`, 'invalid'),
        failed('upload.validate', { result: { valid: true } }),
      ),
    ).toEqual([]);
  });

  it('formCheck failures are not diagnosed', async () => {
    const c: UploadCase = {
      ...BASE,
      id: 'upload.formCheck-t',
      kind: 'upload',
      op: 'upload.formCheck',
      result: 'invalid',
      inputs: {
        formFields: [],
        filename: 'a.pdf',
        contentType: 'application/pdf',
        file: '%PDF',
        multipart: { contentType: 'multipart/form-data; boundary=b0', body: END },
      },
      expected: { problem: { kind: 'no-file-part' } },
    };
    expect(await diagnose(c, failed('upload.formCheck', { result: { valid: true } }))).toEqual([]);
  });
});
