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

// --- internal ---

function head(text: string, max: number): string {
  const c = text.charCodeAt(max - 1);
  return text.slice(0, c >= 0xd800 && c <= 0xdbff ? max - 1 : max);
}
