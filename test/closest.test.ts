/**
 * The one closeness behind every "did you mean" (commands, options, handshake operations).
 */
import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../src/closest.js';

describe('editDistance', () => {
  it.each([
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
    ['signature.sgn', 'signature.sign', 1],
    ['onyl', 'only', 2],
    ['same', 'same', 0],
  ])('editDistance(%j, %j) = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe('closest', () => {
  it.each([
    ['onyl', ['only', 'skip', 'json'], ['only']],
    ['ONLY', ['only', 'skip'], ['only']],
    ['vectrs', ['run', 'vectors', 'explain'], ['vectors']],
    // every name at the least distance, in the order given
    ['rum', ['run', 'rub', 'vectors'], ['run', 'rub']],
    // a closer name wins over one merely within reach
    ['skp', ['skipped', 'skip'], ['skip']],
    ['frobnicate', ['only', 'skip'], []],
    ['x', [], []],
    // longer names allow more edits: a third of the length
    ['report-directory', ['report-dir'], []],
    ['reportdirr', ['report-dir'], ['report-dir']],
  ] as const)('closest(%j, %j) = %j', (name, names, expected) => {
    expect(closest(name, names)).toEqual(expected);
  });

  it('takes a bound of its own', () => {
    expect(closest('abcd', ['abxy'], 1)).toEqual([]);
    expect(closest('abcd', ['abxy'], 2)).toEqual(['abxy']);
  });
});
