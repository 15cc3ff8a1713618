/**
 * Inputs that reach real bugs, for the properties (spec §5.1–§5.3; readings R1–R8): bodies
 * from empty to 64 KiB weighted towards buffer boundaries (1, 4, 8, 16, 64 KiB, ±1) and
 * towards bodies ending in LF, CRLF or white space; every byte value, bytes that are not
 * UTF-8 included; JSON with unicode escapes, deep nesting and duplicate keys; URLs with
 * queries, percent-encoding in both cases, ports and trailing slashes; non-ASCII appIds and
 * nonces (header-safe: R8 carries them verbatim).
 * @module
 */
import fc from 'fast-check';
import type { ByteParts } from '../diagnosis/mistakes.js';
import { ALNUM, DIGITS, LOWER, appIdArb, nonceArb, over, timestampArb } from '../fuzz/arbitraries.js';

/** The seven parts of §5.1, the body as bytes (R3). */
export type PropertyParts = ByteParts;

/** Body sizes at and around the buffer boundaries real readers and hashers use. */
export const BOUNDARY_SIZES: readonly number[] = [1, 4, 8, 16, 64].flatMap((k) => [
  k * 1024 - 1,
  k * 1024,
  k * 1024 + 1,
]);

/** The largest body drawn: 64 KiB + 1. */
export const MAX_BODY = 64 * 1024 + 1;

const utf8 = new TextEncoder();

/** Bytes of a given length, filled from a short pattern (the bytes that matter are at the end). */
function filled(length: number, pattern: Uint8Array): Uint8Array {
  const out = new Uint8Array(length);
  // Buffer#fill repeats the pattern natively (a byte loop costs a millisecond per 64 KiB body)
  Buffer.from(out.buffer, out.byteOffset, out.byteLength).fill(pattern.byteLength > 0 ? pattern : utf8.encode('a'));
  return out;
}

/** How a body ends: the bytes most signers and verifiers get wrong. */
const endingArb = fc
  .constantFrom('', '', '\n', '\r\n', '\n\n', ' ', '\t', ' \n', '\u00a0', '}')
  .map((e) => utf8.encode(e));

/** The text a large body repeats: JSON-ish, non-ASCII, or bytes that are not UTF-8. */
const fillArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.constantFrom('{"k":"v","n":1}', 'é中😀', 'a', '\\u00e9\\n', ' \n').map((t) => utf8.encode(t)),
  fc.uint8Array({ minLength: 1, maxLength: 8 }),
  fc.constant(Uint8Array.of(0xff, 0xfe, 0xc3)),
);

/** A body of a boundary size (or near one), its last bytes an ending that matters. */
const boundaryBodyArb: fc.Arbitrary<Uint8Array> = fc
  .tuple(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...BOUNDARY_SIZES) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: MAX_BODY }) },
    ),
    fillArb,
    endingArb,
  )
  .map(([size, fill, end]) => {
    const body = filled(Math.max(size, end.byteLength), fill);
    body.set(end, body.byteLength - end.byteLength);
    return body;
  });

/** JSON bodies with unicode escapes, deep nesting and duplicate keys, as sent (never re-serialized). */
const jsonBodyArb: fc.Arbitrary<Uint8Array> = fc
  .oneof(
    fc.json({ maxDepth: 3 }),
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v, null, 2)),
    fc.integer({ min: 20, max: 200 }).map((d) => `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`),
    fc
      .tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }))
      .map(([a, b]) => `{"amount":${JSON.stringify(a)},"amount":${JSON.stringify(b)}}`),
    fc
      .string({ unit: 'grapheme', maxLength: 12 })
      .map(
        (s) =>
          `{"text":"${[...s]
            .map((c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0').slice(-4)}`)
            .join('')}"}`,
      ),
  )
  .chain((json) => endingArb.map((end) => utf8.encode(`${json}${new TextDecoder().decode(end)}`)));

/** Bodies: empty to 64 KiB + 1, any byte value, weighted as the module says. */
export const propertyBodyArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 4, arbitrary: boundaryBodyArb },
  { weight: 3, arbitrary: jsonBodyArb },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 64 }) },
  { weight: 1, arbitrary: fc.constant(new Uint8Array()) },
);

