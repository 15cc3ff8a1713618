import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkUploadBody } from '../../src/upload/form-check.js';
import { buildUploadForm, type FormFields, type UploadFormInput } from '../../src/upload/form.js';
import { parseMultipart, type MultipartPart } from '../../src/upload/multipart.js';

const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Every byte value 0–255, twice, the second time backwards. */
const ALL_BYTES = new Uint8Array(512).map((_, i) => (i < 256 ? i : 511 - i));

/** formFields as the spec lists them (2.4), vendor prefix included, in the order received. */
const FIELDS: FormFields = [
  ['bucket', '<BUCKET>'],
  ['key', '<OBJECT_KEY>'],
  ['Content-Type', 'application/pdf'],
  ['tagging', '<Tagging><TagSet><Tag><Key>uploadNo</Key><Value>1717171717000-9f2c</Value></Tag></TagSet></Tagging>'],
  ['policy', '<POLICY_BASE64>'],
  ['x-vendor-algorithm', 'VENDOR-HMAC-SHA256'],
  ['x-vendor-credential', 'AKID/20240601/region/s3/vendor_request'],
  ['x-vendor-date', '20240601T000000Z'],
  ['x-vendor-signature', '<SIGNATURE>'],
];

const ISSUED: UploadFormInput = {
  formFields: FIELDS,
  filename: 'evidence.pdf',
  contentType: 'application/pdf',
  file: ALL_BYTES,
};

/** The parts a correct form holds (R14): every entry as a text part, in order, then the file, last. */
function expectedParts(
  input: UploadFormInput,
  filename = input.filename,
  contentType = input.contentType,
): MultipartPart[] {
  return [
    ...input.formFields.map(([name, value]): MultipartPart => ({ kind: 'field', name, value })),
    { kind: 'file', name: 'file', filename, contentType, data: input.file },
  ];
}

describe('buildUploadForm: the bytes on the wire (4.2, R14)', () => {
  it('writes every entry as a text part, then the file part, last — byte for byte', () => {
    const form = buildUploadForm(
      {
        formFields: [
          ['bucket', '<BUCKET>'],
          ['key', '<OBJECT_KEY>'],
        ],
        filename: 'a.pdf',
        contentType: 'application/pdf',
        file: utf8('%PDF'),
      },
      { boundary: 'b0' },
    );
    expect(form.contentType).toBe('multipart/form-data; boundary=b0');
    expect(text(form.body)).toBe(
      '--b0\r\n' +
        'Content-Disposition: form-data; name="bucket"\r\n' +
        '\r\n' +
        '<BUCKET>\r\n' +
        '--b0\r\n' +
        'Content-Disposition: form-data; name="key"\r\n' +
        '\r\n' +
        '<OBJECT_KEY>\r\n' +
        '--b0\r\n' +
        'Content-Disposition: form-data; name="file"; filename="a.pdf"\r\n' +
        'Content-Type: application/pdf\r\n' +
        '\r\n' +
        '%PDF\r\n' +
        '--b0--\r\n',
    );
  });

  it('writes only the file part when formFields is empty', () => {
    const form = buildUploadForm(
      { formFields: [], filename: 'a.png', contentType: 'image/png', file: new Uint8Array(0) },
      { boundary: 'b0' },
    );
    expect(text(form.body)).toBe(
      '--b0\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\r\n--b0--\r\n',
    );
  });

  it('gives text parts no Content-Type header, and the file part the requested one as given', () => {
    const body = text(buildUploadForm({ ...ISSUED, contentType: 'Application/PDF; x=1' }, { boundary: 'b0' }).body);
    expect(body.match(/\r\nContent-Type: /g)).toHaveLength(1);
    expect(body).toContain('filename="evidence.pdf"\r\nContent-Type: Application/PDF; x=1\r\n\r\n');
    expect(body).toContain('name="Content-Type"\r\n\r\napplication/pdf\r\n');
  });

  it('writes no Content-Type for the file when the credentials request gave none ("")', () => {
    const body = text(buildUploadForm({ ...ISSUED, contentType: '' }, { boundary: 'b0' }).body);
    expect(body).toContain('filename="evidence.pdf"\r\n\r\n');
    expect(body.match(/\r\nContent-Type: /g)).toBeNull();
  });

  it.each([
    ['a quote, escaped as browsers do', 'a"b.pdf', 'filename="a%22b.pdf"'],
    ['CR and LF, escaped as browsers do', 'a\r\nb.pdf', 'filename="a%0D%0Ab.pdf"'],
    ['non-ASCII, as raw UTF-8', 'é证😀.pdf', `filename="${Buffer.from('é证😀.pdf').toString('latin1')}"`],
    ['a path, kept whole', 'dir/sub/a.pdf', 'filename="dir/sub/a.pdf"'],
    ['a single backslash, as itself', 'C:\\a.pdf', 'filename="C:\\a.pdf"'],
    ['a tab', 'a\tb.pdf', 'filename="a\tb.pdf"'],
    ['a percent sign, as itself', '100%.pdf', 'filename="100%.pdf"'],
  ])('writes a filename with %s', (_, filename, written) => {
    expect(text(buildUploadForm({ ...ISSUED, filename }, { boundary: 'b0' }).body)).toContain(
      `name="file"; ${written}\r\n`,
    );
  });

  it('escapes names the same way', () => {
    const body = text(buildUploadForm({ ...ISSUED, formFields: [['x"y\r\n', 'v']] }, { boundary: 'b0' }).body);
    expect(body).toContain('Content-Disposition: form-data; name="x%22y%0D%0A"\r\n\r\nv\r\n');
  });

  it('picks a random boundary by default and says which in the Content-Type', () => {
    const a = buildUploadForm(ISSUED);
    const b = buildUploadForm(ISSUED);
    const boundary = /^multipart\/form-data; boundary=(-{26}[0-9a-f]{24})$/.exec(a.contentType)?.[1];
    expect(boundary).toBeDefined();
    expect(text(a.body).startsWith(`--${boundary}\r\n`)).toBe(true);
    expect(text(a.body).endsWith(`\r\n--${boundary}--\r\n`)).toBe(true);
    expect(a.contentType).not.toBe(b.contentType);
  });
});

