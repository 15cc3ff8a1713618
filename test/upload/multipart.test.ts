import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseContentType, reportedMediaType } from '../../src/upload/content-type.js';
import { MULTIPART_MALFORMED, MultipartError, parseMultipart, type MultipartPart } from '../../src/upload/multipart.js';

const TYPE = 'multipart/form-data; boundary=b0';
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const latin1 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));

// A body written out by hand: two text parts, then the file part, CRLF line ends.
const BODY =
  '--b0\r\n' +
  'Content-Disposition: form-data; name="key"\r\n' +
  '\r\n' +
  'uploads/${filename}\r\n' +
  '--b0\r\n' +
  'Content-Disposition: form-data; name="tagging"\r\n' +
  '\r\n' +
  '<Tagging><TagSet><Tag><Key>uploadNo</Key><Value>1717-9f2c</Value></Tag></TagSet></Tagging>\r\n' +
  '--b0\r\n' +
  'Content-Disposition: form-data; name="file"; filename="evidence.pdf"\r\n' +
  'Content-Type: application/pdf\r\n' +
  '\r\n' +
  '%PDF-1.7\r\n%\xe2\xe3\r\n' +
  '--b0--\r\n';

const PARTS: MultipartPart[] = [
  { kind: 'field', name: 'key', value: 'uploads/${filename}' },
  {
    kind: 'field',
    name: 'tagging',
    value: '<Tagging><TagSet><Tag><Key>uploadNo</Key><Value>1717-9f2c</Value></Tag></TagSet></Tagging>',
  },
  {
    kind: 'file',
    name: 'file',
    filename: 'evidence.pdf',
    contentType: 'application/pdf',
    data: latin1('%PDF-1.7\r\n%\xe2\xe3'),
  },
];

async function parse(body: string, type = TYPE): Promise<MultipartPart[]> {
  return parseMultipart(latin1(body), type);
}

/** One part written by hand. */
function part(headers: string, content: string): string {
  return `--b0\r\n${headers}\r\n\r\n${content}\r\n`;
}

async function malformed(body: Uint8Array | string, type = TYPE): Promise<MultipartError> {
  const bytes = typeof body === 'string' ? latin1(body) : body;
  const error: unknown = await parseMultipart(bytes, type).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MultipartError);
  return error as MultipartError;
}

describe('parseMultipart: parts in order', () => {
  it('reads text parts and the file part of a hand-written body, bytes exact', async () => {
    expect(await parse(BODY)).toEqual(PARTS);
  });

  it('reads a body held in a slice of a larger buffer', async () => {
    const big = new Uint8Array(BODY.length + 20).fill(0x41);
    big.set(latin1(BODY), 10);
    expect(await parseMultipart(big.subarray(10, 10 + BODY.length), TYPE)).toEqual(PARTS);
  });

  it('ignores a preamble and an epilogue, and accepts a body without the final CRLF', async () => {
    expect(await parse(`preamble text\r\n${BODY}epilogue --b0\r\n`)).toEqual(PARTS);
    expect(await parse(BODY.slice(0, -2))).toEqual(PARTS);
  });

  it('reads a Content-Type in any case, with a quoted boundary and other parameters', async () => {
    expect(await parse(BODY, 'Multipart/Form-Data; charset=utf-8; Boundary="b0"')).toEqual(PARTS);
    const spaced = BODY.replaceAll('--b0', '--b 0');
    expect(await parse(spaced, 'multipart/form-data; boundary="b 0"')).toEqual(PARTS);
  });

  it('reads a body with no parts as no parts', async () => {
    expect(await parse('--b0--\r\n')).toEqual([]);
  });

  it('keeps empty values, CRLFs, quotes, a BOM and non-ASCII in values exactly', async () => {
    const value = '\uFEFFline 1\r\nline "2"\r\n--b1 é 证 😀\r\n';
    const body =
      part('Content-Disposition: form-data; name="a"', '') +
      part('Content-Disposition: form-data; name="b"', '') +
      '--b0--';
    expect(await parseMultipart(utf8(body.replace('name="b"\r\n\r\n', `name="b"\r\n\r\n${value}`)), TYPE)).toEqual([
      { kind: 'field', name: 'a', value: '' },
      { kind: 'field', name: 'b', value },
    ]);
  });

  it('decodes a text part in the charset its Content-Type names', async () => {
    const body =
      part('Content-Disposition: form-data; name="a"\r\nContent-Type: text/plain; charset=latin1', '\xe9t\xe9') +
      '--b0--';
    expect(await parse(body)).toEqual([{ kind: 'field', name: 'a', value: 'été' }]);
  });

  it('reads a part without a name as named ""', async () => {
    expect(await parse(part('Content-Disposition: form-data', 'v') + '--b0--')).toEqual([
      { kind: 'field', name: '', value: 'v' },
    ]);
  });
});

