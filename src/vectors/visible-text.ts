/**
 * Writes text as a YAML double-quoted scalar in which every line feed is visible as
 * `\n` and ends a source line (an escaped line break continues the scalar), so a
 * signature content reads one part per line and stays byte-exact. Characters a
 * reader could not see or tell apart (controls, combining marks, format characters
 * such as a BOM, unusual spaces) are written as escapes.
 * @module
 */
import { hexDigits } from '../scheme/text.js';

/**
 * Characters a reader could not see or tell apart: controls, format characters (BOM), marks, unusual spaces, unassigned
 * and private-use code points.
 * @example INVISIBLE.test('a\u200bb') // true
 */
export const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{M}\p{Zl}\p{Zp}\p{Co}\p{Cn}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufffd]/u;

/**
 * Whether text holds a character a reader could not see or tell apart.
 * @param text - any text
 * @returns true when {@link visibleScalar} would escape something other than LF, CR, tab, quote or backslash
 * @example hasInvisible('e\u0301') // true
 */
export function hasInvisible(text: string): boolean {
  return INVISIBLE.test(text);
}

/**
 * Renders text as a multi-line YAML double-quoted scalar, one source line per LF.
 * @param text - the text (any Unicode string)
 * @param indent - the indentation of continuation lines
 * @returns the scalar, starting and ending with a double quote
 * @example visibleScalar('a\nb\n', '  ') // '"a\\n\\\n  b\\n"'
 */
export function visibleScalar(text: string, indent: string): string {
  const lines = text.split(/(?<=\n)/);
  if (lines.length <= 1) return `"${escapeLine(text, false)}"`;
  return `"${lines.map((line, i) => escapeLine(line, i > 0)).join(`\\\n${indent}`)}"`;
}

// --- internal ---

function escapeLine(line: string, continuation: boolean): string {
  let out = '';
  let start = true;
  for (const ch of line) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === ' ' && start && continuation) out += '\\x20';
    else if (INVISIBLE.test(ch))
      out += cp <= 0xff ? `\\x${hexDigits(cp, 2)}` : cp <= 0xffff ? `\\u${hexDigits(cp, 4)}` : `\\U${hexDigits(cp, 8)}`;
    else out += ch;
    start = false;
  }
  return out;
}
