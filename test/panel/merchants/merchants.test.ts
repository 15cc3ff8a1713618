/**
 * The merchant panel (registry.ts): every member CERTIFIED at seeds 1–5 with the acceptance its
 * author wrote down, and `fuzz --merchant-notify --notify-url` (60 headers per seed) without a finding at
 * seeds 1–5; behind the judging proxy (issue 26), its genuine webhook and redirect conformant and its refusal of
 * forged ones no finding. A failure here is a false failure of the kit, never a reason to bend a member.
 */
import { describe, expect, it } from 'vitest';
import { runCertification } from '../../../src/roles/merchant/certify/certify.js';
import { SAMPLE_CREDENTIALS, SAMPLE_REGISTERED, localDelivery } from '../../../src/roles/merchant/certify/sample.js';
import { fuzzHttp } from '../../../src/fuzz/http.js';
import { PANEL_MERCHANTS } from './registry.js';
import { MerchantBook } from '../../../src/gateway/merchants.js';
import { startMerchantProxy } from '../../../src/live/merchant-proxy.js';
import type { AcceptanceRule } from '../../../src/roles/merchant/as-gateway/acceptance.js';
import {
  compactJson,
  createRng,
  makePayment,
  webhookPayload,
} from '../../../src/roles/merchant/as-gateway/payloads.js';
import { sha } from '../../diagnosis/_support.js';

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
      // issue 26: behind the judging proxy (--merchant, with the acceptance its author wrote down), a genuine
      // webhook and return redirect are conformant, and a forged one's only finding is the message's own: the
      // member refused it, whatever way it refuses (a 200 FAIL body, a redirect to its failure page)
      expect(await behindProxy(m.url, p.acceptance)).toEqual([
        ['webhook', 'conformant', []],
        ['webhook', 'not conformant', ['webhook']],
        ['redirect', 'conformant', []],
        ['redirect', 'not conformant', ['redirect']],
      ]);
    },
  );
});

/** A genuine and a forged webhook, then return redirect, through a merchant proxy in front of the member. */
async function behindProxy(member: string, acceptance: AcceptanceRule): Promise<Array<[string, string, string[]]>> {
  const { appId, appSecret } = SAMPLE_CREDENTIALS;
  const { notifyUrl, returnUrl } = SAMPLE_REGISTERED;
  const seen: Array<[string, string, string[]]> = [];
  const proxy = await startMerchantProxy({
    merchant: new URL(member).origin,
    notifyUrl,
    returnUrl,
    merchants: new MerchantBook([SAMPLE_CREDENTIALS]),
    acceptance,
    onExchange: (ex, j) => void seen.push([ex.kind, j.verdict, j.findings.map((f) => f.about)]),
  });
  let n = 0;
  /** 5.1's content written out (parts 1–6 each + LF, the body, LF), signed here with node:crypto. */
  const auth = (method: string, url: string, body: string): string => {
    const ts = String(Date.now());
    const nonce = `panel-proxy-${++n}-${ts}`;
    const sign = sha(`${appId}\n${appSecret}\n${method}\n${url}\n${ts}\n${nonce}\n${body}\n`);
    return `V2_SHA256 appId=${appId},sign=${sign},timestamp=${ts},nonce=${nonce}`;
  };
  const rng = createRng(26);
  try {
    const body = compactJson(webhookPayload(rng));
    const hook = (sent: string, signed: string) =>
      fetch(`${proxy.url}${new URL(notifyUrl).pathname}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: auth('POST', notifyUrl, signed) },
        body: sent,
      }).then((r) => r.arrayBuffer());
    await hook(body, body);
    await hook(body.replace(/"amount":"/, '"amount":"9'), body);
    const payment = compactJson(makePayment(rng));
    const landed = (sent: string, signed: string): string => {
      const u = new URL(returnUrl);
      const query = `${u.search.slice(1)}&paymentNo=P1&merchantTradeNo=T1&payment=${encodeURIComponent(sent)}`;
      const authorization = encodeURIComponent(auth('GET', returnUrl, `payment=${signed}`));
      return `${proxy.url}${u.pathname}?${query}&authorization=${authorization}`;
    };
    for (const sent of [payment, payment.replace('"SUCCESS"', '"FAILED"')])
      await fetch(landed(sent, payment), { redirect: 'manual' }).then((r) => r.arrayBuffer());
  } finally {
    await proxy.close();
  }
  return seen;
}
