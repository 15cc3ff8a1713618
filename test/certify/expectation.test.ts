/**
 * Merchant cases agree with the readings (R7–R11 over every parse R8 allows): each case
 * states an intent (valid, invalid, acceptable), and the merchant check refuses to judge a
 * merchant on a case whose intent and the readings disagree.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runCase } from '../../src/checks/index.js';
import { readingsExpectation } from '../../src/merchant/expectation.js';
import { merchantPlan } from '../../src/merchant/plan.js';
import type { MerchantTarget } from '../../src/merchant/call.js';
import { createMerchantSubject } from '../../src/subjects/merchant-subject.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import type { LoadedCase, MerchantCase } from '../../src/vectors/types.js';
import { APP_ID, APP_SECRET, startTestMerchant, type TestMerchant } from './_merchant.js';

const base: MerchantTarget = { appId: 'app_9f2c', appSecret: 'sk_test_expectations', notifyUrl: 'https://shop.example.com/hooks/pg', returnUrl: 'https://shop.example.com/return?lang=en' };
const loaded = liveCases(loadVectorSet()).filter((l): l is LoadedCase<MerchantCase> => l.case.kind === 'merchant');
const cases = loaded.map((l) => l.case);
const intent = (c: MerchantCase) => (c.result === 'valid' ? 'accept' : c.result === 'invalid' ? 'refuse' : 'acceptable');

const started: TestMerchant[] = [];
afterEach(async () => {
  for (const m of started.splice(0)) await m.close();
});

describe('merchant cases and the readings', () => {
  it.each([1, 2, 3, 4, 5])('every case at seed %i agrees with the readings (delivered elsewhere too)', (seed) => {
    const target = { ...base, deliverTo: 'http://127.0.0.1:9/hooks', returnDeliverTo: 'http://127.0.0.1:9/return?lang=en' };
    const plan = merchantPlan(cases, target, seed, 1_767_225_600_000);
    expect(plan.length).toBeGreaterThanOrEqual(47);
    for (const [i, p] of plan.entries()) {
      const c = cases[i] as MerchantCase;
      if (c.advisory) continue;
      if (!('call' in p.built)) throw new Error(`${c.id}: ${p.built.notApplicable}`);
      expect([c.id, readingsExpectation(p.built.call, target)]).toEqual([c.id, intent(c)]);
    }
  });

  it('names the readings where they differ: items in any order accepted, a missing item refused, upper-case hex either way', () => {
    const plan = new Map(merchantPlan(cases, base, 1, 1_767_225_600_000).map((p) => [p.id, p.built]));
    const expectation = (id: string) => {
      const built = plan.get(id);
      if (!built || !('call' in built)) throw new Error(`${id} not built`);
      return readingsExpectation(built.call, base);
    };
    expect(expectation('merchant.webhook.header-order.nonce-timestamp-sign-appid')).toBe('accept');
    expect(expectation('merchant.webhook.header-items.missing-nonce')).toBe('refuse');
    expect(expectation('merchant.webhook.hex-case.upper')).toBe('acceptable');
    expect(expectation('merchant.redirect.valid.form')).toBe('accept');
    expect(expectation('merchant.redirect.authorization-tampered.missing')).toBe('refuse');
    // the delivery-URL case cannot be made when the calls go to the notifyUrl itself
    expect(plan.get('merchant.webhook.delivery-url.signed')).toEqual({ notApplicable: expect.stringContaining('--deliver-to') });
  });

  it('a case whose intent contradicts the readings is an error naming the kit bug, not a verdict on the merchant', async () => {
    const m = await startTestMerchant('accept-all', (u) => ({ notifyUrl: `${u}/notify`, returnUrl: `${u}/return` }));
    started.push(m);
    const subject = createMerchantSubject({ appId: APP_ID, appSecret: APP_SECRET, notifyUrl: `${m.url}/notify`, returnUrl: `${m.url}/return`, seed: 3 });
    try {
      const valid = loaded.find((l) => l.case.id === 'merchant.webhook.valid.1') as LoadedCase<MerchantCase>;
      const wrong = { ...valid, case: { ...valid.case, result: 'invalid' as const } };
      const outcome = await runCase(wrong, subject);
      expect(outcome.status).toBe('error');
      expect(outcome.message).toMatch(/a kit bug, please report it: the case expects refuse, but the readings \(R7–R11\) allow accept/);
      expect((await runCase(valid, subject)).status).toBe('pass');
    } finally {
      await subject.close?.();
    }
  });
});