const pathSegmentArb = fc.oneof(
  over(`${LOWER}${DIGITS}-_.`, 1, 10),
  fc.constantFrom('pg', 'v2', 'payment', 'create', '%E4%B8%AD', '%2f', '%2F', 'a%20b', '~u'),
);
const queryArb = fc.array(
  fc.tuple(
    over(`${ALNUM}_`, 1, 8),
    fc.oneof(over(`${ALNUM}-_.+=`, 0, 10), fc.constantFrom('a%2Cb', 'x+y', '%e4%b8%ad', '%E4%B8%AD')),
  ),
  { minLength: 1, maxLength: 3 },
);

/** Full URLs as sent (R4): ports default or not, percent-encoding of both cases, trailing slash, query. */
export const propertyUrlArb: fc.Arbitrary<string> = fc
  .record({
    scheme: fc.constantFrom('https', 'http'),
    host: fc.constantFrom('pg.example.com', 'shop.example.net', '127.0.0.1'),
    port: fc.constantFrom('', '', ':443', ':8443'),
    path: fc.array(pathSegmentArb, { maxLength: 4 }),
    slash: fc.boolean(),
    query: fc.option(queryArb, { nil: undefined }),
  })
  .map(({ scheme, host, port, path, slash, query }) => {
    const trailing = slash && path.length > 0 ? '/' : '';
    const search = query ? `?${query.map(([k, v]) => `${k}=${v}`).join('&')}` : '';
    return `${scheme}://${host}${port}/${path.join('/')}${trailing}${search}`;
  });

/** Realistic parts, every value one an Authorization header carries verbatim (R8). */
export const propertyPartsArb: fc.Arbitrary<PropertyParts> = fc.record({
  appId: appIdArb,
  appSecret: fc.oneof(
    over(ALNUM, 24, 24).map((s) => `sk_test_${s}`),
    over(ALNUM, 16, 40),
  ),
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
  url: propertyUrlArb,
  timestamp: timestampArb,
  nonce: nonceArb,
  body: propertyBodyArb,
});

/**
 * Any text in a part — LFs and CRs inside, any Unicode, empty — for what holds of the content and sign whatever the
 * parts.
 */
const wildTextArb: fc.Arbitrary<string> = fc.oneof(
  // any code point but the surrogates (fc's 'binary' unit is the same, but costs a second to build at load)
  fc.string({
    unit: fc
      .integer({ min: 0, max: 0x10ffff - 0x800 })
      .map((cp) => String.fromCodePoint(cp < 0xd800 ? cp : cp + 0x800)),
    maxLength: 24,
  }),
  fc.string({ unit: fc.constantFrom('\n', '\r', 'x', 'é', '=', ' '), maxLength: 6 }),
);

/** Parts of every kind: realistic three times in four, else any text in every part (R3: no part is ever normalised). */
export const anyPartsArb: fc.Arbitrary<PropertyParts> = fc.oneof(
  { weight: 3, arbitrary: propertyPartsArb },
  {
    weight: 1,
    arbitrary: fc.record({
      appId: wildTextArb,
      appSecret: wildTextArb,
      method: wildTextArb,
      url: wildTextArb,
      timestamp: wildTextArb,
      nonce: wildTextArb,
      body: propertyBodyArb,
    }),
  },
);

/** One part changed after signing by one byte or character (body, url, method, timestamp, nonce, appId). */
export interface Change {
  readonly part: 'body' | 'url' | 'method' | 'timestamp' | 'nonce' | 'appId';
  /** Where (modulo the part's length). */
  readonly at: number;
  /** By how much (a byte XOR, or a step through an alphabet). */
  readonly delta: number;
}

/** One part changed by one byte, the body most often (it is where sizes and buffers matter). */
export const changeArb: fc.Arbitrary<Change> = fc.record({
  part: fc.constantFrom('body', 'body', 'body', 'url', 'method', 'timestamp', 'nonce', 'appId' as const),
  at: fc.nat(),
  delta: fc.integer({ min: 1, max: 255 }),
});
