/**
 * Diagnosis of header parsers (authorization.parse; §5.3, R8). A parser that accepts a
 * header R8 refuses is told which refusal it missed. A parser that accepts a good header
 * with wrong values is compared with what two known wrong parsers return for the
 * case's header: one that reads the values by position (the spec's example order
 * assumed), one that takes each value after the last "=" of its item.
 * @module
 */
import type { OpOutcome } from '../checks/outcome.js';
import { caseAnswers } from '../checks/authorization.js';
import { ITEM_NAMES, parseAuthorization, type AuthorizationItems, type ItemName } from '../scheme/authorization.js';
import type { Diagnosis } from './diagnosis.js';
import type { AuthorizationCase } from '../vectors/types.js';
import { refusalExpected, resultOf } from './common.js';

/**
 * The known wrong parsers: each gives the items it reads from a header, or undefined
 * when it reads no four values.
 * @example PARSER_MISTAKES[0]?.id // 'items-by-position'
 */
export const PARSER_MISTAKES: ReadonlyArray<{
  readonly id: string;
  readonly ref: string;
  readonly description: string;
  readonly read: (header: string) => AuthorizationItems | undefined;
}> = [
  {
    id: 'items-by-position',
    ref: '§5.3, R8',
    description:
      "the values are read by position, the spec's order (appId, sign, timestamp, nonce) assumed, not by name",
    read: itemsByPosition,
  },
  {
    id: 'value-split-at-last-equals',
    ref: 'R8',
    description: 'each value starts after the last "=" of its item, not the first',
    read: itemsSplitAtLastEquals,
  },
];

/**
 * The known mistakes that explain a failed authorization case.
 * @param c - the case
 * @param outcome - the failed operation's outcome
 * @returns the diagnoses; empty for a refusal (one bit) or when nothing fits
 */
export function diagnoseAuthorization(c: AuthorizationCase, outcome: OpOutcome): Diagnosis[] {
  const result = resultOf(outcome.got);
  if (c.op !== 'authorization.parse' || !result) return [];
  if (c.result === 'invalid') {
    // a name written twice in other cases (Sign=, SIGN=): missing for a parser that compares names
    // exactly, a duplicate for one that folds them (R8 (e)); a value returned for it says which
    const folded = parseAuthorization(c.inputs.header, { foldNames: true, ignoreEmpty: true });
    const twice =
      !folded.ok &&
      folded.problem.kind === 'duplicate-item' &&
      typeof result[folded.problem.item] === 'string' &&
      result[folded.problem.item] !== '';
    return [refusalExpected(twice ? 'duplicate-item' : (c.expected.problem?.kind ?? 'refuse'), '§5.3, R8')];
  }
  const allowed = caseAnswers(c).accepted;
  const found = PARSER_MISTAKES.filter(({ read }) => {
    const theirs = read(c.inputs.header);
    return (
      theirs !== undefined &&
      ITEM_NAMES.every((n) => result[n] === theirs[n]) &&
      allowed.every((a) => ITEM_NAMES.some((n) => theirs[n] !== a[n]))
    );
  }).map((m): Diagnosis => ({
    mistake: m.id,
    message: `your items equal the items of a parser in which ${m.description}`,
    ref: m.ref,
  }));
  if (found.length > 0) return found;
  // accepted values no reading gives: the header read with its white space kept, or trimmed
  // everywhere, or with its names folded, has a problem that parser had to refuse it for (a missing
  // or duplicate item …)
  const kinds = new Set<string>();
  for (const text of [c.inputs.header, trimEverywhere(c.inputs.header)]) {
    const read = parseAuthorization(text, { strict: true });
    if (!read.ok && read.problem.kind !== 'not-strict') kinds.add(read.problem.kind);
    // a parser that folds names (R8 (e)) must refuse a duplicate that folding makes
    const folded = parseAuthorization(text, { foldNames: true, ignoreEmpty: true });
    if (!folded.ok && folded.problem.kind === 'duplicate-item') kinds.add('duplicate-item');
  }
  return [...kinds].map((kind) => refusalExpected(kind, 'R8'));
}

/**
 * What a parser that reads the values by position returns: the values of the first four
 * items, as appId, sign, timestamp, nonce (each item split at its first "=", white space trimmed).
 * @param header - the header
 * @returns the items, or undefined when the header has fewer than four items
 * @example
 * itemsByPosition(
 *   'V2_SHA256 nonce=n,appId=a,sign=s,timestamp=t',
 * ) // { appId: 'n', sign: 'a', timestamp: 's', nonce: 't' }
 */
export function itemsByPosition(header: string): AuthorizationItems | undefined {
  const values = items(header).map(([, value]) => value);
  if (values.length < ITEM_NAMES.length) return undefined;
  return Object.fromEntries(ITEM_NAMES.map((n, i) => [n, values[i] ?? ''])) as Record<ItemName, string>;
}

/**
 * What a parser that takes each value after the last "=" of its item returns (the name
 * still ends at the first "="; the first item of each name counts).
 * @param header - the header
 * @returns the items, or undefined when one of the four names is missing
 * @example
 * itemsSplitAtLastEquals(
 *   'V2_SHA256 appId=a,sign=s,timestamp=t,nonce=x=y',
 * ) // { appId: 'a', sign: 's', timestamp: 't', nonce: 'y' }
 */
export function itemsSplitAtLastEquals(header: string): AuthorizationItems | undefined {
  const found = new Map<string, string>();
  for (const [name, , raw] of items(header))
    if (raw.includes('=') && !found.has(name)) found.set(name, raw.slice(raw.lastIndexOf('=') + 1));
  if (!ITEM_NAMES.every((n) => found.has(n))) return undefined;
  return Object.fromEntries(ITEM_NAMES.map((n) => [n, found.get(n) ?? ''])) as Record<ItemName, string>;
}

// --- internal ---

/** The items after the scheme as [name, value, item], split at the first "=", white space trimmed. */
function items(header: string): Array<[string, string, string]> {
  const rest = header.trim().replace(/^\S+[ \t]+/, '');
  return rest.split(',').map((raw) => {
    const item = raw.trim();
    const eq = item.indexOf('=');
    return eq < 0 ? [item, '', item] : [item.slice(0, eq), item.slice(eq + 1), item];
  });
}

/** The header with white space (String#trim's) removed at every place R8 names: how a trimming parser reads it. */
function trimEverywhere(header: string): string {
  const m = /^\s*(\S+)\s+([\s\S]*)$/.exec(header);
  if (!m) return header.trim();
  const rest = (m[2] ?? '').split(',').map((raw) => {
    const item = raw.trim();
    const eq = item.indexOf('=');
    return eq < 0 ? item : `${item.slice(0, eq).trim()}=${item.slice(eq + 1).trim()}`;
  });
  return `${m[1] ?? ''} ${rest.join(',')}`;
}
