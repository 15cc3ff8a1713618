/**
 * Shows bytes so that nothing is hidden: every LF as `⏎` at the end of a display
 * line, escapes for what a reader could not see or tell apart, and the facts a
 * signature mismatch usually hides in (CR, BOM, non-ASCII, bytes that are not UTF-8).
 *
 * Escapes, each unambiguous: `\\` a backslash; `\r` CR; `\t` tab; `\xNN` one byte
 * that is a control character or not part of valid UTF-8; `\uXXXX` (`\UXXXXXXXX`)
 * a character that is invisible or easily confused (a BOM, a combining mark, a
 * format character, an unusual space, U+FFFD, and the display's own `⏎` and `│`).
 * Everything else, non-ASCII letters included, is shown as itself.
 * @module
 */
import { utf8SequenceLength } from '../scheme/utf8.js';
import { INVISIBLE } from '../vectors/visible-text.js';
import { hexDigits } from '../scheme/text.js';

/** The mark shown for each LF. */
export const LF_MARK = '⏎';

/** Counts of what a byte string holds. */
export interface ByteFacts {
  readonly bytes: number;
  readonly lf: number;
  readonly cr: number;
  /** CR immediately followed by LF. */
  readonly crlf: number;
  readonly tab: number;
  /** Other C0 control characters and DEL (NUL included). */
  readonly otherControls: number;
  /** Whether the bytes start with the UTF-8 BOM (EF BB BF). */
  readonly startsWithBom: boolean;
  /** Characters outside ASCII (valid UTF-8), and the bytes they take. */
  readonly nonAsciiChars: number;
  readonly nonAsciiBytes: number;
  /** Characters shown as `\u` escapes (the BOM included). */
  readonly escapedChars: number;
  /** Bytes that are not part of valid UTF-8. */
  readonly invalidBytes: number;
  readonly endsWithLf: boolean;
}

/** What {@link showBytes} returns. */
export interface ShownBytes {
  /** Display lines: each ends where an LF of the bytes was, with {@link LF_MARK}. */
  readonly lines: readonly string[];
  /** The display as one string, every LF kept as a real LF (for JSON). */
  readonly text: string;
  readonly facts: ByteFacts;
}

/**
 * Renders bytes for display.
 * @param bytes - any bytes
 * @returns the display lines, the display text and the facts
 * @example showBytes(new TextEncoder().encode('a\r\nb')).lines // ['a\\r⏎', 'b']
 */
export function showBytes(bytes: Uint8Array): ShownBytes {
  const facts = {
    bytes: bytes.byteLength,
    lf: 0,
    cr: 0,
    crlf: 0,
    tab: 0,
    otherControls: 0,
    nonAsciiChars: 0,
    nonAsciiBytes: 0,
    escapedChars: 0,
    invalidBytes: 0,
  };
  const lines: string[] = [];
  let text = '';
  let line = '';
  let i = 0;
  while (i < bytes.byteLength) {
    const b = bytes[i] ?? 0;
    const size = utf8SequenceLength(bytes, i);
    if (size === 0) {
      facts.invalidBytes++;
      line += `\\x${hexDigits(b, 2)}`;
      text += `\\x${hexDigits(b, 2)}`;
      i++;
      continue;
    }
    if (b === 0x0a) {
      facts.lf++;
      lines.push(`${line}${LF_MARK}`);
      text += '\n';
      line = '';
      i++;
      continue;
    }
    let shown: string;
    if (size === 1) {
      if (b === 0x5c) shown = '\\\\';
      else if (b === 0x0d) {
        facts.cr++;
        if (bytes[i + 1] === 0x0a) facts.crlf++;
        shown = '\\r';
      } else if (b === 0x09) {
        facts.tab++;
        shown = '\\t';
      } else if (b < 0x20 || b === 0x7f) {
        facts.otherControls++;
        shown = `\\x${hexDigits(b, 2)}`;
      } else shown = String.fromCharCode(b);
    } else {
      const ch = UTF8.decode(bytes.subarray(i, i + size));
      const cp = ch.codePointAt(0) ?? 0;
      facts.nonAsciiChars++;
      facts.nonAsciiBytes += size;
      if (INVISIBLE.test(ch) || ch === '\u23ce' || ch === '\u2502') {
        facts.escapedChars++;
        shown = cp <= 0xffff ? `\\u${hexDigits(cp, 4)}` : `\\U${hexDigits(cp, 8)}`;
      } else shown = ch;
    }
    line += shown;
    text += shown;
    i += size;
  }
  if (line !== '' || bytes.byteLength === 0) lines.push(line);
  const startsWithBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return { lines, text, facts: { ...facts, startsWithBom, endsWithLf: bytes[bytes.byteLength - 1] === 0x0a } };
}

// --- internal ---

const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });
