/**
 * What a text conversion does to bytes that are not UTF-8: each ill-formed part is
 * replaced by a replacement character (U+FFFD, or "?"). Converters agree on valid
 * sequences and differ only in how they cut the ill-formed ones; the forms seen in
 * real converters:
 *
 * - `maximal-subpart` — the Unicode recommendation (Unicode §3.9, "U+FFFD Substitution of
 *   Maximal Subparts") that the WHATWG Encoding Standard's UTF-8 decoder makes
 *   normative: one replacement per maximal subpart, the longest prefix of a well-formed
 *   sequence (Unicode table 3-7) at that position, at least one byte. Node's Buffer
 *   toString and TextDecoder, Python's decode(errors='replace'), Rust's
 *   from_utf8_lossy, PHP's mbstring (mb_convert_encoding, mb_scrub; php-src
 *   mb_utf8_to_wchar, and php/php-src#8360, which restored this rule in 8.1) do this.
 *   Examples: FF → 1; E2 82 then "b" → 1 (a truncated 3-byte sequence); C0 AF → 2 (C0
 *   never starts a sequence); E0 80 AF → 3 (E0 needs A0..BF next); ED A0 80 (a surrogate)
 *   → 3 (ED needs 80..9F next).
 * - `java` — Java's UTF-8 decoder (new String(bytes, UTF_8), CharsetDecoder with
 *   REPLACE; checked on OpenJDK 17): as above, except after ED followed by A0..BF (a
 *   UTF-16 surrogate encoded in UTF-8, as CESU-8 and Java's modified UTF-8 write
 *   characters beyond U+FFFF), which it replaces as one: ED A0 80 → 1, ED A0 then "b" → 1.
 * - `per-byte` — one replacement per byte of each ill-formed subpart, as Go's
 *   utf8.DecodeRune (a range loop over a string, []rune) reads them: E2 82 then "b" → 2.
 *   It differs from `maximal-subpart` only on truncated sequences (a lead byte with some
 *   of its continuation bytes).
 *
 * Not covered: one replacement per run of adjacent ill-formed bytes (Go's
 * strings.ToValidUTF8), and converters that drop the bytes (iconv //IGNORE).
 * @module
 */
import { utf8SequenceLength } from '../scheme/utf8.js';

/** How a converter cuts the ill-formed bytes into parts, each replaced once. */
export type ReplacementForm = 'maximal-subpart' | 'java' | 'per-byte';

/** Every form, the Unicode recommendation first. */
export const REPLACEMENT_FORMS: readonly ReplacementForm[] = ['maximal-subpart', 'java', 'per-byte'];

/**
 * The bytes with every ill-formed part replaced, as a text conversion writes them back.
 * @param bytes - any bytes
 * @param replacement - the replacement's bytes (EF BF BD for U+FFFD, 3F for "?")
 * @param form - how ill-formed bytes are cut into parts (default `maximal-subpart`)
 * @returns new bytes; valid sequences (a BOM included) are kept as they are
 * @example
 * replaceIllFormed(
 *   Uint8Array.of(0x61, 0xe2, 0x82, 0x62),
 *   Uint8Array.of(0x3f),
 * ) // Uint8Array.of(0x61, 0x3f, 0x62) — "a?b"
 */
export function replaceIllFormed(
  bytes: Uint8Array,
  replacement: Uint8Array,
  form: ReplacementForm = 'maximal-subpart',
): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < bytes.byteLength;) {
    const valid = utf8SequenceLength(bytes, i);
    if (valid > 0) {
      for (let k = 0; k < valid; k++) out.push(bytes[i + k] ?? 0);
      i += valid;
      continue;
    }
    const size = illFormedLength(bytes, i, form);
    const times = form === 'per-byte' ? size : 1;
    for (let t = 0; t < times; t++) out.push(...replacement);
    i += size;
  }
  return Uint8Array.from(out);
}

/**
 * The length of the ill-formed part starting at a position where no well-formed
 * sequence starts.
 * @param b - the bytes
 * @param i - the position (`utf8SequenceLength(b, i) === 0`)
 * @param form - how the converter cuts ill-formed bytes
 * @returns 1 to 3
 * @example illFormedLength(Uint8Array.of(0xe2, 0x82, 0x62), 0, 'maximal-subpart') // 2
 */
export function illFormedLength(b: Uint8Array, i: number, form: ReplacementForm): number {
  const b0 = b[i] ?? 0;
  const inRange = (k: number, lo: number, hi: number): boolean => {
    const x = b[i + k];
    return x !== undefined && x >= lo && x <= hi;
  };
  if (form === 'java' && b0 === 0xed && inRange(1, 0xa0, 0xbf)) return inRange(2, 0x80, 0xbf) ? 3 : 2;
  const lead = LEADS.find(([lo, hi]) => b0 >= lo && b0 <= hi);
  if (!lead) return 1; // 80..BF, C0, C1, F5..FF never start a sequence
  const [, , size, secondLo, secondHi] = lead;
  if (!inRange(1, secondLo, secondHi)) return 1;
  let n = 2;
  while (n < size - 1 && inRange(n, 0x80, 0xbf)) n++;
  return n;
}

// --- internal ---

/** Unicode table 3-7: lead byte range, sequence size, range of the second byte (the rest 80..BF). */
const LEADS: ReadonlyArray<readonly [number, number, number, number, number]> = [
  [0xc2, 0xdf, 2, 0x80, 0xbf],
  [0xe0, 0xe0, 3, 0xa0, 0xbf],
  [0xe1, 0xec, 3, 0x80, 0xbf],
  [0xed, 0xed, 3, 0x80, 0x9f],
  [0xee, 0xef, 3, 0x80, 0xbf],
  [0xf0, 0xf0, 4, 0x90, 0xbf],
  [0xf1, 0xf3, 4, 0x80, 0xbf],
  [0xf4, 0xf4, 4, 0x80, 0x8f],
];
