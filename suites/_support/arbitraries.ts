/**
 * fast-check arbitraries for V2_SHA256 values: Authorization item values (§5.3, R8),
 * the seven signature parts (§5.1, R1–R6), and small edits used to tamper with them.
 * Shared by the property suites (suites/properties) and the fuzz suites.
 *
 * Two families:
 * - header-safe values (appId, sign, timestamp, nonce): realistic, never empty, never
 *   containing ",", white space or control characters — so any R8 parser must give
 *   them back verbatim, whatever the item order;
 * - signature parts: realistic and wild (any Unicode, LFs inside parts, binary bodies),
 *   for the content and sign properties, which hold for any text.
 */
import fc from 'fast-check';

// --- Authorization item values (§5.3, R8): one copy, in src/fuzz ---

export {
  ALL_ITEM_ORDERS,
  ITEM_NAMES,
  appIdArb,
  headerValueArb,
  isHeaderSafe,
  itemOrderArb,
  itemValueArbs,
  itemsArb,
  nonceArb,
  signArb,
  timestampArb,
  type ItemName,
  type Items,
} from '../../src/fuzz/arbitraries.js';
import { ALNUM, DIGITS, LOWER, appIdArb, nonceArb, over, timestampArb } from '../../src/fuzz/arbitraries.js';

// --- signature parts (§5.1) ---

/** The seven parts, the body as bytes (R3). */
export interface Parts {
  appId: string;
  appSecret: string;
  method: string;
  url: string;
  timestamp: string;
  nonce: string;
  body: Uint8Array;
}

/** The seven part names in §5.1 order. */
export const PART_NAMES = ['appId', 'appSecret', 'method', 'url', 'timestamp', 'nonce', 'body'] as const;

/** One of {@link PART_NAMES}. */
export type PartName = (typeof PART_NAMES)[number];

/** Realistic application secrets. */
export const appSecretArb: fc.Arbitrary<string> = fc.oneof(
  over(ALNUM, 24, 24).map((s) => `sk_test_${s}`),
  over(ALNUM, 16, 40),
  fc.base64String({ minLength: 8, maxLength: 44 }),
);

/** HTTP methods as sent (R5). */
export const methodArb: fc.Arbitrary<string> = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE');

const pathSegmentArb = fc.oneof(
  over(`${LOWER}${DIGITS}-_.`, 1, 12),
  fc.constantFrom('pg', 'v2', 'file', 'generateUploadUrl', 'payment', 'notify', '%E4%B8%AD', '%2f', '%2F', 'a%20b', '~user'),
);
const queryArb = fc.array(fc.tuple(over(`${ALNUM}_`, 1, 8), fc.oneof(over(`${ALNUM}-_.%+=`, 0, 12), fc.constantFrom('a%2Cb', 'x+y', '%e4%b8%ad'))), {
  minLength: 1,
  maxLength: 3,
});

/**
 * Full URLs as sent (R4): https/http, gateway or merchant host, optional port (default
 * or not), percent-encodings of either case, optional trailing slash and query.
 * @param hosts - the hosts to draw from
 * @returns the arbitrary
 */
function urlArb(hosts: readonly string[]): fc.Arbitrary<string> {
  return fc
    .record({
      scheme: fc.constantFrom('https', 'http'),
      host: fc.constantFrom(...hosts),
      port: fc.option(fc.constantFrom(':443', ':80', ':8443', ':8080'), { nil: '' }),
      path: fc.array(pathSegmentArb, { minLength: 0, maxLength: 4 }),
      slash: fc.boolean(),
      query: fc.option(queryArb, { nil: undefined }),
    })
    .map(({ scheme, host, port, path, slash, query }) => {
      const p = `/${path.join('/')}${slash && path.length > 0 ? '/' : ''}`;
      const q = query ? `?${query.map(([k, v]) => `${k}=${v}`).join('&')}` : '';
      return `${scheme}://${host}${port}${p}${q}`;
    });
}

/** URLs of gateway requests. */
export const gatewayUrlArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: urlArb(['pg.example.com', 'pg-sandbox.example.com', 'PG.Example.com']) },
  { weight: 1, arbitrary: fc.webUrl({ withQueryParameters: true }) },
);

/** notifyUrls (and return URLs) as merchants submit them. */
export const merchantUrlArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: urlArb(['shop.example.net', 'merchant.example.org', '127.0.0.1', '[::1]']) },
  { weight: 1, arbitrary: fc.webUrl({ withQueryParameters: true }) },
);

const utf8 = new TextEncoder();

/** JSON request bodies, compact or pretty (pretty ones end with or without an LF). */
const jsonBodyArb: fc.Arbitrary<string> = fc.oneof(
  fc.json({ maxDepth: 2 }),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v, null, 2)),
  fc.record({ filename: fc.string({ maxLength: 32 }), scene: fc.constantFrom('DISPUTE_EVIDENCE', 'OTHER') }).map((o) => JSON.stringify(o)),
);

/**
 * Request bodies as bytes: JSON text (with or without a trailing LF or CRLF, a BOM),
 * any Unicode text, LFs only, arbitrary binary, and the empty body.
 * @param minLength - least byte length (use 1 for a body one can change a byte of)
 * @returns the arbitrary
 */
export function bodyArb(minLength = 0): fc.Arbitrary<Uint8Array> {
  const text = fc.oneof(
    { weight: 4, arbitrary: jsonBodyArb },
    { weight: 2, arbitrary: fc.tuple(jsonBodyArb, fc.constantFrom('\n', '\r\n', '\n\n', ' \n')).map(([j, end]) => `${j}${end}`) },
    { weight: 1, arbitrary: jsonBodyArb.map((j) => `\uFEFF${j}`) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('\n', '\r', 'a', ' '), maxLength: 6 }) },
    { weight: 1, arbitrary: fc.constant('') },
  );
  return fc
    .oneof({ weight: 4, arbitrary: text.map((t) => utf8.encode(t)) }, { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) })
    .filter((b) => b.byteLength >= minLength);
}

