/**
 * Every vector case against the subject, one test per case, named by its id. Client
 * cases run against the reference gateway, started here when the subject offers
 * client.* operations. (Gateway- and merchant-role cases run in suites/gateway-role.test.ts and
 * suites/merchant-role.test.ts.)
 * One area:  npx vitest run suites/vectors -t '^signature'
 * One case:  npx vitest run suites/vectors -t 'signature.final-lf-missing'
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runCase } from '../src/roles/run-case.js';
import { startClientGateway } from '../src/roles/client/reference-gateway.js';
import { liveCases, loadVectorSet } from '../src/vectors/load.js';
import { VECTOR_KINDS } from '../src/roles/registry.js';
import { loadSubject, VECTORS_DIR } from './_support/subject.js';

const set = loadVectorSet(VECTORS_DIR);
const subject = await loadSubject();
const clientGateway = await startClientGateway(liveCases(set), subject);
afterAll(async () => {
  await clientGateway?.close();
  await subject.close?.();
});

describe.each(VECTOR_KINDS.filter((k) => k !== 'gateway' && k !== 'merchant'))('%s', (kind) => {
  const cases = liveCases(set).filter((c) => c.case.kind === kind);
  it.for(cases.map((c) => [c.case.id, c] as const))('%s', async ([, loaded], ctx) => {
    const outcome = await runCase(loaded, subject, clientGateway?.context ?? {});
    if (outcome.status === 'skip') ctx.skip(outcome.message);
    expect(outcome.status, `${loaded.file}: ${outcome.message}`).toBe('pass');
  });
});
