/**
 * The gateway role's slow case gateway.upload-after-expiry (2.4, 3, 7): against the reference gateway on a clock the
 * test moves (the case's wait moves it instead of sleeping), it passes when the address refuses the late upload, and
 * fails an address whose clock never moves (credentials that never expire). Without --slow it sends nothing and is
 * skipped, saying --slow runs it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import { runCase } from '../../src/roles/run-case.js';
import { createGatewaySubject } from '../../src/roles/gateway/subject.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';

const MERCHANT = { appId: 'app_expiry_1', appSecret: 'sk_expiry_not-printed' };
let gateway: Gateway;
let now = Date.now();

beforeAll(async () => {
  gateway = await startGateway({ merchants: [MERCHANT], clock: { now: () => now }, log: () => undefined });
});
afterAll(async () => {
  await gateway.close();
});

const expiry = liveCases(loadVectorSet()).find((l) => l.case.id === 'gateway.upload-after-expiry');

describe('gateway.upload-after-expiry', () => {
  it('waits 630 s on the gateway clock, and passes when the late upload is refused', async () => {
    const waited: number[] = [];
    const subject = createGatewaySubject({
      baseUrl: gateway.baseUrl,
      ...MERCHANT,
      slow: true,
      sleep: async (ms) => {
        waited.push(ms);
        now += ms;
      },
    });
    const o = await runCase(expiry!, subject);
    // 10 minutes of validity (2.4) and 30 s of margin
    expect(waited).toEqual([630_000]);
    expect(o.status).toBe('pass');
    expect(o.message).toMatch(/^gateway\.upload: refused as expected \(HTTP 4\d\d/);
    expect(o.message).toMatch(/expired/i);
  });

  it('fails an address whose credentials never expire (its clock does not move)', async () => {
    const subject = createGatewaySubject({ baseUrl: gateway.baseUrl, ...MERCHANT, slow: true, sleep: async () => {} });
    const o = await runCase(expiry!, subject);
    expect(o.status).toBe('fail');
    expect(o.message).toMatch(/^gateway\.upload: accepted, but the case is invalid/);
  });

  it('without --slow: skipped, nothing sent, the message naming --slow', async () => {
    const subject = createGatewaySubject({ baseUrl: 'http://127.0.0.1:9', ...MERCHANT });
    const o = await runCase(expiry!, subject);
    expect(o.status).toBe('skip');
    expect(o.message).toBe(
      'gateway.upload: unsupported: a slow case: it waits 630 s before uploading; pgv2kit run --slow runs it',
    );
  });
});
