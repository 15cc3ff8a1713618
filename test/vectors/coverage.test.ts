/**
 * What the vector set must contain (issue: foundation, item 3): the minimum counts per
 * area, more negative than positive cases, and for every reading R1–R15 a flagged case
 * in each area it concerns.
 */
import { describe, expect, it } from 'vitest';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import type { VectorKind } from '../../src/vectors/types.js';

const set = loadVectorSet();
const cases = liveCases(set).map((c) => c.case);

/** Minimum number of cases per area. */
const MINIMUM: Partial<Record<VectorKind, number>> = {
  signature: 60,
  authorization: 50,
  response: 25,
  webhook: 20,
  redirect: 30,
  upload: 40,
};

/** For each reading: the areas it concerns, and the flags (of readings.md) its cases carry there. */
const READINGS: Array<[string, VectorKind[], string[]]> = [
  ['R1', ['signature'], ['BodyEndsWithLF']],
  ['R2', ['signature'], ['EmptyBody']],
  ['R3', ['signature', 'request'], ['RawBytes']],
  ['R4', ['signature'], ['UrlAsSent']],
  ['R5', ['signature'], []],
  ['R6', ['signature'], []],
  ['R7', ['signature', 'request', 'response', 'webhook', 'redirect'], ['UppercaseHex']],
  [
    'R8',
    ['authorization'],
    ['HeaderOrder', 'HeaderWhitespace', 'HeaderExtraItem', 'SchemeCase', 'EmptyListElement', 'ItemNameCase'],
  ],
  ['R9', ['response'], ['RawResponse']],
  ['R10', ['webhook'], ['NotifyUrlAsSubmitted']],
  ['R11', ['redirect'], ['RedirectDecoded']],
  ['R12', ['request', 'webhook', 'redirect'], ['Replay']],
  ['R13', ['upload'], ['SizeUnit', 'ExtensionCase']],
  ['R14', ['upload'], ['UploadForm']],
  ['R15', ['response', 'webhook', 'upload'], ['Additions']],
];

describe('the vector set', () => {
  it.each(Object.entries(MINIMUM))('has at least the minimum of %s cases', (kind, minimum) => {
    expect(cases.filter((c) => c.kind === kind).length).toBeGreaterThanOrEqual(minimum);
  });

  it('has more negative than positive cases', () => {
    const count = (r: string): number => cases.filter((c) => c.result === r).length;
    expect(count('invalid')).toBeGreaterThan(count('valid'));
  });

  it.each(
    READINGS.flatMap(([reading, kinds, flags]) =>
      kinds.flatMap((kind) => (flags.length ? flags : [undefined]).map((flag) => [reading, kind, flag] as const)),
    ),
  )('%s has a case in %s flagged %s', (reading, kind, flag) => {
    const found = cases.filter(
      (c) => c.kind === kind && c.readings.includes(reading) && (flag === undefined || c.flags.includes(flag)),
    );
    expect(found.length).toBeGreaterThan(0);
  });

  it('cites, on every case, the readings its flags stand for', () => {
    const missing = cases.flatMap((c) =>
      c.flags.flatMap((f) =>
        (set.notes[f]?.readings ?? [])
          .filter((r) => !c.readings.includes(r))
          .map((r) => `${c.id}: flag ${f} stands for ${r}`),
      ),
    );
    expect(missing).toEqual([]);
  });

  it('gives every acceptable case a flag that says why it is open', () => {
    const open = cases.filter(
      (c) => c.result === 'acceptable' && !c.flags.some((f) => set.notes[f]?.bugType === 'AMBIGUOUS'),
    );
    expect(open.map((c) => c.id)).toEqual([]);
  });
});
