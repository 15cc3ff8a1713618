/**
 * Text for messages: a long value clipped, marked "…", never cut inside a character (one
 * helper for every message that quotes what it was given).
 * @module
 */

/**
 * Clips text to at most `max` UTF-16 units, marking the cut with "…"; a character outside the
 * BMP is kept whole or left out whole.
 * @param text - the text
 * @param max - the most units kept
 * @returns the text, or its start and "…"
 * @example clip('abcdef', 3) // 'abc…'
 */
export function clip(text: string, max: number): string {
  return text.length > max ? `${head(text, max)}…` : text;
}

/**
 * Like {@link clip}, in JSON quotes (escapes shown): `"abc"…` for a clipped text.
 * @param text - the text
 * @param max - the most units kept
 * @returns the quoted text, or its quoted start and "…"
 * @example clipQuoted('a\nbcdef', 3) // '"a\\nb"…'
 */
export function clipQuoted(text: string, max: number): string {
  return text.length > max ? `${JSON.stringify(head(text, max))}…` : JSON.stringify(text);
}

/**
 * Text in JSON quotes with every character outside printable ASCII escaped (`\t`, `\u00e9`):
 * what a header or value looked like, whatever the terminal shows.
 * @param text - the text
 * @returns the quoted, escaped text
 * @example quotedAscii('a\tbé') // '"a\\tb\\u00e9"'
 */
export function quotedAscii(text: string): string {
  return JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${hexDigits(c.charCodeAt(0), 4).toLowerCase()}`);
}

/**
 * A number in upper-case hex, zero-padded (the escapes `\xNN`, `\uXXXX` of reports and displays).
 * @param n - a non-negative integer
 * @param width - the digits at least
 * @returns e.g. `0A`
 * @example hexDigits(10, 2) // '0A'
 */
export function hexDigits(n: number, width: number): string {
  return n.toString(16).toUpperCase().padStart(width, '0');
}

// --- internal ---

function head(text: string, max: number): string {
  const c = text.charCodeAt(max - 1);
  return text.slice(0, c >= 0xd800 && c <= 0xdbff ? max - 1 : max);
}
