/**
 * The sample merchant (examples/sample-merchant) accepts the gateway's genuine webhook and
 * return redirect and refuses altered ones; each Node member of the merchant zoo (test/zoo/merchants) shows its bug.
 * Signatures are computed here with node:crypto over content written out in the test.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startMerchant,
  verifyRedirect,
  verifyWebhook,
  type MerchantOptions,
  type RunningMerchant,
} from '../../examples/sample-merchant/merchant.mjs';
import { ZOO_MERCHANTS } from '../zoo/merchants/registry.js';

/** The zoo's Node members: the sample merchant with one step swapped. */
const NODE_ZOO = ZOO_MERCHANTS.filter((z) => z.language === 'node');

const appId = 'merchant-test';
const appSecret = 's3cr3t-ü';
// registered URLs differ in scheme, host, port from where the merchant listens (R10)
const notifyUrl = 'https://shop.example.com:8443/hooks/pay?src=pg';
const returnUrl = 'https://shop.example.com/return?order=A%2B1&lang=fr';
const options: MerchantOptions = { appId, appSecret, notifyUrl, returnUrl };

const sha = (content: string): string => createHash('sha256').update(Buffer.from(content, 'utf8')).digest('hex');
const header = (sign: string, id = appId, ts = '1700000000000', nonce = 'n0nce=x'): string =>
  `V2_SHA256 appId=${id},sign=${sign},timestamp=${ts},nonce=${nonce}`;
const headerReordered = (sign: string): string =>
  `V2_SHA256 nonce=n0nce=x, timestamp=1700000000000 ,sign=${sign},appId=${appId}`;
const content = (method: string, url: string, body: string, id = appId, secret = appSecret): string =>
  `${id}\n${secret}\n${method}\n${url}\n1700000000000\nn0nce=x\n${body}\n`;

// body ends in LF (R1: content ends in two LFs), has unknown fields, non-ASCII and non-canonical JSON spacing
const body =
  '{ "paymentNo": "P1", "merchantTradeNo": "T1", "status": "PAID", "amount": "10.00", "note": "Grüße ✓", "brandNewField": {"x": null} }\n';
const genuineSign = sha(content('POST', notifyUrl, body));

const payment = JSON.stringify({
  amount: '1.00',
  currency: 'EUR',
  merchantAttach: 'a+b&c=d%e f ü',
  merchantTradeNo: 'T1',
  paymentNo: 'P1',
  status: 'PAID',
});
const formEncode = (s: string): string => encodeURIComponent(s).replace(/%20/g, '+');
const redirectQuery = (p: string, authorization: string): string =>
  `order=A%2B1&lang=fr&paymentNo=P1&merchantTradeNo=T1&payment=${formEncode(p)}&authorization=${formEncode(authorization)}`;
const genuineRedirect = redirectQuery(payment, header(sha(content('GET', returnUrl, `payment=${payment}`))));

async function webhook(
  m: RunningMerchant,
  authorization: string,
  b: string | Buffer = body,
): Promise<{ status: number; text: string }> {
  const res = await fetch(`${m.url}/hooks/pay?src=pg`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: b,
  });
  return { status: res.status, text: await res.text() };
}
async function redirect(m: RunningMerchant, query: string): Promise<number> {
  const res = await fetch(`${m.url}/return?${query}`);
  await res.text();
  return res.status;
}

describe('the sample merchant', () => {
  let m: RunningMerchant;
  beforeAll(async () => {
    m = await startMerchant(options);
  });
  afterAll(() => m.close());

  it('accepts a genuine webhook (raw body, unknown fields, non-ASCII, items in any order) with 200 SUCCESS', async () => {
    expect(await webhook(m, header(genuineSign))).toEqual({ status: 200, text: 'SUCCESS' });
    expect(await webhook(m, headerReordered(genuineSign))).toEqual({ status: 200, text: 'SUCCESS' });
  });

  it('refuses a body with one byte changed, a signature over the delivery URL, a foreign appId, upper-case hex', async () => {
    const changed = Buffer.from(body, 'utf8');
    changed[changed.indexOf('10.00')] = '9'.charCodeAt(0);
    expect(
      verifyWebhook({ appId, appSecret, notifyUrl, method: 'POST', authorization: header(genuineSign), body: changed }),
    ).toEqual({ valid: false, reason: 'signature mismatch' });
    expect((await webhook(m, header(genuineSign), changed)).status).toBe(401);
    expect((await webhook(m, header(sha(content('POST', `${m.url}/hooks/pay?src=pg`, body))))).status).toBe(401);
    expect((await webhook(m, header(sha(content('POST', notifyUrl, body)), 'intruder'))).status).toBe(401);
    expect((await webhook(m, header(genuineSign.toUpperCase()))).status).toBe(401);
    expect((await webhook(m, `${header(genuineSign)},nonce=again`)).status).toBe(401);
  });

  it('accepts a genuine redirect (payment with + & = % spaces non-ASCII, returnUrl with its own query)', async () => {
    expect(await redirect(m, genuineRedirect)).toBe(200);
  });

  it('refuses a tampered payment, a duplicate payment, invalid percent-encoding', async () => {
    expect(await redirect(m, genuineRedirect.replace(formEncode('"1.00"'), formEncode('"9.00"')))).toBe(401);
    expect(await redirect(m, `${genuineRedirect}&payment=x`)).toBe(401);
    expect(await redirect(m, genuineRedirect.replace('payment=', 'payment=%FF'))).toBe(401);
    const r = verifyRedirect({
      appId,
      appSecret,
      returnUrl,
      url: `/return?${genuineRedirect.replace('payment=', 'payment=%E0%A4')}`,
    });
    expect(r).toEqual({ valid: false, reason: 'invalid encoding in the query' });
    const tampered = verifyRedirect({
      appId,
      appSecret,
      returnUrl,
      url: `/return?${genuineRedirect.replace(formEncode('"1.00"'), formEncode('"9.00"'))}`,
    });
    expect(tampered).toEqual({ valid: false, reason: 'signature mismatch' });
  });

  it('exposes the checks as pure functions', () => {
    expect(
      verifyWebhook({ appId, appSecret, notifyUrl, method: 'POST', authorization: header(genuineSign), body }).valid,
    ).toBe(true);
    expect(
      verifyRedirect({ appId, appSecret, returnUrl, url: `https://anywhere.example/return?${genuineRedirect}` }).valid,
    ).toBe(true);
    expect(
      verifyRedirect({
        appId,
        appSecret,
        returnUrl,
        url: `/return?${genuineRedirect.replace('payment=', 'payment=%')}`,
      }).valid,
    ).toBe(false);
  });
});