describe('buildUploadForm → parseMultipart round trip', () => {
  it('carries the spec-shaped formFields and every byte value 0–255 exactly', async () => {
    const form = buildUploadForm(ISSUED);
    expect(await parseMultipart(form.body, form.contentType)).toEqual(expectedParts(ISSUED));
    expect(await checkUploadBody(ISSUED, form.body, form.contentType)).toEqual({ valid: true });
  });

  it('carries a 2 MiB file (2,097,152 bytes, the DISPUTE_EVIDENCE limit) exactly', async () => {
    const file = new Uint8Array(2_097_152);
    for (let i = 0, x = 0x9e3779b9; i < file.length; i++) {
      x = (x ^ (x << 13)) >>> 0;
      x = (x ^ (x >>> 17)) >>> 0;
      x = (x ^ (x << 5)) >>> 0;
      file[i] = x & 0xff;
    }
    const input = { ...ISSUED, file };
    const form = buildUploadForm(input);
    const parts = await parseMultipart(form.body, form.contentType);
    const last = parts.at(-1);
    expect(last?.kind === 'file' && last.data.byteLength).toBe(2_097_152);
    expect(last?.kind === 'file' && Buffer.compare(last.data, file)).toBe(0);
    expect(parts.slice(0, -1)).toEqual(expectedParts(input).slice(0, -1));
    expect(await checkUploadBody(input, form.body, form.contentType)).toEqual({ valid: true });
  });

  it('carries a file that holds CRLF, dashes and the look of a delimiter', async () => {
    const file = utf8('\r\n--\r\n--b0\r\n--b0--\r\n--');
    const form = buildUploadForm({ ...ISSUED, file });
    expect(await parseMultipart(form.body, form.contentType)).toEqual(expectedParts({ ...ISSUED, file }));
  });

  it('carries empty values, a BOM, CRLFs, quotes and non-ASCII in values, and unseen entries (R15)', async () => {
    const formFields: FormFields = [
      ['empty', ''],
      ['bom', '\uFEFFx'],
      ['lines', 'a\r\nb\nc\r'],
      ['quotes', '"q" \\ \''],
      ['x-vendor-new-entry', 'é 证 😀'],
      ['key', 'uploads/${filename}'],
    ];
    const input = { ...ISSUED, formFields };
    const form = buildUploadForm(input);
    expect(await parseMultipart(form.body, form.contentType)).toEqual(expectedParts(input));
  });

  it.each([
    ['non-ASCII', 'é证😀.pdf', 'é证😀.pdf'],
    ['a path', 'dir/sub/a.pdf', 'dir/sub/a.pdf'],
    ['a single backslash', 'C:\\a.pdf', 'C:\\a.pdf'],
    ['a quote (arrives browser-escaped)', 'a"b.pdf', 'a%22b.pdf'],
  ])('carries a filename with %s, and the form check accepts it', async (_, filename, arrives) => {
    const input = { ...ISSUED, filename };
    const form = buildUploadForm(input);
    expect((await parseMultipart(form.body, form.contentType)).at(-1)).toMatchObject({
      kind: 'file',
      filename: arrives,
    });
    expect(await checkUploadBody(input, form.body, form.contentType)).toEqual({ valid: true });
  });

  it('passes the form check for any contentType it can carry', async () => {
    for (const contentType of [
      '',
      'Application/PDF',
      'application/pdf; charset=binary',
      'pdf',
      'application/vnd.ms-excel',
    ]) {
      const input = { ...ISSUED, contentType };
      const form = buildUploadForm(input);
      expect(await checkUploadBody(input, form.body, form.contentType), contentType).toEqual({ valid: true });
    }
  });

  it('round-trips any carriable form (property)', async () => {
    const carriable = (s: string): boolean => !/[\0-\x08\x0b\x0c\x0e-\x1f\x7f]|\\\\|\\$/.test(s);
    const escaped = (s: string): string => s.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
    const name = fc.string({ unit: 'binary', maxLength: 12 }).filter(carriable);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.tuple(name, fc.string({ unit: 'binary', maxLength: 40 })), {
          selector: ([n]) => escaped(n),
          maxLength: 6,
        }),
        name.filter((s) => s !== ''),
        fc.constantFrom(
          'application/pdf',
          'image/png',
          'text/plain',
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        ),
        fc.uint8Array({ maxLength: 300 }),
        async (formFields, filename, contentType, file) => {
          const input = { formFields, filename, contentType, file };
          const form = buildUploadForm(input);
          const parts = await parseMultipart(form.body, form.contentType);
          const want = expectedParts(input, escaped(filename)).map((p) => ({ ...p, name: escaped(p.name) }));
          expect(parts).toEqual(want);
          expect(await checkUploadBody(input, form.body, form.contentType)).toEqual({ valid: true });
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('buildUploadForm: misuse', () => {
  it.each<[string, Partial<Record<keyof UploadFormInput, unknown>>, typeof TypeError | typeof RangeError]>([
    ['an empty filename', { filename: '' }, RangeError],
    ['a filename with two backslashes in a row', { filename: 'a\\\\b.pdf' }, RangeError],
    ['a filename ending in a backslash', { filename: 'a.pdf\\' }, RangeError],
    ['a filename with a control character', { filename: 'a\x01.pdf' }, RangeError],
    ['a filename with DEL', { filename: 'a\x7f.pdf' }, RangeError],
    ['a filename with a lone surrogate', { filename: 'a\uD800.pdf' }, RangeError],
    ['a name with a control character', { formFields: [['a\0', 'v']] }, RangeError],
    ['a value with a lone surrogate', { formFields: [['a', '\uDC00']] }, RangeError],
    ['a contentType with CRLF', { contentType: 'application/pdf\r\nX-Injected: 1' }, RangeError],
    ['a contentType with LF', { contentType: 'application/pdf\nX: 1' }, RangeError],
    ['formFields not an array', { formFields: { bucket: 'b' } }, TypeError],
    ['a pair of three', { formFields: [['a', 'b', 'c']] }, TypeError],
    ['a non-string value', { formFields: [['a', 1]] }, TypeError],
    ['a non-string filename', { filename: 1 }, TypeError],
    ['a non-string contentType', { contentType: null }, TypeError],
    ['a file that is not bytes', { file: 'abc' }, TypeError],
  ])('throws for %s', (_, change, error) => {
    expect(() => buildUploadForm({ ...ISSUED, ...change } as UploadFormInput)).toThrow(error);
  });

  it.each(['', 'a b', 'a/b', 'a"b', 'x'.repeat(71), 'é'])('refuses the boundary %j', (boundary) => {
    expect(() => buildUploadForm(ISSUED, { boundary })).toThrow(RangeError);
  });

  it('accepts a 70-character boundary of every allowed character', async () => {
    const boundary = ("0-9_AZ'az+." + 'x'.repeat(70)).slice(0, 70);
    const form = buildUploadForm(ISSUED, { boundary });
    expect(await parseMultipart(form.body, form.contentType)).toEqual(expectedParts(ISSUED));
  });

  it('refuses a boundary that occurs in the content', () => {
    expect(() => buildUploadForm({ ...ISSUED, file: utf8('x\r\n--b0\r\n') }, { boundary: 'b0' })).toThrow(RangeError);
    expect(() => buildUploadForm({ ...ISSUED, formFields: [['k', 'xxb0']] }, { boundary: 'b0' })).toThrow(RangeError);
    expect(() => buildUploadForm({ ...ISSUED, filename: 'b0.pdf' }, { boundary: 'b0' })).toThrow(RangeError);
  });
});