describe('parseMultipart: what makes a file part', () => {
  it('treats filename="" as a text part', async () => {
    const body =
      part('Content-Disposition: form-data; name="file"; filename=""\r\nContent-Type: application/pdf', 'x') + '--b0--';
    expect(await parse(body)).toEqual([{ kind: 'field', name: 'file', value: 'x' }]);
  });

  it('treats an application/octet-stream part without a filename as a text part', async () => {
    const body =
      part('Content-Disposition: form-data; name="policy"\r\nContent-Type: application/octet-stream', 'P\xc3\xa9') +
      '--b0--';
    expect(await parse(body)).toEqual([{ kind: 'field', name: 'policy', value: 'Pé' }]);
  });

  it('reports a file part without Content-Type as text/plain (RFC 7578 4.4)', async () => {
    const body = part('Content-Disposition: form-data; name="file"; filename="a.pdf"', 'x') + '--b0--';
    expect(await parse(body)).toEqual([
      { kind: 'file', name: 'file', filename: 'a.pdf', contentType: 'text/plain', data: utf8('x') },
    ]);
  });

  it('reduces the media type to lower-case type/subtype', async () => {
    const body =
      part('Content-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: Application/PDF; q=1', 'x') +
      '--b0--';
    expect((await parse(body))[0]).toMatchObject({ kind: 'file', contentType: 'application/pdf' });
  });

  it.each([
    ['a raw UTF-8 filename', 'filename="\xe8\xaf\x81\xe6\x8d\xae.pdf"', '证据.pdf'],
    ['a filename* (RFC 5987)', "filename*=utf-8''%E8%AF%81.pdf", '证.pdf'],
    ['a quoted-pair quote', 'filename="a\\"b.pdf"', 'a"b.pdf'],
    ['a quoted-pair backslash', 'filename="a\\\\b.pdf"', 'a\\b.pdf'],
    ['a lone backslash', 'filename="C:\\dir\\a.pdf"', 'C:\\dir\\a.pdf'],
    ['a browser-escaped quote, left escaped', 'filename="a%22b.pdf"', 'a%22b.pdf'],
    ['a path, kept', 'filename="../dir/a.pdf"', '../dir/a.pdf'],
    ['an unquoted filename', 'filename=a.pdf', 'a.pdf'],
  ])('reads %s', async (_, param, filename) => {
    const body =
      part(`Content-Disposition: form-data; name="file"; ${param}\r\nContent-Type: application/pdf`, 'x') + '--b0--';
    expect((await parse(body))[0]).toEqual({
      kind: 'file',
      name: 'file',
      filename,
      contentType: 'application/pdf',
      data: utf8('x'),
    });
  });
});

