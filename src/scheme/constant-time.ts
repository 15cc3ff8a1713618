import { timingSafeEqual } from 'node:crypto';

/**
 * Compares a computed sign with a received one in constant time (for equal lengths).
 *
 * The computed sign is 64 lower-case hex digits (§5.2). A received sign of another
 * length is unequal at once: its length is not secret.
 *
 * @param computed - the sign the verifier computed
 * @param received - the sign read from the Authorization header
 * @returns whether both are the same string
 * @example signEquals('ab', 'ab') // true
 */
export function signEquals(computed: string, received: string): boolean {
  const a = Buffer.from(computed, 'utf8');
  const b = Buffer.from(received, 'utf8');
  return a.byteLength === b.byteLength && timingSafeEqual(a, b);
}
