/**
 * Certification expectations agree with the readings (R7–R11 over every parse R8 allows):
 * the plan's checks are built with an intent, and the plan refuses to exist when an intent
 * and the readings disagree.
 */
import { describe, expect, it } from 'vitest';
import { checkExpectations, readingsExpectation } from '../../src/certify/expectation.js';
import { buildPlan, type PlanOptions } from '../../src/certify/plan.js';

const base: PlanOptions = { appId: 'app_9f2c', appSecret: 'sk_test_expectations', notifyUrl: 'https://shop.example.com/hooks/pg', returnUrl: 'https://shop.example.com/return?lang=en', seed: 1 };

describe('certification expectations', () => {
  it.each([1, 2, 3, 4, 5])('every check of the plan at seed %i agrees with the readings (delivered elsewhere too)', (seed) => {
    const options = { ...base, seed, deliverTo: 'http://127.0.0.1:9/hooks', returnDeliverTo: 'http://127.0.0.1:9/return?lang=en' };
    const plan = buildPlan(options, 1_767_225_600_000);
    const checks = plan.requirements.flatMap((r) => r.checks).filter((c) => c.expect !== 'advisory');
    expect(checks.length).toBeGreaterThan(35);
    for (const c of checks) expect([c.id, readingsExpectation(c.call, options)]).toEqual([c.id, c.expect]);
  });

  it('names the readings where they differ: header items in any order accepted, a missing item refused, upper-case hex either way', () => {
    const plan = buildPlan(base, 1_767_225_600_000);
    const byId = new Map(plan.requirements.flatMap((r) => r.checks).map((c) => [c.id, c]));
    const expectation = (id: string) => readingsExpectation(byId.get(id)!.call, base);
    expect(expectation('webhook.header-order.nonce-timestamp-sign-appId')).toBe('accept');
    expect(expectation('webhook.header-items.missing-nonce')).toBe('refuse');
    expect(expectation('webhook.hex-case.upper')).toBe('acceptable');
    expect(expectation('redirect.valid.form')).toBe('accept');
    expect(expectation('redirect.authorization-tampered.missing')).toBe('refuse');
  });

  it('refuses a plan whose intent contradicts the readings', () => {
    const plan = buildPlan(base, 1_767_225_600_000);
    const [first, ...rest] = plan.requirements;
    const wrong = { ...first!, checks: first!.checks.map((c, i) => (i === 0 ? { ...c, expect: 'refuse' as const } : c)) };
    expect(() => checkExpectations({ ...plan, requirements: [wrong, ...rest] }, base)).toThrow(/certification check webhook\.valid\.1 expects refuse, but the readings \(R7–R11\) say accept: a kit bug/);
  });
});
