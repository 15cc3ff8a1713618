/**
 * fast-check arbitraries for Authorization header values (spec §5.3, reading R8):
 * realistic header-safe item values in every order, and mutated headers (items dropped,
 * duplicated, emptied; commas and "=" injected; white space, control characters,
 * non-ASCII; very long values; other schemes; case changes) for `pgv2kit fuzz`.
 * The properties (src/properties) draw their header-safe values from here.
 * @module
 */
import fc from 'fast-check';

// --- Authorization item values (§5.3, R8) ---

/** The four item names of §5.3, in the spec's order. */
export const ITEM_NAMES = ['appId', 'sign', 'timestamp', 'nonce'] as const;

/** One of {@link ITEM_NAMES}. */
export type ItemName = (typeof ITEM_NAMES)[number];

/** The four values an Authorization header carries. */
export type Items = Record<ItemName, string>;

/** All 24 orders of the four items. */
export const ALL_ITEM_ORDERS: readonly (readonly ItemName[])[] = permutations(ITEM_NAMES);

/**
 * Whether a value can be carried by an Authorization item and come back verbatim under
 * R8 in every reading: non-empty, no ",", no white space, no control character.
 * @param value - a candidate item value
 * @returns true when safe
 * @example isHeaderSafe('a=b') // true
 */
export function isHeaderSafe(value: string): boolean {
  return /^[^\s,\p{Cc}]+$/u.test(value);
}

export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const DIGITS = '0123456789';
export const ALNUM = `${LOWER}${LOWER.toUpperCase()}${DIGITS}`;
export const HEX = '0123456789abcdef';

/**
 * Strings over an alphabet.
 * @param alphabet - the characters (code points)
 * @param minLength - least length
 * @param maxLength - greatest length
 * @returns the arbitrary
 */
export function over(alphabet: string, minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...[...alphabet]), minLength, maxLength });
}

/** Non-ASCII, header-safe text (letters, CJK, emoji, combining marks): graphemes, no white space. */
const nonAsciiArb: fc.Arbitrary<string> = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 8 })
  .filter((s) => isHeaderSafe(s) && /[^\x00-\x7f]/.test(s));

/** 64 lower-case hex digits: a sign as §5.2 writes it. */
export const signArb: fc.Arbitrary<string> = over(HEX, 64, 64);

/** A 13-digit millisecond timestamp, as a string. */
export const timestampArb: fc.Arbitrary<string> = fc
  .integer({ min: 1_000_000_000_000, max: 9_999_999_999_999 })
  .map(String);

/** Non-ASCII beginnings of application ids. */
const NON_ASCII_APP_PREFIXES = ['商户', 'mérchant', 'app_ü', 'магазин'];

/** Realistic application ids: `app_7f3a9c`, alphanumerics with "-"/"_", uuids, base64 with "=", non-ASCII. */
export const appIdArb: fc.Arbitrary<string> = fc.oneof(
  over(HEX, 6, 12).map((h) => `app_${h}`),
  over(`${ALNUM}-_`, 1, 24).filter(isHeaderSafe),
  fc.uuid(),
  fc.base64String({ minLength: 4, maxLength: 24 }).map((b) => `app_${b}`),
  fc.tuple(fc.constantFrom(...NON_ASCII_APP_PREFIXES), over(ALNUM, 0, 6)).map(([a, b]) => `${a}${b}`),
  nonAsciiArb,
);

/** Realistic nonces: hex, base64 (with "=" padding, "+", "/"), uuids, "-"/"_", "=" inside, non-ASCII. */
export const nonceArb: fc.Arbitrary<string> = fc.oneof(
  over(HEX, 8, 32),
  fc.base64String({ minLength: 4, maxLength: 32 }),
  fc.uuid(),
  over(`${ALNUM}-_`, 1, 32).filter(isHeaderSafe),
  fc.tuple(over(ALNUM, 1, 8), over(`${ALNUM}=`, 0, 8)).map(([a, b]) => `${a}=${b}`),
  fc.tuple(over(ALNUM, 0, 6), nonAsciiArb).map(([a, b]) => `${a}${b}`),
);

