import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bodyBytes, contentBytes, fileBytes, partData } from '../../src/vectors/fields.js';
import { hasInvisible, visibleScalar } from '../../src/vectors/visible-text.js';
import { stringifyVectorFile } from '../../src/vectors/write.js';

describe('visibleScalar', () => {
  it.each([
    ['plain', 'abc', '"abc"'],
    ['quote and backslash', 'a"b\\c', '"a\\"b\\\\c"'],
    ['tab and CR', 'a\tb\r', '"a\\tb\\r"'],
    ['C0 control and DEL', '\u0001\u007f', '"\\x01\\x7F"'],
    ['BOM and combining mark', '\ufeffe\u0301', '"\\uFEFFe\\u0301"'],
    ['no-break space', 'a\u00a0b', '"a\\xA0b"'],
    ['private use beyond the BMP', '\u{F0000}', '"\\U000F0000"'],
    ['letters outside ASCII stay as they are', 'é中😀', '"é中😀"'],
    ['one source line per LF', 'a\nb\n', '"a\\n\\\n  b\\n"'],
    ['a continued line starting with a space', 'a\n b', '"a\\n\\\n  \\x20b"'],
  ])('%s', (_, text, written) => {
    const out = visibleScalar(text, '  ');
    expect(out).toBe(written);
    expect(parse(`v: ${out}`)).toEqual({ v: text });
  });

  it('says which text holds an invisible character', () => {
    expect(hasInvisible('plain text é')).toBe(false);
    expect(hasInvisible('e\u0301')).toBe(true);
    expect(hasInvisible('a\u200bb')).toBe(true);
  });
});

describe('stringifyVectorFile', () => {
  it('round-trips every string exactly, quoting edge white space and escaping in lists too', () => {
    const file = {
      kind: 'upload',
      title: 't',
      cases: [{ id: 'upload.x', values: [' lead', 'trail ', 'e\u0301', ['bucket', 'a\nb']], n: 1, nothing: null }],
    };
    const text = stringifyVectorFile(file);
    expect(parse(text)).toEqual(file);
    expect(text).toContain('- " lead"');
    expect(text).toContain('- "e\\u0301"');
    expect(text).toContain('"a\\n\\\n');
  });
});

describe('byte fields', () => {
  it('reads text and base64 forms', () => {
    expect([...bodyBytes({ bodyB64: 'AP8=' })]).toEqual([0, 255]);
    expect([...bodyBytes({})]).toEqual([]);
    expect([...(contentBytes({ contentB64: 'YQo=' }) ?? [])]).toEqual([0x61, 0x0a]);
    expect(contentBytes({})).toBeUndefined();
    expect([...fileBytes({ fileB64: 'AQ==' })]).toEqual([1]);
    expect([...fileBytes({ file: 'é' })]).toEqual([0xc3, 0xa9]);
    expect(partData({ name: 'bucket', value: 'b' })).toBeUndefined();
    expect([
      ...(partData({ name: 'file', filename: 'a.pdf', contentType: 'application/pdf', dataB64: 'AQI=' }) ?? []),
    ]).toEqual([1, 2]);
    expect([...(partData({ name: 'file', filename: 'a.pdf', contentType: 'application/pdf' }) ?? [])]).toEqual([]);
  });
});
