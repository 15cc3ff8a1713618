/**
 * The pieces under every report: secret masking (exact, fragments, base64, JSON
 * contents) and the line-by-line content comparison.
 */
import { describe, expect, it } from 'vitest';
import { maskSecret } from '../../src/scheme/mask.js';
import { diffContents, describeDifference, lineText, viewContent } from '../../src/reports/_content.js';
import { BASE64_MASK, Redactor } from '../../src/reports/redact.js';
import { diffLines } from '../../src/reports/_text.js';
import { b64, EXPECTED_CONTENT, GOT_CONTENT, SECRET, SECRET2, SECRETS } from './_fixture.js';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const r = new Redactor(SECRETS);

describe('Redactor', () => {
  it('masks each secret with its mask, longest first', () => {
    expect(r.text(`a ${SECRET} b ${SECRET2}`)).toBe(`a ${maskSecret(SECRET)} b ${maskSecret(SECRET2)}`);
  });

  it('masks what a mistaken implementation makes of a secret: truncated, trimmed, re-cased', () => {
    for (const near of [SECRET.slice(0, -3), SECRET.slice(5), SECRET.toUpperCase()]) {
      const out = r.text(`secret: ${near}.`);
      expect(out).toMatch(/^secret: ‹\d+ bytes masked: part of a secret›\.$/);
    }
  });

  it('leaves text without secret material alone', () => {
    expect(r.text('POST https://pg.example.com/pg/v2/file/generateUploadUrl sign=ab12')).toBe(
      'POST https://pg.example.com/pg/v2/file/generateUploadUrl sign=ab12',
    );
    expect(new Redactor([]).text(SECRET)).toBe(SECRET);
  });

  it('replaces base64 runs in free text that decode to secret material, at any alignment', () => {
    for (const prefix of ['', 'x', 'xy']) {
      const run = b64(`${prefix}${EXPECTED_CONTENT}`);
      expect(r.text(`content=${run} end`)).toBe(`content=${BASE64_MASK} end`);
    }
    expect(r.text(`sign=${b64('nothing secret here at all')}`)).toBe(`sign=${b64('nothing secret here at all')}`);
  });

  it('stores contentB64 as contentText (decoded, masked, LF real) and masks other …B64 only when they hold a secret', () => {
    const value = r.json({
      result: {
        contentB64: b64(EXPECTED_CONTENT),
        bodyB64: b64('{"a":1}'),
        echoB64: b64(`s=${SECRET2}`),
        note: SECRET,
      },
    });
    expect(value).toEqual({
      result: {
        bodyB64: b64('{"a":1}'),
        contentText: EXPECTED_CONTENT.replace(SECRET, maskSecret(SECRET)),
        echoText: `s=${maskSecret(SECRET2)}`,
        note: maskSecret(SECRET),
      },
    });
    expect(Object.keys((value as { result: object }).result)).toEqual(['bodyB64', 'contentText', 'echoText', 'note']);
  });

  it('shows bytes that are not UTF-8 as \\xNN in plain text', () => {
    expect(r.plain(Uint8Array.of(0x61, 0xff, 0x0a, 0xc3, 0xa9))).toBe('a\\xFF\né');
  });
});

describe('viewContent', () => {
  it('cuts at LF, shows LF as ⏎, CR as \\r, other controls and invisible characters escaped', () => {
    const v = viewContent(utf8('a\r\nb\t\u0001\\\ufeff\n\nlast'), new Redactor([]));
    expect(v.lines.map(lineText)).toEqual(['a\\r⏎', 'b\\t\\x01\\\\\\uFEFF⏎', '⏎', 'last']);
    expect(viewContent(new Uint8Array(), r).lines).toEqual([]);
  });

  it('masks the secret as one token', () => {
    const v = viewContent(utf8(EXPECTED_CONTENT), r);
    expect(v.lines[1]?.tokens.map((t) => t.kind)).toEqual(['masked', 'lf']);
    expect(lineText(v.lines[1]!)).toBe(`${maskSecret(SECRET)}⏎`);
  });
});

describe('diffContents', () => {
  it('final LF missing: line 7 differs, the LF is marked on the expected side and the end on the got side', () => {
    const d = diffContents(utf8(EXPECTED_CONTENT), utf8(GOT_CONTENT), r);
    expect(d.rows.map((row) => row.differs)).toEqual([false, false, false, false, false, false, true]);
    expect(d.firstDifference).toEqual({ offset: GOT_CONTENT.length, line: 7, part: 'body' });
    const row = d.rows[6]!;
    expect(row.expected?.tokens[row.expectedMark as number]?.kind).toBe('lf');
    expect(row.gotMark).toBe('end');
    expect(describeDifference(d)).toBe(
      `first difference at byte ${GOT_CONTENT.length} (line 7, body); expected ${EXPECTED_CONTENT.length} bytes, got ${GOT_CONTENT.length}`,
    );
  });

  it('body LF dropped: the expected has an eighth line the got lacks', () => {
    const e = 'a\ns\nPOST\nu\n1\nn\n{}\n\n';
    const d = diffContents(utf8(e), utf8(e.slice(0, -1)), r);
    expect(d.rows).toHaveLength(8);
    expect(d.rows[7]).toMatchObject({ number: 8, part: 'body', differs: true, gotMark: 'end', expectedMark: 0 });
    expect(d.rows[7]?.got).toBeUndefined();
    expect(diffLines(d).slice(-3)).toEqual([
      '-  8 body      ⏎',
      '               ^ first difference',
      '+  8 body      (no line) ‹end›',
    ]);
  });

  it('a difference inside the secret marks the whole masked secret, never a part of it', () => {
    const got = EXPECTED_CONTENT.replace(SECRET, SECRET.slice(0, 20) + 'X' + SECRET.slice(21));
    const d = diffContents(utf8(EXPECTED_CONTENT), utf8(got), r);
    const row = d.rows[1]!;
    expect(row.differs).toBe(true);
    expect(row.expected?.tokens[row.expectedMark as number]?.kind).toBe('masked');
    const shown = diffLines(d).join('\n');
    expect(shown).not.toContain(SECRET.slice(0, 20));
    expect(shown).not.toContain(SECRET.slice(21));
  });

  it('equal contents: no difference, no marks', () => {
    const d = diffContents(utf8('a\n'), utf8('a\n'), r);
    expect(d.firstDifference).toBeUndefined();
    expect(d.rows).toEqual([expect.objectContaining({ differs: false })]);
    expect(describeDifference(d)).toBe('the contents are equal (2 bytes)');
  });
});
