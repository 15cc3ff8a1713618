/**
 * The Authorization header of V2_SHA256 (spec §5.3), read with reading R8:
 *
 *     V2_SHA256 SP item *("," item)      item = name "=" value
 *
 * A value runs to the next comma and may contain "=" (split at the first "=").
 * appId, sign, timestamp and nonce each appear exactly once, in any order.
 * Must be refused: another scheme, a missing item, a duplicate item, an empty
 * value, no items. Either way (R8's "acceptable" rows): white space around items,
 * unknown extra items, a lower-case scheme name — the parser tolerates these and
 * says which it tolerated, or refuses them when asked to be strict.
 * @module
 */
import { clip } from './text.js';

/**
 * The scheme name of spec §5.3.
 * @example authorization.startsWith(`${AUTH_SCHEME} `) // true
 */
export const AUTH_SCHEME = 'V2_SHA256';

/**
 * The four items of spec §5.3, in the order the spec's example writes them.
 * @example ITEM_NAMES.join(',') // 'appId,sign,timestamp,nonce'
 */
export const ITEM_NAMES = ['appId', 'sign', 'timestamp', 'nonce'] as const;

/** One of {@link ITEM_NAMES}. */
export type ItemName = (typeof ITEM_NAMES)[number];

/** The four values carried by the header. */
export type AuthorizationItems = Readonly<Record<ItemName, string>>;

/** A deviation from the strict grammar that R8 leaves open ("either way"). */
export type Tolerance = 'whitespace' | 'extra-item' | 'scheme-case' | 'empty-element' | 'name-case';

/** Why a header was refused: outcomes as data, discriminated on `kind`. */
export type HeaderProblem =
  | { readonly kind: 'empty-header' }
  | { readonly kind: 'wrong-scheme'; readonly scheme: string }
  | { readonly kind: 'no-items' }
  | { readonly kind: 'malformed-item'; readonly item: string }
  | { readonly kind: 'empty-value'; readonly item: string }
  | { readonly kind: 'duplicate-item'; readonly item: ItemName }
  | { readonly kind: 'missing-item'; readonly item: ItemName }
  | { readonly kind: 'not-strict'; readonly tolerance: Tolerance };

/** Kinds of {@link HeaderProblem}. */
export type HeaderProblemKind = HeaderProblem['kind'];

/** The outcome of {@link parseAuthorization}. */
export type ParseOutcome =
  | {
      readonly ok: true;
      readonly items: AuthorizationItems;
      /** Deviations from the strict grammar that were tolerated (R8 "either way"). */
      readonly tolerated: readonly Tolerance[];
      /** Unknown extra items, by name (tolerated as `extra-item`). */
      readonly extra: Readonly<Record<string, string>>;
    }
  | { readonly ok: false; readonly problem: HeaderProblem; readonly message: string };

/** Options of {@link parseAuthorization}. */
export interface ParseOptions {
  /** Refuse every deviation R8 leaves open instead of tolerating it. Default false. */
  readonly strict?: boolean;
  /**
   * Ignore empty list elements (",,", a comma before the first item or after the last; R8 (d)) instead of refusing
   * them. Default false.
   */
  readonly ignoreEmpty?: boolean;
  /**
   * Compare item names without regard to ASCII letter case (R8 (e); a duplicate after folding is refused). Default
   * false.
   */
  readonly foldNames?: boolean;
}

