/**
 * POST /pg/v2/payment/create (2.5, 3, 4.3): the signature verified, the body's types
 * checked, a signed envelope with a paymentNo and status PENDING.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import { verifyResponse } from '../../src/scheme/verify.js';
import { MERCHANT, PAYMENT_PATH, authHeader, send, signedPost } from './_support.js';

let gateway: Gateway;
const now = Date.UTC(2024, 5, 11, 8, 30, 0, 123);
beforeAll(async () => {
  gateway = await startGateway({ merchants: [MERCHANT], clock: { now: () => now } });
});
afterAll(() => gateway.close());

const FULL = JSON.stringify({
  merchantTradeNo: 'M-20240611-0001',
  amount: '199.00',
  currency: 'USD',
  description: 'Order 0001',
  payer: { userId: 'u-1', name: 'Ada', email: 'ada@example.com', phone: '+1-555-0100' },
  payMethod: { type: 'CARD' },
  tradeEnv: { ip: '203.0.113.7', deviceId: 'dev-1' },
  merchantAttach: 'attach-1',
  notifyUrl: 'https://merchant.example.com/notify',
  returnUrl: 'https://merchant.example.com/return?order=1',
});

describe('payment/create', () => {
  it('a valid body: 200, a signed envelope with a paymentNo, status PENDING, refundStatus NO_REFUND', async () => {
    const url = `${gateway.url('pay.ok')}${PAYMENT_PATH}`;
    const a = await signedPost(url, FULL);
    expect(a.status).toBe(200);
    expect(
      verifyResponse({
        ...MERCHANT,
        method: 'POST',
        url,
        status: 200,
        authorization: String(a.headers['authorization']),
        body: a.bytes,
      }).valid,
    ).toBe(true);
    const env = JSON.parse(a.text) as { code: string; errorMessage: null; data: Record<string, string> };
    expect(env.code).toBe('OK');
    expect(env.errorMessage).toBeNull();
    expect(env.data).toEqual({
      paymentNo: expect.stringMatching(/^P\d+[0-9a-f]{8}$/) as string,
      merchantTradeNo: 'M-20240611-0001',
      amount: '199.00',
      currency: 'USD',
      status: 'PENDING',
      refundStatus: 'NO_REFUND',
      createdTime: '2024-06-11T08:30:00.123+00:00',
      merchantAttach: 'attach-1',
    });
    expect(gateway.recorder.for('pay.ok').requests[0]?.paymentNo).toBe(env.data['paymentNo']);
  });

  it('an amount twice: 400 naming the member, no payment (JSON.parse alone would create one for the last amount)', async () => {
    const a = await signedPost(
      `${gateway.baseUrl}${PAYMENT_PATH}`,
      '{"merchantTradeNo":"M3","amount":"1.00","currency":"EUR","amount":"999999.00"}',
    );
    expect(a.status).toBe(400);
    const env = JSON.parse(a.text) as { code: string; errorMessage: string; data?: unknown };
    expect(env.code).toBe('INVALID_ARGUMENT');
    expect(env.errorMessage).toMatch(/^the member "amount" appears twice in the body/);
    expect(env.data).toBeUndefined();
  });

  it('the smallest body: merchantTradeNo, amount, currency', async () => {
    const a = await signedPost(
      `${gateway.baseUrl}${PAYMENT_PATH}`,
      '{"merchantTradeNo":"M2","amount":"0","currency":"EUR"}',
    );
    expect(a.status).toBe(200);
    expect(JSON.parse(a.text)).not.toHaveProperty('data.merchantAttach');
  });

  it.each([
    ['amount a number', { amount: 199 }, /^amount breaks type: amount must be a string; got the number 199/],
    ['amount not decimal', { amount: '1e3' }, /^amount breaks format: amount must be a decimal string such as "10.00"/],
    ['amount negative', { amount: '-1.00' }, /^amount breaks format/],
    [
      'currency lower case',
      { currency: 'usd' },
      /^currency breaks format: currency must be a currency code of three upper-case letters/,
    ],
    ['payer a string', { payer: 'Ada' }, /^payer breaks type: payer must be an object; got the string "Ada"/],
    ['payer a long string', { payer: 'A'.repeat(100) }, /got the string "A{60}…" \(2\.5\)$/],
    [
      'payer.email a number',
      { payer: { email: 5 } },
      /^payer\.email breaks type: payer\.email must be a string; got the number 5/,
    ],
    ['payMethod without type', { payMethod: {} }, /^payMethod\.type breaks required: payMethod\.type is required/],
    [
      'payMethod an array',
      { payMethod: ['CARD'] },
      /^payMethod breaks type: payMethod must be an object; got an array/,
    ],
    ['tradeEnv.ip null', { tradeEnv: { ip: null } }, /^tradeEnv\.ip breaks type: .*got null/],
    [
      'merchantTradeNo empty',
      { merchantTradeNo: '' },
      /^merchantTradeNo breaks required: merchantTradeNo must not be empty/,
    ],
    [
      'merchantTradeNo missing',
      { merchantTradeNo: undefined },
      /^merchantTradeNo breaks required: merchantTradeNo is required/,
    ],
    [
      'notifyUrl not a URL',
      { notifyUrl: 'merchant.example.com/notify' },
      /^notifyUrl breaks format: notifyUrl must be an absolute http\(s\) URL/,
    ],
    ['merchantAttach an object', { merchantAttach: { a: 1 } }, /^merchantAttach breaks type/],
  ])('%s: 400 INVALID_ARGUMENT naming the field and rule', async (_name, change, message) => {
    const body = JSON.stringify({ ...(JSON.parse(FULL) as object), ...change });
    const a = await signedPost(`${gateway.baseUrl}${PAYMENT_PATH}`, body);
    expect(a.status).toBe(400);
    const env = JSON.parse(a.text) as { code: string; errorMessage: string };
    expect(env.code).toBe('INVALID_ARGUMENT');
    expect(env.errorMessage).toMatch(message);
  });

  it('a string body, and a signature that does not verify', async () => {
    const url = `${gateway.baseUrl}${PAYMENT_PATH}`;
    const a = await signedPost(url, '"pay"');
    expect([a.status, (JSON.parse(a.text) as { errorMessage: string }).errorMessage]).toEqual([
      400,
      'body breaks type: the body must be a JSON object; got the string "pay" (2.5)',
    ]);
    const b = await send(url, {
      body: FULL,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: authHeader({ url, body: FULL, method: 'PUT' }),
      },
    });
    expect(b.status).toBe(401);
  });
});