/** Any header-safe value (for items whose value the test does not care about). */
export const headerValueArb: fc.Arbitrary<string> = fc.oneof(
  over(`${ALNUM}-_.=~:/+%`, 1, 32).filter(isHeaderSafe),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }).filter(isHeaderSafe),
);

/** The value arbitrary of each item. */
export const itemValueArbs: Readonly<Record<ItemName, fc.Arbitrary<string>>> = {
  appId: appIdArb,
  sign: signArb,
  timestamp: timestampArb,
  nonce: nonceArb,
};

/** The four item values of an Authorization header. */
export const itemsArb: fc.Arbitrary<Items> = fc.record(itemValueArbs);

/** One of the 24 orders of the four items. */
export const itemOrderArb: fc.Arbitrary<readonly ItemName[]> = fc.constantFrom(...ALL_ITEM_ORDERS);

// --- mutated headers ---

/** One item of a header model: `lead name "=" value trail` (the "=" may be missing). */
export interface HeaderPiece {
  readonly lead: string;
  readonly name: string;
  readonly eq: boolean;
  readonly value: string;
  readonly trail: string;
}

/** A header as parts, so that mutations and shrinking act on items, not characters. */
export interface HeaderModel {
  readonly lead: string;
  readonly scheme: string;
  readonly gap: string;
  readonly pieces: readonly HeaderPiece[];
  readonly trail: string;
}

/**
 * Writes a header model as the header value.
 * @param m - the model
 * @returns `lead scheme gap piece,piece… trail`
 * @example renderHeader({ lead: '', scheme: 'V2_SHA256', gap: ' ', pieces: [], trail: '' }) // 'V2_SHA256 '
 */
export function renderHeader(m: HeaderModel): string {
  const pieces = m.pieces.map((p) => `${p.lead}${p.name}${p.eq ? '=' : ''}${p.value}${p.trail}`);
  return `${m.lead}${m.scheme}${m.gap}${pieces.join(',')}${m.trail}`;
}

/** A change to a header model; indexes are taken modulo the number of items. */
export type HeaderMutation =
  | { readonly kind: 'drop'; readonly at: number }
  | { readonly kind: 'duplicate'; readonly at: number; readonly to: number; readonly value: string | undefined }
  | { readonly kind: 'empty'; readonly at: number }
  | { readonly kind: 'inject'; readonly at: number; readonly pos: number; readonly text: string }
  | { readonly kind: 'pad'; readonly at: number; readonly lead: string; readonly trail: string }
  | { readonly kind: 'pad-header'; readonly lead: string; readonly gap: string; readonly trail: string }
  | { readonly kind: 'long'; readonly at: number; readonly length: number }
  | { readonly kind: 'scheme'; readonly scheme: string }
  | { readonly kind: 'name'; readonly at: number; readonly name: string }
  | { readonly kind: 'no-equals'; readonly at: number }
  | { readonly kind: 'extra'; readonly to: number; readonly name: string; readonly value: string }
  | { readonly kind: 'no-items' }
  | { readonly kind: 'blank' }
  | { readonly kind: 'trailing-comma' };

/** White space of every kind a header may meet: spaces, tabs, and other Unicode spaces. */
const wsArb = fc.constantFrom(' ', '\t', '  ', ' \t', '\u00a0', '\u3000', '\r\n ');
/** Text injected into a value: separators, white space, control characters, non-ASCII. */
const injectArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(',', '=', ',,', '==', ', ', '=,') },
  { weight: 2, arbitrary: fc.constantFrom(' ', '\t', '\u00a0') },
  { weight: 2, arbitrary: fc.constantFrom('\u0000', '\u0001', '\u001b', '\u007f', '\r', '\n', '\u0085') },
  { weight: 2, arbitrary: fc.constantFrom('é', '中', '😀', 'Ａ', '\u200b', '\ufeff', '\u0301') },
  { weight: 1, arbitrary: fc.constantFrom('"', "'", ';', '\\') },
);
const otherSchemeArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'v2_sha256',
      'V2_sha256',
      'v2_SHA256',
      'V2_SHA256,',
      'V2_SHA1',
      'V1_SHA256',
      'V2-SHA256',
      'V2_SHA256X',
      'Bearer',
      'Basic',
      'V2_SHA256\u0000',
      'Ｖ2_SHA256',
      '',
    ),
  },
  { weight: 1, arbitrary: over(`${ALNUM}_-`, 1, 12) },
);
/**
 * Item names as they are misspelt or recased: ASCII case, white space, snake case, and the non-ASCII letters some case
 * folds map to ASCII ones (ſ, ı, İ, the ligature ﬆ: R8 (e)).
 */
