/**
 * The vector files checked against themselves and against the reference, one test
 * per case: each sign recomputed from the expected content with node:crypto, and the
 * reference's content compared with the expected content.
 */
import { describe, expect, it } from 'vitest';
import { loadVectorSet } from '../src/vectors/load.js';
import { expectationProblems } from './_support/expectations.js';
import { VECTORS_DIR } from './_support/subject.js';

const set = loadVectorSet(VECTORS_DIR);

describe('expected values are consistent', () => {
  it.for(set.cases.map((c) => [c.case.id, c] as const))('%s', ([, loaded]) => {
    expect(expectationProblems(loaded.case), loaded.file).toEqual([]);
  });
});
