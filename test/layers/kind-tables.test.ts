/**
 * Every per-kind fact is read from the roles' registry (src/roles/): no file elsewhere in src/
 * keeps a table of its own over the vector kinds — a switch over them or an object keyed by them —
 * that a new kind or role would have to be added to by hand.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { END_TO_END_KINDS, KIND_INFO, ROLES, targetRole } from '../../src/roles/registry.js';
import { CAUSE_ORDER } from '../../src/runner/triage.js';
import { VECTOR_KINDS } from '../../src/roles/registry.js';

const KINDS = `(${VECTOR_KINDS.join('|')})`;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The kinds a file names as `case '<kind>':` and as keys of an object literal (`  <kind>: …`). */
function kindTables(text: string): { cases: string[]; keys: string[] } {
  const distinct = (re: RegExp) => [...new Set([...text.matchAll(re)].map((m) => m[1] as string))];
  return { cases: distinct(new RegExp(`case '${KINDS}':`, 'g')), keys: distinct(new RegExp(`^\\s+${KINDS}: `, 'gm')) };
}

describe('the roles registry', () => {
  it('is the only per-kind table in src/: no switch over three kinds, no object keyed by four, outside src/roles/', () => {
    const found = sources('src')
      .filter((f) => !f.startsWith(join('src', 'roles')))
      // a live exchange's kind (src/live/exchange.ts: api, upload, webhook, redirect) is what crossed the wire, its
      // own enumeration: three of its names meet vector kinds', and its one table of judges is keyed by it
      .filter((f) => f !== join('src', 'live', 'judge.ts'))
      .map((f) => ({ f, ...kindTables(readFileSync(f, 'utf8')) }))
      .filter(({ cases, keys }) => cases.length >= 3 || keys.length >= 4)
      .map(({ f, cases, keys }) => `${f}: case ${cases.join(', ')}; keys ${keys.join(', ')}`);
    expect(found).toEqual([]);
  });

  it('the check finds a table when there is one (it can fail)', () => {
    const table = `switch (c.kind) {\n  case 'signature':\n  case 'request':\n  case 'webhook':\n}\nconst t = {\n  signature: 1,\n  request: 2,\n  redirect: 3,\n  upload: 4,\n};`;
    expect(kindTables(table)).toEqual({
      cases: ['signature', 'request', 'webhook'],
      keys: ['signature', 'request', 'redirect', 'upload'],
    });
  });

  it('owns every vector kind exactly once, and what the triage reads follows the roles', () => {
    const owned = ROLES.flatMap((r) => Object.keys(r.kinds));
    expect([...owned].sort()).toEqual([...VECTOR_KINDS].sort());
    for (const kind of VECTOR_KINDS) expect(KIND_INFO[kind].check.kind).toBe(kind);
    expect([...END_TO_END_KINDS].sort()).toEqual(['client', 'gateway', 'merchant']);
    // the operations first, the properties over them, then the roles end to end
    expect(CAUSE_ORDER).toEqual([
      'signature',
      'authorization',
      'request',
      'response',
      'webhook',
      'redirect',
      'upload',
      'property',
      'client',
      'gateway',
      'merchant',
    ]);
  });

  it('gives pgv2kit run the role its options point at: --gateway, --merchant (one call at a time), none for the operations', () => {
    expect(targetRole({ gateway: true })?.name).toBe('gateway');
    expect(targetRole({ merchant: true })?.target?.concurrency).toBe(1);
    expect(targetRole({ testee: 'node a.mjs' })).toBeUndefined();
    expect(targetRole({ merchant: false, gateway: undefined })).toBeUndefined();
  });
});