const nameVariantArb = fc.constantFrom(
  'appid',
  'APPID',
  'AppId',
  'Sign',
  'SIGN',
  'Timestamp',
  'NONCE',
  'nonce ',
  ' appId',
  'app_id',
  'appId\u0000',
  'ａppId',
  '\u017fign',
  'app\u0131d',
  'app\u0130d',
  'time\ufb06amp',
);
const extraNameArb = fc.oneof(
  fc.constantFrom('version', 'algo', 'x', 'keyId', 'signature', 'appID', 'Nonce'),
  over(LOWER, 1, 8),
);

const itemIndexArb = fc.nat({ max: 7 });

/**
 * Mutations whose inserted values (a duplicate's other value, an extra item's value) come from `value`.
 * Tuples, not records: a third of the cost, and fuzzing draws millions.
 * @param value - the values to insert
 * @returns the arbitrary
 */
function mutationArb(value: fc.Arbitrary<string>): fc.Arbitrary<HeaderMutation> {
  return fc.oneof(
    itemIndexArb.map((at): HeaderMutation => ({ kind: 'drop', at })),
    fc
      .tuple(itemIndexArb, itemIndexArb, fc.option(value, { nil: undefined }))
      .map(([at, to, value]): HeaderMutation => ({ kind: 'duplicate', at, to, value })),
    itemIndexArb.map((at): HeaderMutation => ({ kind: 'empty', at })),
    fc
      .tuple(itemIndexArb, fc.nat({ max: 80 }), injectArb)
      .map(([at, pos, text]): HeaderMutation => ({ kind: 'inject', at, pos, text })),
    fc
      .tuple(itemIndexArb, fc.oneof(fc.constant(''), wsArb), fc.oneof(fc.constant(''), wsArb))
      .map(([at, lead, trail]): HeaderMutation => ({ kind: 'pad', at, lead, trail })),
    fc
      .tuple(
        fc.oneof(fc.constant(''), wsArb),
        fc.oneof(fc.constant(' '), wsArb, fc.constant('')),
        fc.oneof(fc.constant(''), wsArb),
      )
      .map(([lead, gap, trail]): HeaderMutation => ({ kind: 'pad-header', lead, gap, trail })),
    fc
      .tuple(itemIndexArb, fc.integer({ min: 256, max: 8192 }))
      .map(([at, length]): HeaderMutation => ({ kind: 'long', at, length })),
    otherSchemeArb.map((scheme): HeaderMutation => ({ kind: 'scheme', scheme })),
    fc.tuple(itemIndexArb, nameVariantArb).map(([at, name]): HeaderMutation => ({ kind: 'name', at, name })),
    itemIndexArb.map((at): HeaderMutation => ({ kind: 'no-equals', at })),
    fc
      .tuple(itemIndexArb, extraNameArb, value)
      .map(([to, name, value]): HeaderMutation => ({ kind: 'extra', to, name, value })),
    fc.constant<HeaderMutation>({ kind: 'no-items' }),
    fc.constant<HeaderMutation>({ kind: 'blank' }),
    fc.constant<HeaderMutation>({ kind: 'trailing-comma' }),
  );
}

/** One {@link HeaderMutation}. */
export const headerMutationArb: fc.Arbitrary<HeaderMutation> = mutationArb(headerValueArb);

