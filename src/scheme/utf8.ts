/**
 * UTF-8 well-formedness (Unicode table 3-7), byte by byte.
 * @module
 */

/**
 * Whether bytes are well-formed UTF-8 (Unicode table 3-7: no overlong forms, no
 * surrogates, nothing above U+10FFFF).
 * @param bytes - any bytes
 * @returns true when every byte is part of a valid sequence
 * @example isValidUtf8(Uint8Array.of(0xc3, 0xa9)) // true
 */
export function isValidUtf8(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.byteLength;) {
    const size = utf8SequenceLength(bytes, i);
    if (size === 0) return false;
    i += size;
  }
  return true;
}

/**
 * The length of the valid UTF-8 sequence starting at a position.
 * @param b - the bytes
 * @param i - the position
 * @returns 1 to 4, or 0 when the byte there does not start a valid sequence
 * @example utf8SequenceLength(Uint8Array.of(0xc3, 0xa9), 0) // 2
 */
export function utf8SequenceLength(b: Uint8Array, i: number): number {
  const b0 = b[i] ?? 0;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => {
    const x = b[i + k];
    return x !== undefined && x >= lo && x <= hi;
  };
  if (b0 < 0x80) return 1;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((b0 >= 0xe1 && b0 <= 0xec) || b0 === 0xee || b0 === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b0 === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (b0 === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b0 >= 0xf1 && b0 <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b0 === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}
