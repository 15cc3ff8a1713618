/**
 * Selection patterns name a kind, a flag or an id glob; the prefix `kind:` forces the first
 * reading, and `area:` (the kind's old name, in scripts and in results.json's selection) reads
 * as `kind:` (issue 23, item 5).
 */
import { describe, expect, it } from 'vitest';
import { SelectionError, matches, selectCases } from '../../src/runner/select.js';

const sign = { case: { id: 'signature.final-lf-missing', kind: 'signature', flags: ['FinalLfMissing'] } };
const prop = { case: { id: 'property.lf.sign', kind: 'property', flags: ['Property'] } };

describe('selection patterns', () => {
  it('kind:, and area: as its old name, select a kind', () => {
    for (const p of ['signature', 'kind:signature', 'area:signature']) expect(matches(sign, p), p).toBe(true);
    for (const p of ['kind:property', 'area:property'])
      expect([matches(sign, p), matches(prop, p)], p).toEqual([false, true]);
    expect(selectCases([sign, prop], { only: ['kind:property'], skip: [] })).toEqual([prop]);
    expect(selectCases([sign, prop], { only: [], skip: ['area:property'] })).toEqual([sign]);
  });

  it("a pattern matching nothing names the three readings in the glossary's words", () => {
    expect(() => selectCases([sign], { only: ['kind:gateway'], skip: [] })).toThrow(SelectionError);
    expect(() => selectCases([sign], { only: ['nosuchthing'], skip: [] })).toThrow(
      'the pattern "nosuchthing" matches no case (a kind, a flag or an id glob)',
    );
  });
});