/**
 * Applies a mutation to a header model.
 * @param m - the model
 * @param mutation - the change
 * @returns the changed model (m when the mutation does not apply, e.g. on no items)
 * @example
 * applyMutation(
 *   {
 *     lead: '',
 *     scheme: 'V2_SHA256',
 *     gap: ' ',
 *     pieces: [{ lead: '', name: 'a', eq: true, value: '1', trail: '' }],
 *     trail: '',
 *   },
 *   { kind: 'drop', at: 0 },
 * ).pieces // []
 */
export function applyMutation(m: HeaderModel, mutation: HeaderMutation): HeaderModel {
  const pieces = [...m.pieces];
  const n = pieces.length;
  const at = (i: number): number => i % Math.max(n, 1);
  const edit = (i: number, change: (p: HeaderPiece) => HeaderPiece): HeaderModel => {
    const p = pieces[at(i)];
    if (p === undefined) return m;
    pieces[at(i)] = change(p);
    return { ...m, pieces };
  };
  switch (mutation.kind) {
    case 'drop':
      if (n === 0) return m;
      pieces.splice(at(mutation.at), 1);
      return { ...m, pieces };
    case 'duplicate': {
      const p = pieces[at(mutation.at)];
      if (p === undefined) return m;
      pieces.splice(mutation.to % (n + 1), 0, { ...p, value: mutation.value ?? p.value });
      return { ...m, pieces };
    }
    case 'empty':
      return edit(mutation.at, (p) => ({ ...p, value: '' }));
    case 'inject':
      return edit(mutation.at, (p) => {
        // at a code point boundary, counted without splitting the value (it may be 8,192 long)
        const pos = mutation.pos % (codePoints(p.value) + 1);
        const at = codePointOffset(p.value, pos);
        return { ...p, value: `${p.value.slice(0, at)}${mutation.text}${p.value.slice(at)}` };
      });
    case 'pad':
      return edit(mutation.at, (p) => ({ ...p, lead: mutation.lead, trail: mutation.trail }));
    case 'pad-header':
      return { ...m, lead: mutation.lead, gap: mutation.gap, trail: mutation.trail };
    case 'long':
      return edit(mutation.at, (p) => ({
        ...p,
        value:
          p.value === ''
            ? 'x'.repeat(mutation.length)
            : p.value.repeat(Math.ceil(mutation.length / p.value.length)).slice(0, mutation.length),
      }));
    case 'scheme':
      return { ...m, scheme: mutation.scheme };
    case 'name':
      return edit(mutation.at, (p) => ({ ...p, name: mutation.name }));
    case 'no-equals':
      return edit(mutation.at, (p) => ({ ...p, eq: false }));
    case 'extra':
      pieces.splice(mutation.to % (n + 1), 0, {
        lead: '',
        name: mutation.name,
        eq: true,
        value: mutation.value,
        trail: '',
      });
      return { ...m, pieces };
    case 'no-items':
      return { ...m, pieces: [] };
    case 'blank':
      return { ...m, scheme: '', gap: '', pieces: [], trail: '' };
    case 'trailing-comma':
      return { ...m, trail: `,${m.trail}` };
  }
}

/** What {@link fuzzHeaderArb} draws: the valid header it started from and the mutations applied. */
export interface FuzzHeader {
  readonly items: Items;
  readonly order: readonly ItemName[];
  readonly mutations: readonly HeaderMutation[];
}

/**
 * The model of a valid header: the four items in the given order, single space after the scheme.
 * @param items - the values
 * @param order - the item order
 * @returns the model
 */
export function validModel(items: Items, order: readonly ItemName[]): HeaderModel {
  return {
    lead: '',
    scheme: 'V2_SHA256',
    gap: ' ',
    pieces: order.map((name) => ({ lead: '', name, eq: true, value: items[name], trail: '' })),
    trail: '',
  };
}

/**
 * The header value of a drawn {@link FuzzHeader}.
 * @param h - what was drawn
 * @returns the header text
 */
