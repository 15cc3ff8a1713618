/**
 * The merchant role against the sample merchant (examples/sample-merchant), started on
 * loopback: every merchant case, one test each, in case order (a replay follows its call) —
 * what `pgv2kit run --merchant` does with no URL. The subject is created once, so replays
 * find the calls they repeat.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startSampleMerchant } from '../src/roles/merchant/certify/sample.js';
import { runCase } from '../src/roles/run-case.js';
import { createMerchantSubject } from '../src/roles/merchant/subject.js';
import { liveCases, loadVectorSet } from '../src/vectors/load.js';
import { VECTORS_DIR } from './_support/subject.js';

const set = loadVectorSet(VECTORS_DIR);
const sample = await startSampleMerchant();
const subject = createMerchantSubject({ ...sample, seed: Number(process.env['PGV2KIT_SEED'] ?? 1) });
afterAll(async () => {
  await subject.close?.();
  await sample.close();
});

describe('merchant role', () => {
  const cases = liveCases(set).filter((c) => c.case.kind === 'merchant');
  it.for(cases.map((c) => [c.case.id, c] as const))('%s', async ([, loaded]) => {
    const outcome = await runCase(loaded, subject);
    expect(outcome.status, `${loaded.file}: ${outcome.message}`).toBe('pass');
  });
});