/**
 * Realistic parts: every part is what a real request carries; appId, timestamp and nonce
 * are header-safe, so the parts can be carried in an Authorization header.
 * @param options - `minBodyLength` (default 0), `url` (default gateway URLs)
 * @returns the arbitrary
 */
export function partsArb(options: { minBodyLength?: number; url?: fc.Arbitrary<string> } = {}): fc.Arbitrary<Parts> {
  return fc.record({
    appId: appIdArb,
    appSecret: appSecretArb,
    method: methodArb,
    url: options.url ?? gatewayUrlArb,
    timestamp: timestampArb,
    nonce: nonceArb,
    body: bodyArb(options.minBodyLength ?? 0),
  });
}

/** Any text at all for a part: realistic, any Unicode code points, or text with LFs/CRs inside. */
function wildText(realistic: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: realistic },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('\n', '\r', 'x', 'é', '=', ' '), maxLength: 6 }) },
  );
}

/**
 * Wild parts, for properties of content and sign that hold for any text: every part
 * may be empty, hold any Unicode, LFs and CRs.
 */
export const wildPartsArb: fc.Arbitrary<Parts> = fc.record({
  appId: wildText(appIdArb),
  appSecret: wildText(appSecretArb),
  method: wildText(methodArb),
  url: wildText(gatewayUrlArb),
  timestamp: wildText(timestampArb),
  nonce: wildText(nonceArb),
  body: bodyArb(),
});

// --- edits ---

/**
 * Header-safe replacement characters for a one-character change: ASCII letters,
 * digits and URL symbols, and non-ASCII ones (never white space, never ",").
 */
export const replacementCharArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...`${ALNUM}-_.=~:/+%?&#`) },
  { weight: 1, arbitrary: fc.constantFrom('é', 'ß', 'Ω', '中', '😀', 'Ａ', '０') },
);

/**
 * What replaces one character: a given character, or an edit of the character found
 * there — its other case (`flip-case`), or its full-width look-alike (`look-alike`,
 * U+FF01–U+FF5E for ASCII "!"–"~"). The edits find verifiers that case-fold or apply
 * Unicode normalisation (NFKC) to a part, which R3–R6 forbid.
 */
export type Replacement = { readonly char: string } | { readonly edit: 'flip-case' | 'look-alike' };

/** A {@link Replacement}: mostly a character of {@link replacementCharArb}, sometimes an edit. */
export const replacementArb: fc.Arbitrary<Replacement> = fc.oneof(
  { weight: 3, arbitrary: replacementCharArb.map((char) => ({ char })) },
  { weight: 2, arbitrary: fc.constantFrom<Replacement>({ edit: 'flip-case' }, { edit: 'look-alike' }) },
);

/**
 * Replaces the code point at an index (taken modulo the length) with another.
 * @param text - a non-empty string
 * @param at - any natural number: the index is `at % length`
 * @param replacement - the new character, or an edit of the old one; when that gives
 *   the old character back (or the edit does not apply), "x" or "y" is used instead
 * @returns text differing from `text` in exactly one code point
 * @throws {RangeError} when text is empty
 * @example changeCharAt('abc', 4, { char: 'x' }) // 'axc'
 * @example changeCharAt('abc', 0, { edit: 'flip-case' }) // 'Abc'
 */
export function changeCharAt(text: string, at: number, replacement: Replacement | string): string {
  const chars = [...text];
  if (chars.length === 0) throw new RangeError('changeCharAt needs a non-empty string');
  const i = at % chars.length;
  const old = chars[i] ?? '';
  const r = typeof replacement === 'string' ? { char: replacement } : replacement;
  let next = 'char' in r ? r.char : r.edit === 'flip-case' ? flipCase(old) : lookAlike(old);
  if (next === old || [...next].length !== 1) next = old === 'x' ? 'y' : 'x';
  chars[i] = next;
  return chars.join('');
}

/**
 * Changes the byte at an index (taken modulo the length) to another value.
 * @param bytes - non-empty bytes
 * @param at - any natural number: the index is `at % length`
 * @param delta - 1–255, added modulo 256
 * @returns a copy differing in exactly one byte
 * @throws {RangeError} when bytes is empty or delta is not 1–255
 * @example changeByteAt(Uint8Array.of(1, 2), 1, 1) // [1, 3]
 */
export function changeByteAt(bytes: Uint8Array, at: number, delta: number): Uint8Array {
  if (bytes.byteLength === 0) throw new RangeError('changeByteAt needs non-empty bytes');
  if (!Number.isInteger(delta) || delta < 1 || delta > 255) throw new RangeError('delta must be 1–255');
  const out = Uint8Array.from(bytes);
  const i = at % out.byteLength;
  out[i] = ((out[i] ?? 0) + delta) & 0xff;
  return out;
}

/**
 * A byte delta for {@link changeByteAt}: any, biased to ±0x20 (the other case of an
 * ASCII letter) and 0x80 (the high bit, which Node's 'ascii' decoding drops).
 */
export const byteDeltaArb: fc.Arbitrary<number> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 255 }) },
  { weight: 2, arbitrary: fc.constantFrom(0x20, 0xe0, 0x80) },
);

// --- internal ---

function flipCase(c: string): string {
  const upper = c.toUpperCase();
  return upper !== c ? upper : c.toLowerCase();
}

function lookAlike(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  return code >= 0x21 && code <= 0x7e ? String.fromCodePoint(code + 0xfee0) : c;
}