function isOws(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** Removes SP and HTAB at both ends (a loop: a regex anchored at the end rescans long values). */
function trimOws(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text[start] === ' ' || text[start] === '\t')) start++;
  while (end > start && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/**
 * Parses an Authorization header value (spec §5.3, reading R8).
 * @param header - the whole header value, e.g. `V2_SHA256 appId=…,sign=…,timestamp=…,nonce=…`
 * @param options - {@link ParseOptions}
 * @returns the items, or the problem that refused the header, with a message naming it
 * @example
 * const r = parseAuthorization('V2_SHA256 nonce=a=b,appId=x,sign=00,timestamp=1');
 * r.ok && r.items.nonce // 'a=b'
 */
export function parseAuthorization(header: string, options: ParseOptions = {}): ParseOutcome {
  const tolerated = new Set<Tolerance>();
  const refuse = (problem: HeaderProblem): ParseOutcome => ({
    ok: false,
    problem,
    message: describeHeaderProblem(problem),
  });

  if (header.trim() === '') return refuse({ kind: 'empty-header' });
  const trimmedHeader = trimOws(header);
  if (trimmedHeader !== header) tolerated.add('whitespace');
  const gap = /[ \t]+/.exec(trimmedHeader);
  const scheme = gap ? trimmedHeader.slice(0, gap.index) : trimmedHeader;
  if (scheme !== AUTH_SCHEME) {
    if (scheme.toUpperCase() !== AUTH_SCHEME) return refuse({ kind: 'wrong-scheme', scheme });
    tolerated.add('scheme-case');
  }
  if (!gap) return refuse({ kind: 'no-items' });
  if (gap[0] !== ' ') tolerated.add('whitespace');

  const found = new Map<string, string>();
  const extra: Record<string, string> = {};
  const seen = new Set<string>();
  let duplicate: ItemName | undefined;
  for (const raw of trimmedHeader.slice(gap.index + gap[0].length).split(',')) {
    const item = trimOws(raw);
    if (item !== raw) tolerated.add('whitespace');
    if (item === '' && options.ignoreEmpty) {
      tolerated.add('empty-element');
      continue;
    }
    const eq = item.indexOf('=');
    if (eq <= 0) return refuse({ kind: 'malformed-item', item });
    const written = item.slice(0, eq);
    const name =
      options.foldNames && !isItemName(written)
        ? (ITEM_NAMES.find((n) => n.toLowerCase() === asciiLower(written)) ?? written)
        : written;
    if (name !== written) tolerated.add('name-case');
    const value = item.slice(eq + 1);
    if (value === '') return refuse({ kind: 'empty-value', item: name });
    if (isItemName(name)) {
      if (seen.has(name)) duplicate ??= name;
      else found.set(name, value);
    } else {
      tolerated.add('extra-item');
      extra[name] = value;
    }
    seen.add(name);
  }
  if (duplicate) return refuse({ kind: 'duplicate-item', item: duplicate });
  const missing = ITEM_NAMES.find((n) => !found.has(n));
  if (missing) return refuse({ kind: 'missing-item', item: missing });
  const list = [...tolerated];
  if (options.strict && list[0]) return refuse({ kind: 'not-strict', tolerance: list[0] });
  const items = Object.fromEntries(ITEM_NAMES.map((n) => [n, found.get(n) ?? ''])) as Record<ItemName, string>;
  return { ok: true, items, tolerated: list, extra };
}

/**
 * R8's strict parser without its messages: the four values when
 * `parseAuthorization(header, { strict: true })` accepts the header, else undefined (a test
 * holds the two equal). One pass, no allocation but the values: fuzzing asks it of every header.
 * @param header - the header value
 * @returns the values, or undefined when the strict parser refuses the header
 * @example strictItems('V2_SHA256 nonce=n,appId=a,sign=00,timestamp=1')?.nonce // 'n'
 */
export function strictItems(header: string): AuthorizationItems | undefined {
  const prefix = `${AUTH_SCHEME} `;
  if (!header.startsWith(prefix)) return undefined;
  const found: Partial<Record<ItemName, string>> = {};
  let start = prefix.length;
  for (;;) {
    const comma = header.indexOf(',', start);
    const end = comma < 0 ? header.length : comma;
    const eq = header.indexOf('=', start);
    // a name, "=", a value (all non-empty), no SP or HTAB at either end of the item
    if (eq <= start || eq + 1 >= end || isOws(header.charCodeAt(start)) || isOws(header.charCodeAt(end - 1)))
      return undefined;
    const name = header.slice(start, eq);
    if (!isItemName(name) || found[name] !== undefined) return undefined;
    found[name] = header.slice(eq + 1, end);
    if (comma < 0) break;
    start = comma + 1;
  }
  const { appId, sign, timestamp, nonce } = found;
  return appId !== undefined && sign !== undefined && timestamp !== undefined && nonce !== undefined
    ? { appId, sign, timestamp, nonce }
    : undefined;
}

/**
 * Formats the header value of spec §5.3, items in the given order (default: the spec's).
 * @param items - appId, sign, timestamp, nonce
 * @param order - the item order; must name each item once
 * @returns `V2_SHA256 appId=…,sign=…,timestamp=…,nonce=…`
 * @throws {RangeError} when a value is empty or contains a comma (R8 could not parse it back),
 *   or when the order does not name each item once
 * @example
 * formatAuthorization({
 *   appId: 'a',
 *   sign: 'ff',
 *   timestamp: '1',
 *   nonce: 'n',
 * }) // 'V2_SHA256 appId=a,sign=ff,timestamp=1,nonce=n'
 */
export function formatAuthorization(items: AuthorizationItems, order: readonly ItemName[] = ITEM_NAMES): string {
  if (order.length !== ITEM_NAMES.length || new Set(order).size !== ITEM_NAMES.length || !order.every(isItemName)) {
    throw new RangeError(`order must name each of ${ITEM_NAMES.join(', ')} once; got ${order.join(', ')}`);
  }
  for (const name of ITEM_NAMES) {
    const value = items[name];
    if (typeof value !== 'string' || value === '' || value.includes(',')) {
      throw new RangeError(`item ${name} must be a non-empty string without a comma (R8)`);
    }
  }
  return `${AUTH_SCHEME} ${order.map((n) => `${n}=${items[n]}`).join(',')}`;
}

/**
 * A one-line description of a header problem, naming the item or the scheme seen.
 * @param problem - the problem
 * @returns the message
 * @example describeHeaderProblem({ kind: 'missing-item', item: 'nonce' }) // 'item nonce is missing'
 */
export function describeHeaderProblem(problem: HeaderProblem): string {
  switch (problem.kind) {
    case 'empty-header':
      return 'the Authorization header is empty';
    case 'wrong-scheme':
      return `scheme ${JSON.stringify(clip(problem.scheme, 40))} is not ${AUTH_SCHEME}`;
    case 'no-items':
      return `no items follow ${AUTH_SCHEME}`;
    case 'malformed-item':
      return `item ${JSON.stringify(clip(problem.item, 40))} is not name=value`;
    case 'empty-value':
      return `item ${clip(problem.item, 40)} has an empty value`;
    case 'duplicate-item':
      return `item ${problem.item} appears more than once`;
    case 'missing-item':
      return `item ${problem.item} is missing`;
    case 'not-strict':
      return `strict parsing refuses ${problem.tolerance} (R8 leaves it open)`;
  }
}

/**
 * Whether a string is one of the four item names (case-sensitive).
 * @param name - a candidate name
 * @returns true for appId, sign, timestamp, nonce
 * @example isItemName('appId') // true
 */
export function isItemName(name: string): name is ItemName {
  return (ITEM_NAMES as readonly string[]).includes(name);
}

// --- internal ---

function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}
