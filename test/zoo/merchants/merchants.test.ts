/**
 * The merchant zoo (registry.ts): every member NOT CERTIFIED at seeds 1–5 — the seed varies the
 * payloads, never which forgery classes run — its first reason and the run's first cause naming
 * the mistake its author wrote down, nothing it failed left unexplained.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCertification } from '../../../src/roles/merchant/certify/certify.js';
import { SAMPLE_CREDENTIALS, SAMPLE_REGISTERED, localDelivery } from '../../../src/roles/merchant/certify/sample.js';
import { triage } from '../../../src/runner/triage.js';
import { startMerchantProcess } from '../../_merchant-process.js';
import { PYTHON_MERCHANT, ZOO_MERCHANTS } from './registry.js';

const SEEDS = [1, 2, 3, 4, 5];

describe('the merchant zoo', () => {
  it('has at least 15 members, Node and Python, each mistake a page of docs/mistakes/', () => {
    expect(ZOO_MERCHANTS.length).toBeGreaterThanOrEqual(15);
    expect(new Set(ZOO_MERCHANTS.map((z) => z.language))).toEqual(new Set(['node', 'python']));
    expect(new Set(ZOO_MERCHANTS.map((z) => `${z.language} ${z.name}`)).size).toBe(ZOO_MERCHANTS.length);
    for (const z of ZOO_MERCHANTS)
      for (const id of [z.mistake, ...(z.alsoNamed ?? [])])
        expect(existsSync(`docs/mistakes/${id}.md`), `${z.name}: ${id}`).toBe(true);
  });
});

describe.concurrent('the merchant zoo, certified', () => {
  it('python/merchant.py without MERCHANT_MISTAKE is CERTIFIED: each Python member fails for its one bug', async ({
    onTestFinished,
  }) => {
    const m = await startMerchantProcess('python3', [PYTHON_MERCHANT], { ...SAMPLE_CREDENTIALS, ...SAMPLE_REGISTERED });
    onTestFinished(() => m.close());
    const result = await runCertification({
      ...SAMPLE_CREDENTIALS,
      ...SAMPLE_REGISTERED,
      deliverTo: localDelivery(m.url, SAMPLE_REGISTERED.notifyUrl),
      returnDeliverTo: localDelivery(m.url, SAMPLE_REGISTERED.returnUrl),
      seed: 1,
    });
    expect(result.reasons).toEqual([]);
    expect(result.verdict).toBe('CERTIFIED');
  });

  it.for(ZOO_MERCHANTS.map((z) => [`${z.language} ${z.name}`, z] as const))(
    '%s is NOT CERTIFIED at seeds 1–5, its first reason naming its mistake',
    async ([, z], { onTestFinished }) => {
      const m = await z.start({ ...SAMPLE_CREDENTIALS, ...SAMPLE_REGISTERED, host: '127.0.0.1', port: 0 });
      onTestFinished(() => m.close());
      for (const seed of SEEDS) {
        const result = await runCertification({
          ...SAMPLE_CREDENTIALS,
          ...SAMPLE_REGISTERED,
          deliverTo: localDelivery(m.url, SAMPLE_REGISTERED.notifyUrl),
          returnDeliverTo: localDelivery(m.url, SAMPLE_REGISTERED.returnUrl),
          seed,
        });
        expect(result.verdict, `seed ${seed}`).toBe('NOT CERTIFIED');
        expect(result.reasons[0], `seed ${seed}`).toContain(`, the known mistake ${z.mistake} (`);
        for (const also of z.alsoNamed ?? [])
          expect(
            result.reasons.some((r) => r.includes(`, the known mistake ${also} (`)),
            `seed ${seed}: ${also}`,
          ).toBe(true);
        // the run's triage names it too, by the pattern of the merchant's answers, and leaves nothing unexplained
        const causes = triage(result.run.cases);
        const said = causes.map((c) => `${c.mistake ?? '-'} ${c.title} (${c.count})`).join('; ');
        expect(causes[0]?.mistake, `seed ${seed}: ${said}`).toBe(z.mistake);
        expect(
          causes.filter((c) => c.mistake === null).map((c) => c.title),
          `seed ${seed}: ${said}`,
        ).toEqual([]);
      }
    },
  );
});
