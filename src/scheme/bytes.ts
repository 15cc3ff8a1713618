/**
 * Byte helpers shared by the scheme: UTF-8 in and out, base64, concatenation.
 * @module
 */

const encoder = new TextEncoder();

/**
 * The UTF-8 bytes of a string, or the bytes themselves.
 * @param value - text or bytes
 * @returns the bytes (the same array when given bytes)
 * @example utf8('é') // Uint8Array.of(0xc3, 0xa9)
 */
export function utf8(value: string | Uint8Array): Uint8Array {
  return typeof value === 'string' ? encoder.encode(value) : value;
}

/**
 * Bytes from standard, padded base64 (the protocol's `…B64` fields).
 * @param b64 - base64 text
 * @returns the decoded bytes
 * @throws {TypeError} when the text is not canonical base64
 * @example fromBase64('aGk=') // utf8('hi')
 */
export function fromBase64(b64: string): Uint8Array {
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.toString('base64') !== b64) {
    throw new TypeError(`not canonical base64 (standard alphabet, padded): ${JSON.stringify(b64.slice(0, 40))}`);
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Standard, padded base64 of bytes.
 * @param bytes - the bytes
 * @returns base64 text
 * @example toBase64(utf8('hi')) // 'aGk='
 */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/**
 * Concatenates byte arrays.
 * @param chunks - the arrays, in order
 * @returns one new array
 * @example concatBytes([utf8('a'), utf8('b')]) // utf8('ab')
 */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Byte-for-byte equality (not constant time: for content, never for secrets or signs).
 * @param a - first
 * @param b - second
 * @returns whether both hold the same bytes
 * @example bytesEqual(utf8('a'), utf8('a')) // true
 */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** 0, 1, …, 255: the pattern {@link countingBytes} repeats. */
const COUNTING = Uint8Array.from({ length: 256 }, (_, i) => i);

/**
 * A file of a given size whose byte i is i mod 256 (the kit's test files: every byte value, in an order a
 * truncation or a shift changes), filled a block at a time, not a byte at a time (2 MiB in about a
 * millisecond, not a hundred).
 * @param size - its length in bytes
 * @returns the bytes
 * @example countingBytes(258) // Uint8Array.from({ length: 258 }, (_, i) => i % 256)
 * @example countingBytes(0).length // 0
 */
export function countingBytes(size: number): Uint8Array {
  const out = new Uint8Array(size);
  if (size > 0) Buffer.from(out.buffer, out.byteOffset, out.byteLength).fill(COUNTING);
  return out;
}