describe('parseMultipart: malformed bodies reject with MultipartError', () => {
  it('carries a stable code, a name and the parser error as cause', async () => {
    const e = await malformed(BODY.slice(0, 40));
    expect(e.code).toBe('PGV2_MULTIPART_MALFORMED');
    expect(e.code).toBe(MULTIPART_MALFORMED);
    expect(e.name).toBe('MultipartError');
    expect(e).toBeInstanceOf(Error);
    expect(e.message).toBe('malformed multipart body: Unexpected end of form');
    expect((e.cause as Error).message).toBe('Unexpected end of form');
  });

  it('rejects every truncation of a body before its close delimiter', async () => {
    const complete = BODY.length - '\r\n'.length; // '--b0--' is the end; the final CRLF is optional
    for (let n = 0; n < complete; n++) {
      await expect(parse(BODY.slice(0, n)), `prefix of ${n} bytes`).rejects.toBeInstanceOf(MultipartError);
    }
  });

  it.each([
    ['garbage', 'hello world'],
    ['an empty body', ''],
    ['another boundary', BODY.replaceAll('--b0', '--b1')],
    ['a header line without a colon', part('Content-Disposition form-data; name="a"', 'v') + '--b0--'],
    ['a control character in a header', part('Content-Disposition: form-data; name="a\x01"', 'v') + '--b0--'],
    ['headers that never end', '--b0\r\nContent-Disposition: form-data; name="a"\r\n--b0--'],
    [
      'a part header over 16 KiB',
      part(`Content-Disposition: form-data; name="${'a'.repeat(17 * 1024)}"`, 'v') + '--b0--',
    ],
  ])('rejects %s', async (_, body) => {
    await malformed(body);
  });

  it.each([
    ['no Content-Disposition', 'Content-Type: text/plain'],
    ['a Content-Disposition other than form-data', 'Content-Disposition: attachment; name="a"'],
    ['an unparseable Content-Disposition', 'Content-Disposition: form-data; name="a'],
    [
      'a filename whose backslash escapes the closing quote',
      'Content-Disposition: form-data; name="file"; filename="a.pdf\\"',
    ],
  ])('rejects a part busboy would skip silently: %s', async (_, headers) => {
    const e = await malformed(part('Content-Disposition: form-data; name="key"', 'k') + part(headers, 'v') + '--b0--');
    expect(e.message).toBe(
      'the body opens 2 parts but only 1 could be read: 1 without a readable form-data Content-Disposition',
    );
  });

  it.each([
    ['', 'Content-Type "" is malformed'],
    ['multipart/form-data', 'Content-Type multipart/form-data has no boundary'],
    ['multipart/form-data; boundary=', 'Content-Type "multipart/form-data; boundary=" is malformed'],
    ['multipart/form-data; boundary=""', 'Content-Type multipart/form-data has an empty boundary'],
    ['multipart/mixed; boundary=b0', 'Content-Type multipart/mixed is not multipart/form-data (4.2)'],
    [
      'application/x-www-form-urlencoded',
      'Content-Type application/x-www-form-urlencoded is not multipart/form-data (4.2)',
    ],
    ['application/json', 'Content-Type application/json is not multipart/form-data (4.2)'],
    ['multipart/form-data; boundary=b0;', 'Content-Type "multipart/form-data; boundary=b0;" is malformed'],
  ])('rejects the Content-Type %j', async (type, message) => {
    expect((await malformed(BODY, type)).message).toBe(message);
  });

  it('rejects misuse with TypeError', async () => {
    await expect(parseMultipart(BODY as unknown as Uint8Array, TYPE)).rejects.toBeInstanceOf(TypeError);
    await expect(parseMultipart(latin1(BODY), undefined as unknown as string)).rejects.toBeInstanceOf(TypeError);
  });
});

describe('the busboy Content-Type mirror', () => {
  it.each([
    ['application/pdf', 'application/pdf'],
    ['Application/PDF', 'application/pdf'],
    ['application/pdf; charset=binary', 'application/pdf'],
    ['  application/pdf  ', 'application/pdf'],
    ['image/svg+xml;a="q\\"x"', 'image/svg+xml'],
    ['pdf', 'text/plain'],
    ['', 'text/plain'],
    ['application/', 'text/plain'],
    ['/pdf', 'text/plain'],
    ['application/pdf;', 'text/plain'],
    ['application/pdf; a', 'text/plain'],
    ['application/pdf; a=', 'text/plain'],
    ['application/pdf; a="b', 'text/plain'],
    ['application/pdf x', 'text/plain'],
    ['applicatión/pdf', 'text/plain'],
  ])('reportedMediaType(%j) is %j', (value, expected) => {
    expect(reportedMediaType(value)).toBe(expected);
  });

  it('keeps the first of repeated parameters and unescapes quoted pairs', () => {
    expect(parseContentType('a/b; X=1; x=2; y="p\\"q\\\\r\\s"; =e')).toEqual({
      type: 'a',
      subtype: 'b',
      params: { x: '1', y: 'p"q\\r\\s', '': 'e' },
    });
  });

  it('agrees with busboy on what a file part reports, for any header-safe Content-Type', async () => {
    const alphabet = fc.constantFrom(...'aZ09/;= "\\\t-+.*é'.split(''));
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: alphabet, maxLength: 24 }), async (type) => {
        const body =
          part(`Content-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: ${type}`, 'x') +
          '--b0--';
        const [file] = await parseMultipart(utf8(body), TYPE);
        expect(file).toMatchObject({ kind: 'file', contentType: reportedMediaType(type) });
      }),
      { numRuns: 300 },
    );
  });
});
