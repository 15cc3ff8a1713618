/**
 * Choosing cases: `--only` and `--skip` take patterns that name a kind
 * (`signature`), a flag (`FinalLfMissing`) or an id glob (`signature.url-*`,
 * `*.uppercase-hex`; `*` any run of characters, `?` one). A prefix forces the reading:
 * `kind:`, `flag:`, `id:` (`area:`, the kind's old name, is read as `kind:`: it is in
 * scripts and in results.json's selection).
 * @module
 */

import { VECTOR_KINDS } from '../roles/registry.js';
import { Pgv2kitError } from '../errors.js';

/**
 * A pattern that matches no case at all (a usage error: probably a typo).
 * @example
 * selectCases(liveCases(set), {
 *   only: ['no-such-case'],
 *   skip: [],
 * }) // throws SelectionError — a pattern that matches no case
 */
export class SelectionError extends Pgv2kitError {
  override readonly code = 'PGV2_SELECTION';
  /** A usage error (exit 2). */
  override readonly exit = 'usage';
  override readonly name = 'SelectionError';
}

/** The selection of a run. */
export interface Selection {
  readonly only: readonly string[];
  readonly skip: readonly string[];
}

/** Anything a selection can name: a vector case, or a property (kind `property`, flag `Property`). */
export interface Selectable {
  readonly case: { readonly id: string; readonly kind: string; readonly flags: readonly string[] };
}

/**
 * The cases a selection keeps, in order.
 * @param cases - the live cases
 * @param selection - --only and --skip patterns (each may hold several, comma-separated)
 * @param others - what else the run can select (the properties), for the check that every pattern names something
 * @returns the selected cases
 * @throws {SelectionError} when a pattern matches no case and nothing else
 * @example selectCases(liveCases(set), { only: ['signature'], skip: ['flag:UppercaseHex'] }).length
 */
export function selectCases<C extends Selectable>(
  cases: readonly C[],
  selection: Selection,
  others: readonly Selectable[] = [],
): C[] {
  const only = expand(selection.only);
  const skip = expand(selection.skip);
  for (const p of [...only, ...skip]) {
    if (!cases.some((c) => matches(c, p)) && !others.some((c) => matches(c, p)))
      throw new SelectionError(`the pattern ${JSON.stringify(p)} matches no case (a kind, a flag or an id glob)`);
  }
  return cases.filter((c) => selects(c, selection));
}

/**
 * Whether a selection keeps one case or property.
 * @param item - the case or property
 * @param selection - --only and --skip patterns
 * @returns true when an --only pattern (or none) matches it and no --skip pattern does
 * @example
 * selects(
 *   { case: { id: 'property.lf.sign', kind: 'property', flags: ['Property'] } },
 *   { only: ['property'], skip: [] },
 * ) // true
 */
export function selects(item: Selectable, selection: Selection): boolean {
  const only = expand(selection.only);
  const skip = expand(selection.skip);
  return (only.length === 0 || only.some((p) => matches(item, p))) && !skip.some((p) => matches(item, p));
}

/**
 * Whether a case matches one pattern.
 * @param loaded - the case
 * @param pattern - a kind, a flag, an id glob, or one of them prefixed with `kind:` (or `area:`), `flag:`, `id:`
 * @returns true when it matches
 * @example
 * matches(
 *   { case: { id: 'signature.x', kind: 'signature', flags: ['FinalLfMissing'] } },
 *   'flag:FinalLfMissing',
 * ) // true
 */
export function matches(loaded: Selectable, pattern: string): boolean {
  const c = loaded.case;
  const [prefix, rest] = splitPrefix(pattern);
  if (prefix === 'kind' || prefix === 'area') return c.kind === rest;
  if (prefix === 'flag') return c.flags.includes(rest);
  if (prefix === 'id') return glob(rest).test(c.id);
  if ((VECTOR_KINDS as readonly string[]).includes(pattern) || pattern === 'property') return c.kind === pattern;
  return c.flags.includes(pattern) || glob(pattern).test(c.id);
}

// --- internal ---

function expand(patterns: readonly string[]): string[] {
  return patterns
    .flatMap((p) => p.split(','))
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

function splitPrefix(pattern: string): [string | undefined, string] {
  const m = /^(kind|area|flag|id):(.*)$/.exec(pattern);
  return m ? [m[1], m[2] ?? ''] : [undefined, pattern];
}

function glob(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}