export function fuzzHeaderText(h: FuzzHeader): string {
  if (h.mutations.length > 0) return renderHeader(h.mutations.reduce(applyMutation, validModel(h.items, h.order)));
  let text = 'V2_SHA256 ';
  for (let i = 0; i < h.order.length; i++) {
    const name = h.order[i] as ItemName;
    text += `${i > 0 ? ',' : ''}${name}=${h.items[name]}`;
  }
  return text;
}

/** Values per item in the pools {@link fuzzHeaderArb} draws item values from. */
export const FUZZ_POOL_SIZE = 512;

/**
 * Headers for fuzzing parsers: a valid header (every item order, realistic values) with zero
 * to three mutations. Shrinking removes mutations first, then simplifies values and order.
 *
 * Values come from pools: {@link FUZZ_POOL_SIZE} values per item (64 signs, 64 timestamps,
 * 256 inserted values), drawn once, with a fixed seed (every run and every replay sees the same
 * pools), from the full generators above — every shape they make (base64 with "=", uuids,
 * "-"/"_", non-ASCII …) is there — each pool led by a plain value that shrinking goes to. A
 * header then costs a fifth of generating its values, and a fuzzer judges hundreds of
 * thousands of headers; the variety that finds parser bugs is in the mutations. Built on
 * first use, not at import.
 */
export const fuzzHeaderArb: fc.Arbitrary<FuzzHeader> = lazy(() => {
  const pool = (first: string, arb: fc.Arbitrary<string>, size: number): string[] => [
    first,
    ...fc.sample(arb, { numRuns: size - 1, seed: POOL_SEED }),
  ];
  const appIds = pool('app_7f3a9c', appIdArb, FUZZ_POOL_SIZE);
  const signs = pool('0'.repeat(64), signArb, 64);
  const timestamps = pool('1700000000000', timestampArb, 64);
  const nonces = pool('n0nce', nonceArb, FUZZ_POOL_SIZE);
  const values = pool('v', headerValueArb, 256);
  const from = (values: readonly string[]): fc.Arbitrary<number> => fc.nat({ max: values.length - 1 });
  const pick = (values: readonly string[], i: number): string => values[i] ?? '';
  // one tuple of indexes, one map: each layer of arbitraries costs a little on every header
  return fc
    .tuple(
      from(appIds),
      from(signs),
      from(timestamps),
      from(nonces),
      fc.nat({ max: ALL_ITEM_ORDERS.length - 1 }),
      fc.array(mutationArb(from(values).map((i) => pick(values, i))), { maxLength: 3 }),
    )
    .map(([a, s, t, n, o, mutations]) => ({
      items: { appId: pick(appIds, a), sign: pick(signs, s), timestamp: pick(timestamps, t), nonce: pick(nonces, n) },
      order: ALL_ITEM_ORDERS[o] ?? ITEM_NAMES,
      mutations,
    }));
});

// --- internal ---

const POOL_SEED = 20_240_606;

/** Code points in a string. */
function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++, n++) if (isHighSurrogateAt(text, i)) i++;
  return n;
}

/** The UTF-16 offset of the code point at index `count`. */
function codePointOffset(text: string, count: number): number {
  let i = 0;
  for (let k = 0; k < count && i < text.length; k++) i += isHighSurrogateAt(text, i) ? 2 : 1;
  return i;
}

/** A high surrogate followed by a low one: one code point in two units. */
function isHighSurrogateAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) return false;
  const d = text.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

/** An arbitrary built on first use (the same arbitrary every time after). */
function lazy<T>(build: () => fc.Arbitrary<T>): fc.Arbitrary<T> {
  let built: fc.Arbitrary<T> | undefined;
  const arb = (): fc.Arbitrary<T> => (built ??= build());
  return new (class extends fc.Arbitrary<T> {
    generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
      return arb().generate(mrng, biasFactor);
    }
    canShrinkWithoutContext(value: unknown): value is T {
      return arb().canShrinkWithoutContext(value);
    }
    shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
      return arb().shrink(value, context);
    }
  })();
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}