describe('each defective merchant shows its bug', () => {
  const forgedSign = sha(content('POST', notifyUrl, body, appId, 'wrong-secret'));
  const forgedRedirect = redirectQuery(
    payment,
    header(sha(content('GET', returnUrl, `payment=${payment}`, appId, 'wrong-secret'))),
  );
  const shows: Record<string, (m: RunningMerchant) => Promise<void>> = {
    'accepts-everything': async (m) => {
      expect((await webhook(m, header(forgedSign))).status).toBe(200);
      expect(await redirect(m, forgedRedirect)).toBe(200);
    },
    'reserialized-body': async (m) => expect((await webhook(m, header(genuineSign))).status).toBe(401),
    'request-url': async (m) => {
      expect((await webhook(m, header(genuineSign))).status).toBe(401);
      expect((await webhook(m, header(sha(content('POST', `${m.url}/hooks/pay?src=pg`, body))))).status).toBe(200);
    },
    'strict-fields': async (m) => expect((await webhook(m, header(genuineSign))).status).toBe(401),
    'unchecked-redirect': async (m) => expect(await redirect(m, forgedRedirect)).toBe(200),
    'encoded-payment': async (m) => expect(await redirect(m, genuineRedirect)).toBe(401),
    'landed-url': async (m) => expect(await redirect(m, genuineRedirect)).toBe(401),
    // its payment value holds "%": decoded twice, it is not the value signed
    'decoded-twice': async (m) => expect(await redirect(m, genuineRedirect)).toBe(401),
    'fixed-order': async (m) => {
      expect((await webhook(m, header(genuineSign))).status).toBe(200);
      expect((await webhook(m, headerReordered(genuineSign))).status).toBe(401);
    },
    'unchecked-appid': async (m) => expect((await webhook(m, header(genuineSign, 'intruder'))).status).toBe(200),
    'prefix-sign': async (m) => {
      expect((await webhook(m, header(genuineSign.slice(0, 1)))).status).toBe(200);
      expect((await webhook(m, header(genuineSign.slice(0, 63).toUpperCase()))).status).toBe(200);
      expect((await webhook(m, header(`${genuineSign}0`))).status).toBe(401);
      expect((await webhook(m, header(''))).status).toBe(401);
    },
    'empty-sign': async (m) => {
      expect((await webhook(m, header(''))).status).toBe(200);
      expect((await webhook(m, header('', appId, '1700000000000', 'any-nonce'), '{"forged":true}')).status).toBe(200);
    },
    'first-payment': async (m) => {
      const forged = payment.replace('"1.00"', '"0.01"');
      const authorization = formEncode(header(sha(content('GET', returnUrl, `payment=${payment}`))));
      const twice = (first: string, last: string) =>
        `order=A%2B1&lang=fr&paymentNo=P1&merchantTradeNo=T1&payment=${formEncode(first)}&payment=${formEncode(last)}&authorization=${authorization}`;
      expect(await redirect(m, twice(payment, forged))).toBe(200);
      expect(await redirect(m, twice(forged, payment))).toBe(401);
    },
    'last-payment': async (m) => {
      const forged = payment.replace('"1.00"', '"0.01"');
      const authorization = formEncode(header(sha(content('GET', returnUrl, `payment=${payment}`))));
      const twice = (first: string, last: string) =>
        `order=A%2B1&lang=fr&paymentNo=P1&merchantTradeNo=T1&payment=${formEncode(first)}&payment=${formEncode(last)}&authorization=${authorization}`;
      expect(await redirect(m, twice(forged, payment))).toBe(200);
      expect(await redirect(m, twice(payment, forged))).toBe(401);
    },
  };

  it('has a check here for every Node member of the merchant zoo', () => {
    expect(NODE_ZOO.map((d) => d.name).sort()).toEqual(Object.keys(shows).sort());
  });

  it.each(NODE_ZOO.map((d) => [d.name, d] as const))('%s', async (name, d) => {
    const m = await d.start(options);
    try {
      await shows[name]!(m);
    } finally {
      await m.close();
    }
  });
});
