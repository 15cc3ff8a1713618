/**
 * Signature content for reports: decoded, secrets masked, cut into display lines
 * (one per LF, the LF shown as `⏎`), and two contents compared line by line with
 * the first differing byte located.
 * @module
 */
import { utf8SequenceLength } from '../scheme/utf8.js';
import { INVISIBLE } from '../vectors/visible-text.js';
import type { Redactor } from './redact.js';
import { PART_NAMES } from '../scheme/parts.js';
import { hexDigits } from '../scheme/text.js';

/** The mark shown for each LF. */
export const LF_MARK = '⏎';

/** text: shown as itself; escape: a visible escape (`\r`, `\xNN`, `\\`); lf: the LF mark; masked: a secret. */
export type TokenKind = 'text' | 'escape' | 'lf' | 'masked';

/** One shown piece of a content: a character, an escape, an LF or a masked secret, with its bytes. */
export interface Token {
  readonly text: string;
  readonly kind: TokenKind;
  readonly start: number;
  readonly end: number;
}

/** A display line: the bytes up to and including an LF (or the end). */
export interface ContentLine {
  /** 1-based. */
  readonly number: number;
  readonly start: number;
  readonly end: number;
  readonly tokens: readonly Token[];
}

/** A content ready to show; the raw bytes are not kept. */
export interface ContentView {
  readonly length: number;
  readonly lines: readonly ContentLine[];
}

/** One row of a line-by-line comparison. */
export interface DiffRow {
  readonly number: number;
  /** The part the line holds in a correct content (`appId` … `nonce`, then `body`). */
  readonly part: string;
  readonly expected?: ContentLine;
  readonly got?: ContentLine;
  readonly differs: boolean;
  /** Where the first differing byte is marked on this row: a token index, or `end` (the content ends here). */
  readonly expectedMark?: number | 'end';
  readonly gotMark?: number | 'end';
}

/** Two contents compared. */
export interface ContentDiff {
  readonly expected: ContentView;
  readonly got: ContentView;
  readonly rows: readonly DiffRow[];
  /** Byte offset of the first difference; undefined when the contents are equal. */
  readonly firstDifference?: { readonly offset: number; readonly line: number; readonly part: string };
}

/** The parts of a content, one per line (the body may take several). */

/**
 * Cuts a content into display lines, secrets masked.
 * @param bytes - the content
 * @param redactor - masks the secrets
 * @returns the view
 * @example
 * import { Redactor } from './redact.js';
 * viewContent(utf8('a\r\nb'), new Redactor([])).lines.map(lineText) // ['a\\r⏎', 'b']
 */
export function viewContent(bytes: Uint8Array, redactor: Redactor): ContentView {
  const lines: ContentLine[] = [];
  let tokens: Token[] = [];
  let lineStart = 0;
  const endLine = (end: number): void => {
    lines.push({ number: lines.length + 1, start: lineStart, end, tokens });
    tokens = [];
    lineStart = end;
  };
  const ranges = redactor.ranges(bytes);
  let r = 0;
  for (let i = 0; i < bytes.byteLength;) {
    const range = ranges[r];
    if (range && range.start === i) {
      tokens.push({ text: range.display, kind: 'masked', start: i, end: range.end });
      i = range.end;
      r++;
      continue;
    }
    const token = charToken(bytes, i);
    tokens.push(token);
    i = token.end;
    if (token.kind === 'lf') endLine(i);
  }
  if (tokens.length > 0) endLine(bytes.byteLength);
  return { length: bytes.byteLength, lines };
}

/**
 * The text of a display line.
 * @param line - the line
 * @returns its tokens' texts joined
 * @example
 * import { Redactor } from './redact.js';
 * lineText(viewContent(utf8('a\n'), new Redactor([])).lines[0]!) // 'a⏎'
 */
export function lineText(line: ContentLine): string {
  return line.tokens.map((t) => t.text).join('');
}

/**
 * Compares two contents line by line and locates the first differing byte.
 * @param expected - the content a correct signer builds
 * @param got - the implementation's content
 * @param redactor - masks the secrets
 * @returns the rows (one per line of the longer content) and the first difference
 * @example
 * import { Redactor } from './redact.js';
 * const diff = diffContents(utf8('a\nb\n'), utf8('a\nb'), new Redactor([]));
 * diff.firstDifference // { offset: 3, line: 2, part: 'appSecret' }
 */
