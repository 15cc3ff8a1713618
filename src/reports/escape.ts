/**
 * Escaping for the XML and HTML reports, and visible escapes for characters that
 * neither can carry.
 * @module
 */
import { hexDigits } from '../scheme/text.js';

/**
 * Replaces characters XML 1.0 and HTML cannot carry (controls other than tab, LF,
 * CR; lone surrogates; U+FFFE, U+FFFF), and DEL and C1 controls, by visible escapes.
 * @param text - any text
 * @returns the text with `\xNN` / `\uXXXX` in their place
 * @example visibleForbidden('a\u0000b') // 'a\\x00b'
 */
export function visibleForbidden(text: string): string {
  return text.replace(FORBIDDEN, (ch) => {
    const cp = ch.charCodeAt(0);
    return cp <= 0xff ? `\\x${hexDigits(cp, 2)}` : `\\u${hexDigits(cp, 4)}`;
  });
}

/**
 * Escapes text for XML content or an attribute value; forbidden characters become
 * visible escapes ({@link visibleForbidden}).
 * @param text - any text
 * @param attribute - true for an attribute value (tab, LF and CR as character references)
 * @returns the escaped text
 * @example escapeXml('a<b & "c"\u0001', true) // 'a&lt;b &amp; &quot;c&quot;\\x01'
 */
export function escapeXml(text: string, attribute = false): string {
  return visibleForbidden(text).replace(attribute ? /[&<>"'\t\n\r]/g : /[&<>\r]/g, (ch) => XML_ESCAPES[ch] ?? ch);
}

/**
 * Escapes text for HTML content and quoted attribute values; forbidden characters
 * become visible escapes ({@link visibleForbidden}).
 * @param text - any text
 * @returns the escaped text
 * @example escapeHtml('<a href="x">') // '&lt;a href=&quot;x&quot;&gt;'
 */
export function escapeHtml(text: string): string {
  return visibleForbidden(text).replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

// --- internal ---

/** Controls other than tab, LF and CR, DEL, C1 controls, U+FFFE and U+FFFF. */
const FORBIDDEN_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/;
/** A high surrogate with no low surrogate after it. */
const LONE_HIGH_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/;
/** A low surrogate with no high surrogate before it. */
const LONE_LOW_SURROGATE = /(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const FORBIDDEN = new RegExp(
  `${FORBIDDEN_CHARS.source}|${LONE_HIGH_SURROGATE.source}|${LONE_LOW_SURROGATE.source}`,
  'g',
);

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
