/**
 * Both example adapters through the real protocol: started as child processes,
 * every vector run by the real runner with every line checked against the protocol
 * schema, the client-role cases against the reference gateway the runner starts. Both
 * must pass everything they offer (no false failures), and skip only the cases of
 * kit-internal operations (upload.formCheck, the gateway role's gateway.*).
 */
import { PROPERTIES } from '../../src/properties/catalogue.js';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateTesteeLine } from '../../src/protocol/validate.js';
import { startClientGateway } from '../../src/gateway/client-role.js';
import { runConformance } from '../../src/runner/run.js';
import { KIT_OPERATIONS } from '../../src/protocol/operations.js';
import { createTesteeSubject } from '../../src/subjects/testee-subject.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const set = loadVectorSet();

describe.each([
  ['node', `"${process.execPath}" examples/node-adapter/adapter.mjs`, 'pgv2kit-node-example'],
  ['python', 'python3 examples/python-adapter/pgv2kit_adapter.py', 'pgv2kit-python-example'],
])('the %s example adapter', (_, command, name) => {
  it('passes every case it offers through protocol v1, every line valid', async () => {
    const log: string[] = [];
    const subject = await createTesteeSubject({
      command,
      cwd: root,
      timeoutMs: 10_000,
      log: (l) => log.push(l),
      validate: (m, ctx) => {
        const v = validateTesteeLine(m, ctx);
        return v.ok ? [] : v.problems;
      },
    });
    const gateway = await startClientGateway(liveCases(set), subject);
    try {
      expect(gateway).toBeDefined();
      const run = await runConformance({ set, subject, target: { kind: 'testee', description: command }, properties: { seed: 1, runs: 20 }, ...(gateway ? { context: gateway.context } : {}) });
      // the properties too: every one held (the README says the examples pass every case they can run)
      const props = run.cases.filter((c) => c.kind === 'property');
      expect(props.map((c) => [c.id, c.verdict])).toEqual(PROPERTIES.map((p) => [p.id, 'passed']));
      expect(run.implementation.name).toBe(name);
      const bad = run.cases.filter((c) => c.verdict !== 'passed' && c.verdict !== 'skipped').map((c) => `${c.id}: ${c.message}`);
      expect(bad).toEqual([]);
      const skipped = run.cases.filter((c) => c.verdict === 'skipped');
      expect(skipped.flatMap((c) => c.ops.map((o) => o.op)).filter((op) => !(KIT_OPERATIONS as readonly string[]).includes(op))).toEqual([]);
      expect(run.cases.filter((c) => c.id.startsWith('client.') && c.verdict === 'passed').length).toBeGreaterThan(20);
      // every case is passed but those of kit-internal operations, which a testee run leaves to other targets
      const kitOnly = liveCases(set).filter((l) => l.case.kind === 'gateway' || l.case.kind === 'merchant' || (l.case.kind === 'upload' && l.case.op === 'upload.formCheck')).length;
      expect(run.otherTargets?.cases).toBe(kitOnly);
      expect(run.totals.skipped).toBe(0);
      expect(run.totals.passed + kitOnly).toBe(liveCases(set).length + PROPERTIES.length);
      expect(subject.session.restarts).toBe(0);
      expect(log.filter((l) => !l.startsWith('testee stderr:'))).toEqual([]);
    } finally {
      await subject.close();
      await gateway?.close();
    }
  }, 60_000);
});
