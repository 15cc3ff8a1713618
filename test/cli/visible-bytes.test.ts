import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { showBytes } from '../../src/cli/visible-bytes.js';
import { isValidUtf8 } from '../../src/scheme/utf8.js';

const hex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.replace(/ /g, ''), 'hex'));
const text = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('showBytes', () => {
  it.each([
    ['plain text', text('{"a":1}'), ['{"a":1}']],
    ['empty', text(''), ['']],
    ['LF ends a display line', text('a\nb'), ['a⏎', 'b']],
    ['trailing LF', text('a\n'), ['a⏎']],
    ['two LFs', text('a\n\n'), ['a⏎', '⏎']],
    ['CR LF', text('a\r\nb'), ['a\\r⏎', 'b']],
    ['tab', text('a\tb'), ['a\\tb']],
    ['backslash', text('a\\nb'), ['a\\\\nb']],
    ['NUL and DEL', hex('00 7f'), ['\\x00\\x7F']],
    ['BOM', hex('ef bb bf 7b 7d'), ['\\uFEFF{}']],
    ['BOM inside', text('a\ufeffb'), ['a\\uFEFFb']],
    ['non-ASCII letters as themselves', text('é中😀'), ['é中😀']],
    ['combining mark', text('e\u0301'), ['e\\u0301']],
    ['no-break space', text('a\u00a0b'), ['a\\u00A0b']],
    ['C1 control', text('\u0085'), ['\\u0085']],
    ['the display marks themselves', text('⏎│'), ['\\u23CE\\u2502']],
    ['U+FFFD written in the body', text('\ufffd'), ['\\uFFFD']],
    ['private use, plane 15', text('\u{f0000}'), ['\\U000F0000']],
    ['a lone invalid byte', hex('61 ff 62'), ['a\\xFFb']],
    ['overlong slash', hex('c0 af'), ['\\xC0\\xAF']],
    ['encoded surrogate', hex('ed a0 80'), ['\\xED\\xA0\\x80']],
    ['truncated sequence', hex('e2 82'), ['\\xE2\\x82']],
    ['above U+10FFFF', hex('f4 90 80 80'), ['\\xF4\\x90\\x80\\x80']],
    ['Latin-1 é', hex('e9'), ['\\xE9']],
  ])('%s', (_, bytes, lines) => {
    expect(showBytes(bytes).lines).toEqual(lines);
  });

  it('counts what the body holds', () => {
    const f = showBytes(hex('ef bb bf 61 0d 0a 09 c3 a9 ff 00 0a')).facts;
    expect(f).toEqual({
      bytes: 12,
      lf: 2,
      cr: 1,
      crlf: 1,
      tab: 1,
      otherControls: 1,
      startsWithBom: true,
      nonAsciiChars: 2,
      nonAsciiBytes: 5,
      escapedChars: 1,
      invalidBytes: 1,
      endsWithLf: true,
    });
  });

  it('hides nothing: the display reads back to the exact bytes (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.string({ unit: 'binary', maxLength: 32 }).map(text)),
        (bytes) => {
          const shown = showBytes(bytes);
          expect(readBack(shown.lines.join(''))).toEqual(Buffer.from(bytes));
          expect(readBack(shown.text.replace(/\n/g, '⏎'))).toEqual(Buffer.from(bytes));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('isValidUtf8', () => {
  it('agrees with a fatal TextDecoder (property)', () => {
    const fatal = new TextDecoder('utf-8', { fatal: true });
    const decodes = (b: Uint8Array): boolean => {
      try {
        fatal.decode(b);
        return true;
      } catch {
        return false;
      }
    };
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 16 }), (b) => isValidUtf8(b) === decodes(b)),
      { numRuns: 2000 },
    );
    for (const h of [
      'c0 af',
      'ed a0 80',
      'f4 90 80 80',
      'e0 80 80',
      'f0 80 80 80',
      'f0 9f 98 80',
      'ed 9f bf',
      'ef bf bd',
    ]) {
      expect(isValidUtf8(hex(h)), h).toBe(decodes(hex(h)));
    }
  });
});

/** Reads a display back into bytes: the escapes of visible-bytes.ts, ⏎ as LF. Written apart from the renderer. */
function readBack(display: string): Buffer {
  const out: number[] = [];
  const chars = [...display];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] ?? '';
    if (ch === '⏎') out.push(0x0a);
    else if (ch !== '\\') out.push(...Buffer.from(ch, 'utf8'));
    else {
      const kind = chars[++i];
      const take = (n: number): string => chars.slice(i + 1, (i += n) + 1).join('');
      if (kind === '\\') out.push(0x5c);
      else if (kind === 'r') out.push(0x0d);
      else if (kind === 't') out.push(0x09);
      else if (kind === 'x') out.push(parseInt(take(2), 16));
      else if (kind === 'u') out.push(...Buffer.from(String.fromCodePoint(parseInt(take(4), 16)), 'utf8'));
      else if (kind === 'U') out.push(...Buffer.from(String.fromCodePoint(parseInt(take(8), 16)), 'utf8'));
      else throw new Error(`unknown escape \\${kind}`);
    }
  }
  return Buffer.from(out);
}
