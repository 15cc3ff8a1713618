/**
 * The gateway role against the reference gateway, started in process: every gateway
 * case, one test each — what `pgv2kit run --gateway` does with no URL. Point
 * PGV2KIT_GATEWAY_URL (with PGV2_APP_ID and PGV2_APP_SECRET) at another gateway to run
 * the same cases against it (its slow cases, which wait, with PGV2KIT_SLOW=1; the reference's clock is moved).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_MERCHANT, startGateway } from '../src/gateway/index.js';
import { runCase } from '../src/roles/run-case.js';
import { createGatewaySubject } from '../src/roles/gateway/subject.js';
import { liveCases, loadVectorSet } from '../src/vectors/load.js';
import { VECTORS_DIR } from './_support/subject.js';

const set = loadVectorSet(VECTORS_DIR);
const url = process.env['PGV2KIT_GATEWAY_URL'];
// the reference's clock, moved by a slow case's wait instead of waiting (another gateway: PGV2KIT_SLOW=1 waits)
let waited = 0;
const gateway = url
  ? undefined
  : await startGateway({ merchants: [DEMO_MERCHANT], clock: { now: () => Date.now() + waited } });
const slow = !url || process.env['PGV2KIT_SLOW'] === '1';
const subject = createGatewaySubject(
  url
    ? { baseUrl: url, appId: process.env['PGV2_APP_ID'] ?? '', appSecret: process.env['PGV2_APP_SECRET'] ?? '', slow }
    : {
        baseUrl: gateway?.baseUrl ?? '',
        ...DEMO_MERCHANT,
        slow,
        sleep: async (ms) => {
          waited += ms;
        },
      },
);
afterAll(async () => gateway?.close());

describe('gateway role', () => {
  const cases = liveCases(set).filter((c) => c.case.kind === 'gateway');
  it.for(cases.map((c) => [c.case.id, c] as const))('%s', async ([, loaded]) => {
    const outcome = await runCase(loaded, subject);
    const skipped = !slow && 'waitBeforeUpload' in loaded.case.inputs;
    expect(outcome.status, `${loaded.file}: ${outcome.message}`).toBe(skipped ? 'skip' : 'pass');
  });
});