export function diffContents(expected: Uint8Array, got: Uint8Array, redactor: Redactor): ContentDiff {
  const e = viewContent(expected, redactor);
  const g = viewContent(got, redactor);
  let offset = 0;
  while (offset < expected.byteLength && offset < got.byteLength && expected[offset] === got[offset]) offset++;
  const equal = offset === expected.byteLength && offset === got.byteLength;
  const eMark = equal ? undefined : markAt(e, offset);
  const gMark = equal ? undefined : markAt(g, offset);
  const count = Math.max(e.lines.length, g.lines.length, eMark?.row ?? 0, gMark?.row ?? 0);
  const rows: DiffRow[] = [];
  for (let n = 1; n <= count; n++) {
    const el = e.lines[n - 1];
    const gl = g.lines[n - 1];
    const differs = !el || !gl || !sameBytes(expected.subarray(el.start, el.end), got.subarray(gl.start, gl.end));
    rows.push({
      number: n,
      part: partName(n),
      ...(el ? { expected: el } : {}),
      ...(gl ? { got: gl } : {}),
      differs,
      ...(eMark?.row === n ? { expectedMark: eMark.mark } : {}),
      ...(gMark?.row === n ? { gotMark: gMark.mark } : {}),
    });
  }
  const line = eMark?.row ?? 0;
  return { expected: e, got: g, rows, ...(equal ? {} : { firstDifference: { offset, line, part: partName(line) } }) };
}

/**
 * Says where two contents first differ.
 * @param diff - the comparison
 * @returns one line, e.g. `first difference at byte 311 (line 7, body); expected 312 bytes, got 311`
 * @example
 * import { Redactor } from './redact.js';
 * const diff = diffContents(utf8('a\nb\n'), utf8('a\nb'), new Redactor([]));
 * describeDifference(diff) // 'first difference at byte 3 (line 2, appSecret); expected 4 bytes, got 3'
 */
export function describeDifference(diff: ContentDiff): string {
  const sizes = `expected ${diff.expected.length} bytes, got ${diff.got.length}`;
  const d = diff.firstDifference;
  if (!d) return `the contents are equal (${diff.expected.length} bytes)`;
  return `first difference at byte ${d.offset} (line ${d.line}, ${d.part}); ${sizes}`;
}

/**
 * The part a display line holds in a correct content.
 * @param line - 1-based line number
 * @returns `appId` … `nonce` for lines 1–6, `body` after
 * @example partName(2) // 'appSecret'
 */
export function partName(line: number): string {
  return PART_NAMES[Math.min(Math.max(line, 1), 7) - 1] ?? 'body';
}

// --- internal ---

const DECODER = new TextDecoder('utf-8', { ignoreBOM: true });

function charToken(bytes: Uint8Array, i: number): Token {
  const b = bytes[i] ?? 0;
  const size = utf8SequenceLength(bytes, i);
  const token = (text: string, kind: TokenKind, end = i + 1): Token => ({ text, kind, start: i, end });
  if (size === 0) return token(`\\x${hexDigits(b, 2)}`, 'escape');
  if (size === 1) {
    if (b === 0x0a) return token(LF_MARK, 'lf');
    if (b === 0x0d) return token('\\r', 'escape');
    if (b === 0x09) return token('\\t', 'escape');
    if (b === 0x5c) return token('\\\\', 'escape');
    if (b < 0x20 || b === 0x7f) return token(`\\x${hexDigits(b, 2)}`, 'escape');
    return token(String.fromCharCode(b), 'text');
  }
  const ch = DECODER.decode(bytes.subarray(i, i + size));
  const cp = ch.codePointAt(0) ?? 0;
  if (INVISIBLE.test(ch) || ch === LF_MARK)
    return token(cp <= 0xffff ? `\\u${hexDigits(cp, 4)}` : `\\U${hexDigits(cp, 8)}`, 'escape', i + size);
  return token(ch, 'text', i + size);
}

function markAt(view: ContentView, offset: number): { row: number; mark: number | 'end' } {
  for (const line of view.lines) {
    if (offset >= line.start && offset < line.end) {
      return { row: line.number, mark: line.tokens.findIndex((t) => offset >= t.start && offset < t.end) };
    }
  }
  const last = view.lines[view.lines.length - 1];
  if (last && last.tokens[last.tokens.length - 1]?.kind !== 'lf') return { row: last.number, mark: 'end' };
  return { row: view.lines.length + 1, mark: 'end' };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && a.every((x, i) => x === b[i]);
}
