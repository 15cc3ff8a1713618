/**
 * Seeded, deterministic payloads for certification: the payment fields of spec §2.5,
 * fields nobody has seen before (R15), non-ASCII text, and JSON text written compactly
 * or in a non-canonical way (the merchant must verify over the bytes, §5.5).
 * @module
 */
import { seededRandom } from '../../../seeded.js';

/** A small deterministic PRNG (mulberry32): same seed, same sequence. */
export interface Rng {
  /** The next number in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T;
  /** A string of `length` characters of the alphabet. */
  word(length: number, alphabet?: string): string;
}

/**
 * Creates the PRNG of a seed.
 * @param seed - any integer (taken modulo 2^32)
 * @returns the generator
 * @example createRng(1).int(10) // always the same number
 */
export function createRng(seed: number): Rng {
  const next = seededRandom(seed);
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(list: readonly T[]): T => list[int(list.length)] as T,
    word: (length, alphabet = ALNUM) => Array.from({ length }, () => alphabet[int(alphabet.length)]).join(''),
  };
}

/** The payment object of spec §2.5 (string fields). */
export interface Payment {
  readonly amount: string;
  readonly createdTime: string;
  readonly currency: string;
  readonly merchantAttach: string;
  readonly merchantTradeNo: string;
  readonly paymentNo: string;
  readonly refundStatus: string;
  readonly status: string;
}

/**
 * A payment of spec §2.5 from the PRNG.
 * @param rng - the generator
 * @param attach - the merchantAttach text (default: a plain word)
 * @returns the payment
 * @example makePayment(createRng(7)).status // 'SUCCESS'
 */
export function makePayment(rng: Rng, attach?: string): Payment {
  const cents = 100 + rng.int(999_900);
  const created = Date.UTC(2026, rng.int(12), 1 + rng.int(28), rng.int(24), rng.int(60), rng.int(60));
  const offset = rng.pick(['+00:00', '+08:00', '-05:00', '+05:30']);
  return {
    amount: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
    createdTime: `${new Date(created).toISOString().slice(0, 19)}${offset}`,
    currency: rng.pick(['USD', 'EUR', 'CNY', 'JPY', 'BRL']),
    merchantAttach: attach ?? `attach-${rng.word(6)}`,
    merchantTradeNo: `MT${rng.word(14, DIGITS)}`,
    paymentNo: `P${rng.word(18, DIGITS)}`,
    refundStatus: 'NONE',
    status: 'SUCCESS',
  };
}

/**
 * A webhook payload: the payment fields plus, optionally, fields nobody has seen before (R15).
 * @param rng - the generator
 * @param options - `unknown`: add unknown fields (nested, null, arrays); `attach`: merchantAttach text
 * @returns the payload object
 * @example webhookPayload(createRng(1), { unknown: true }).eventId
 */
export function webhookPayload(
  rng: Rng,
  options: { readonly unknown?: boolean; readonly attach?: string } = {},
): Record<string, unknown> {
  const payment = makePayment(rng, options.attach);
  if (!options.unknown) return { ...payment };
  return {
    eventId: `evt_${rng.word(16)}`,
    ...payment,
    [`x${rng.word(5)}Future`]: { level: rng.int(9), tags: ['a', 'b'], note: null },
    settlement: { batch: rng.word(8, DIGITS), fee: '0.00', empty: '' },
    riskScore: rng.int(100),
    flags: [],
  };
}

/** Non-ASCII texts used in payloads: Latin, CJK, RTL, emoji (astral), combining marks. */
export const NON_ASCII_TEXTS = [
  'Zoë Ångström', // Latin
  '東京の店舗 №7', // CJK
  'مرحبا', // RTL
  'café 😀 ß', // emoji (astral)
  'e\u0301 decomposed', // combining marks
] as const;

/** Texts that need query encoding in a redirect's payment value. */
export const QUERY_HOSTILE_TEXTS = [
  'a+b',
  'x&y=z',
  '100% sure',
  'two  spaces',
  'plus+and&amp=%25',
  'Zoë 東京 😀',
] as const;

/**
 * Compact JSON text, as JSON.stringify writes it.
 * @param value - a JSON value
 * @returns the text
 * @example compactJson({ a: 1 }) // '{"a":1}'
 */
export function compactJson(value: unknown): string {
  return JSON.stringify(value);
}

/**
 * Non-canonical JSON text of the same value: keys in reverse order, irregular white
 * space, non-ASCII characters and "/" written as escapes, and a final LF (R1). Parsing it and
 * serializing again gives different bytes, so a merchant that verifies over
 * re-serialized data fails.
 * @param value - a JSON object
 * @returns the text
 * @example nonCanonicalJson({ a: 'é' }) // '{\n\t"a" :"\\u00e9"\n}\n'
 */
export function nonCanonicalJson(value: Record<string, unknown>): string {
  const write = (v: unknown, depth: number): string => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const keys = Object.keys(v).reverse();
      const pad = '\n' + '\t'.repeat(depth + 1);
      const members = keys.map((k) => `${pad}${escapeAll(k)} :${write((v as Record<string, unknown>)[k], depth + 1)}`);
      return `{${members.join(' ,')}\n${'\t'.repeat(depth)}}`;
    }
    if (Array.isArray(v)) return `[ ${v.map((x) => write(x, depth + 1)).join(' , ')} ]`;
    if (typeof v === 'string') return escapeAll(v);
    return JSON.stringify(v);
  };
  return `${write(value, 0)}\n`;
}

// --- internal ---

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const DIGITS = '0123456789';

/** A JSON string with every non-ASCII code unit and "/" as a \u escape. */
function escapeAll(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff/]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
