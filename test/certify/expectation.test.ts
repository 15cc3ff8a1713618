/**
 * Merchant cases agree with the readings (R7–R11 over every parse R8 allows): each case
 * states an intent (valid, invalid, acceptable), and the merchant check refuses to judge a
 * merchant on a case whose intent and the readings disagree.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { runCase } from '../../src/roles/run-case.js';
import { readingsExpectation } from '../../src/roles/merchant/as-gateway/expectation.js';
import { merchantPlan } from '../../src/roles/merchant/as-gateway/plan.js';
import type { MerchantTarget } from '../../src/roles/merchant/as-gateway/call.js';
import { createMerchantSubject } from '../../src/roles/merchant/subject.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import type { LoadedCase, MerchantCase } from '../../src/vectors/types.js';
import { mistakeIds } from '../docs/_catalogue.js';
import { APP_ID, APP_SECRET, startTestMerchant, type TestMerchant } from './_merchant.js';

const base: MerchantTarget = {
  appId: 'app_9f2c',
  appSecret: 'sk_test_expectations',
  notifyUrl: 'https://shop.example.com/hooks/pg',
  returnUrl: 'https://shop.example.com/return?lang=en',
};
const loaded = liveCases(loadVectorSet()).filter((l): l is LoadedCase<MerchantCase> => l.case.kind === 'merchant');
const cases = loaded.map((l) => l.case);
const intent = (c: MerchantCase) =>
  c.result === 'valid' ? 'accept' : c.result === 'invalid' ? 'refuse' : 'acceptable';

const started: TestMerchant[] = [];
afterEach(async () => {
  for (const m of started.splice(0)) await m.close();
});

describe('merchant cases and the readings', () => {
  it.each([1, 2, 3, 4, 5])('every case at seed %i agrees with the readings (delivered elsewhere too)', (seed) => {
    const target = {
      ...base,
      deliverTo: 'http://127.0.0.1:9/hooks',
      returnDeliverTo: 'http://127.0.0.1:9/return?lang=en',
    };
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
    expect(plan.get('merchant.webhook.delivery-url.signed')).toEqual({
      notApplicable: expect.stringContaining('--deliver-to'),
    });
  });

  it('a case whose intent contradicts the readings is an error naming the kit bug, not a verdict on the merchant', async () => {
    const m = await startTestMerchant('accept-all', (u) => ({ notifyUrl: `${u}/notify`, returnUrl: `${u}/return` }));
    started.push(m);
    const subject = createMerchantSubject({
      appId: APP_ID,
      appSecret: APP_SECRET,
      notifyUrl: `${m.url}/notify`,
      returnUrl: `${m.url}/return`,
      seed: 3,
    });
    try {
      const valid = loaded.find((l) => l.case.id === 'merchant.webhook.valid.1') as LoadedCase<MerchantCase>;
      const wrong = { ...valid, case: { ...valid.case, result: 'invalid' as const } };
      const outcome = await runCase(wrong, subject);
      expect(outcome.status).toBe('error');
      expect(outcome.message).toMatch(
        /a kit bug, please report it: the case expects refuse, but the readings \(R7–R11\) allow accept/,
      );
      expect((await runCase(valid, subject)).status).toBe('pass');
    } finally {
      await subject.close?.();
    }
  });
});

describe('the forgery classes (issue 22): sent as named at every seed, checked with node:crypto', () => {
  const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
  const items = (header: string): Record<string, string> =>
    Object.fromEntries(
      header
        .replace(/^V2_SHA256 /, '')
        .split(',')
        .map((i) => [i.slice(0, i.indexOf('=')), i.slice(i.indexOf('=') + 1)]),
    );
  const pairs = (url: string) =>
    url
      .slice(url.indexOf('?') + 1)
      .split('&')
      .map((p) => p.split('=') as [string, string]);
  const decode = (raw: string) => decodeURIComponent(raw.replace(/\+/g, ' '));

  it.each([1, 2, 3, 4, 5])('seed %i', (seed) => {
    const built = new Map(merchantPlan(cases, base, seed, 1_767_225_600_000).map((p) => [p.id, p.built]));
    const call = (id: string) => {
      const b = built.get(id);
      if (!b || !('call' in b)) throw new Error(`${id} not built`);
      return b.call;
    };
    const webhook = (id: string) => {
      const c = call(id);
      const header = c.headers.find(([n]) => n === 'authorization')?.[1] ?? '';
      const got = items(header);
      return {
        header,
        it: got,
        body: c.body ?? '',
        genuine: sha(
          `${base.appId}\n${base.appSecret}\nPOST\n${base.notifyUrl}\n${got.timestamp}\n${got.nonce}\n${c.body}\n`,
        ),
      };
    };
    for (const n of [1, 2, 8, 32, 63]) {
      const w = webhook(`merchant.webhook.sign-prefix.${n}`);
      expect([n, w.it.sign]).toEqual([n, w.genuine.slice(0, n)]);
    }
    expect(webhook('merchant.webhook.sign-empty.header').header).toMatch(/,sign=,/);
    const extended = webhook('merchant.webhook.sign-extended.one-digit');
    expect(extended.it.sign).toMatch(new RegExp(`^${extended.genuine}[0-9a-f]$`));
    for (const [end, at] of [
      ['first', 0],
      ['last', 63],
    ] as const) {
      const w = webhook(`merchant.webhook.sign-end-digits.${end}`);
      const got = w.it.sign ?? '';
      const differ = [...w.genuine].map((d, i) => (d !== got[i] ? i : -1)).filter((i) => i >= 0);
      expect([end, got.length, differ]).toEqual([end, 64, [at]]);
    }
    expect(webhook('merchant.webhook.sign-not-hex.letters').it.sign).toMatch(/^[^0-9a-fA-F]{64}$/);
    const other = webhook('merchant.webhook.sign-other-content.other-payment');
    expect(other.it.sign).toMatch(/^[0-9a-f]{64}$/);
    expect(other.it.sign).not.toBe(other.genuine);
    for (const name of ['appId', 'sign', 'timestamp', 'nonce']) {
      for (const genuine of ['first', 'last']) {
        const header = webhook(`merchant.webhook.item-twice.${name.toLowerCase()}-genuine-${genuine}`).header;
        const values = header
          .replace(/^V2_SHA256 /, '')
          .split(',')
          .filter((i) => i.startsWith(`${name}=`));
        expect([name, genuine, values.length, new Set(values).size]).toEqual([name, genuine, 2, 2]);
      }
    }
    // the body as sent: an LF added, a space added; the sign over the body without them
    const lf = webhook('merchant.webhook.body-trailing-lf.added');
    expect(lf.body.endsWith('}\n')).toBe(true);
    expect(lf.it.sign).toBe(
      sha(
        `${base.appId}\n${base.appSecret}\nPOST\n${base.notifyUrl}\n${lf.it.timestamp}\n${lf.it.nonce}\n${lf.body.slice(0, -1)}\n`,
      ),
    );
    const bom = webhook('merchant.webhook.body-bom.added');
    expect(bom.body.startsWith('\uFEFF{')).toBe(true);
    expect(bom.it.sign).toBe(
      sha(
        `${base.appId}\n${base.appSecret}\nPOST\n${base.notifyUrl}\n${bom.it.timestamp}\n${bom.it.nonce}\n${bom.body.slice(1)}\n`,
      ),
    );
    // the redirect's payment twice, in each order: one of the two is the payment the authorization signs
    for (const order of ['forged-first', 'genuine-first']) {
      const ps = pairs(call(`merchant.redirect.payment-twice.${order}`).url);
      const payments = ps.filter(([n]) => n === 'payment').map(([, v]) => decode(v));
      const auth = items(decode(ps.find(([n]) => n === 'authorization')?.[1] ?? ''));
      const signedFor = (p: string | undefined) =>
        sha(
          `${base.appId}\n${base.appSecret}\nGET\n${base.returnUrl}\n${auth.timestamp}\n${auth.nonce}\npayment=${p}\n`,
        ) === auth.sign;
      expect([order, payments.length, payments.map(signedFor)]).toEqual([
        order,
        2,
        order === 'forged-first' ? [false, true] : [true, false],
      ]);
      expect(ps.filter(([n]) => n === 'authorization').length).toBe(1);
    }
    for (const order of ['forged-first', 'genuine-first']) {
      expect(
        pairs(call(`merchant.redirect.authorization-twice.${order}`).url).filter(([n]) => n === 'authorization').length,
      ).toBe(2);
    }
  });
});

describe('the requirements name the mistakes they catch', () => {
  const requirements = loadVectorSet().requirements;
  const known = mistakeIds();

  it('every named mistake is one of the catalogue (its page in docs/mistakes/)', () => {
    const named = Object.entries(requirements).filter(([, q]) => q.mistake !== undefined);
    expect(named.length).toBeGreaterThanOrEqual(28);
    expect(named.filter(([, q]) => !known.has(q.mistake ?? '')).map(([id, q]) => `${id}: ${q.mistake}`)).toEqual([]);
  });

  it('every requirement a forgery class serves (issue 22) names one', () => {
    const forgeries = new Set(
      cases
        .filter(
          (c) =>
            c.result === 'invalid' &&
            /\.(sign-|item-|body-(trailing|white|bom)|payment-twice|authorization-twice|re-encoded|decoded-once-more|signed-with-ids)/.test(
              c.id,
            ),
        )
        .map((c) => c.requirement),
    );
    expect(forgeries.size).toBeGreaterThanOrEqual(20);
    expect([...forgeries].filter((id) => requirements[id]?.mistake === undefined)).toEqual([]);
  });
});
