/**
 * The merchant panel (registry.ts): every member CERTIFIED at seeds 1–5 with the acceptance its
 * author wrote down, and `fuzz --merchant-notify --notify-url` (60 headers per seed) without a finding at
 * seeds 1–5. A failure here is a false failure of the kit, never a reason to bend a member.
 */
import { describe, expect, it } from 'vitest';
import { runCertification } from '../../../src/roles/merchant/certify/certify.js';
import { SAMPLE_CREDENTIALS, SAMPLE_REGISTERED, localDelivery } from '../../../src/roles/merchant/certify/sample.js';
import { fuzzHttp } from '../../../src/fuzz/http.js';
import { PANEL_MERCHANTS } from './registry.js';

const SEEDS = [1, 2, 3, 4, 5];

describe('the merchant panel', () => {
  it('has at least 6 members, Node and Python, the sample merchant one of them', () => {
    expect(PANEL_MERCHANTS.length).toBeGreaterThanOrEqual(6);
    expect(new Set(PANEL_MERCHANTS.map((p) => p.language))).toEqual(new Set(['node', 'python']));
    expect(PANEL_MERCHANTS.map((p) => p.name)).toContain('sample-merchant');
  });
});

describe.concurrent('the merchant panel, certified and fuzzed', () => {
  it.for(PANEL_MERCHANTS.map((p) => [`${p.language} ${p.name}`, p] as const))(
    '%s is CERTIFIED at seeds 1–5 and fuzz --merchant-notify finds nothing',
    async ([, p], { onTestFinished }) => {
      const m = await p.start({ ...SAMPLE_CREDENTIALS, ...SAMPLE_REGISTERED, host: '127.0.0.1', port: 0 });
      onTestFinished(() => m.close());
      const deliverTo = localDelivery(m.url, SAMPLE_REGISTERED.notifyUrl);
      for (const seed of SEEDS) {
        const result = await runCertification({
          ...SAMPLE_CREDENTIALS,
          ...SAMPLE_REGISTERED,
          ...p.acceptance,
          deliverTo,
          returnDeliverTo: localDelivery(m.url, SAMPLE_REGISTERED.returnUrl),
          seed,
        });
        expect(result.reasons, `seed ${seed}`).toEqual([]);
        expect(result.verdict).toBe('CERTIFIED');
        const fuzz = await fuzzHttp({
          kind: 'merchant',
          url: deliverTo,
          notifyUrl: SAMPLE_REGISTERED.notifyUrl,
          ...(p.acceptance.acceptBody !== undefined ? { acceptBody: p.acceptance.acceptBody } : {}),
          ...SAMPLE_CREDENTIALS,
          seed,
          runs: 60,
        });
        expect(fuzz.finding, `seed ${seed}: ${JSON.stringify(fuzz.finding)}`).toBeUndefined();
        expect(fuzz.runs).toBe(60);
      }
    },
  );
});
