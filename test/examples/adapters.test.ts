/**
 * Every example adapter through the real protocol: an adapter is a folder examples/<name>/ whose
 * README.md shows the line that runs it, `pgv2kit run --testee "<command>"` (CONTRIBUTING,
 * "Adding an adapter"), and that command is what is started, as a child process. Every vector is
 * run by the real runner with every line checked against the protocol schema, the client-role
 * cases against the reference gateway the runner starts.
 *
 * An adapter may offer only some operations (it advertises only what it implements), so what is
 * required follows from what it offers, case by case: a case whose every operation it offers
 * passes, a case with some of them is partial, a case with none is skipped, and the cases of
 * kit-internal operations (the upload address's form check, the gateway and merchant roles) are
 * left to other targets; a property passes when it offers its operations, else it is skipped.
 * Nothing fails or errors: no false failures.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { caseOperations } from '../../src/roles/run-case.js';
import { startClientGateway } from '../../src/roles/client/reference-gateway.js';
import { PROPERTIES } from '../../src/properties/catalogue.js';
import { validateTesteeLine } from '../../src/protocol/validate.js';
import { runCases } from '../../src/runner/run.js';
import { createTesteeSubject } from '../../src/subjects/testee-subject.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import type { VectorCase } from '../../src/vectors/types.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const set = loadVectorSet();

/** The example adapters: each examples/<name>/ whose README.md shows `pgv2kit run --testee "<command>"`. */
const ADAPTERS = readdirSync(join(root, 'examples'))
  .filter((name) => existsSync(join(root, 'examples', name, 'README.md')))
  .flatMap((name) => {
    const command = /pgv2kit run --testee "([^"]+)"/.exec(
      readFileSync(join(root, 'examples', name, 'README.md'), 'utf8'),
    )?.[1];
    return command === undefined ? [] : [[name, command] as const];
  });

/** A case no testee runs: the gateway and merchant roles' calls, and the upload address's form check. */
const kitInternal = (c: VectorCase): boolean =>
  c.kind === 'gateway' || c.kind === 'merchant' || (c.kind === 'upload' && c.op === 'upload.formCheck');

it('finds the example adapters by their README (the two the kit ships, at least)', () => {
  expect(ADAPTERS.map(([name]) => name)).toEqual(expect.arrayContaining(['node-adapter', 'python-adapter']));
});

describe.each(ADAPTERS)('the example adapter %s (%s)', (_, command) => {
  it('passes every case whose operations it offers, through protocol v1, every line valid', async () => {
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
      const offered = subject.operations;
      expect(offered.length, 'it offers no operation').toBeGreaterThan(0);
      const run = await runCases({
        set,
        subject,
        target: { kind: 'testee', description: command },
        properties: { seed: 1, runs: 20 },
        ...(gateway ? { context: gateway.context } : {}),
      });
      // no false failures, and no answer that is not one
      expect(
        run.cases
          .filter((c) => !['passed', 'partial', 'skipped'].includes(c.verdict))
          .map((c) => `${c.id}: ${c.verdict}: ${c.message}`),
      ).toEqual([]);
      // each case as its operations and what the adapter offers say
      const mine = liveCases(set).filter((l) => !kitInternal(l.case));
      const expected = (c: VectorCase): string => {
        const ops = caseOperations(c);
        const have = ops.filter((op) => offered.includes(op)).length;
        return have === ops.length ? 'passed' : have === 0 ? 'skipped' : 'partial';
      };
      const verdicts = new Map(run.cases.map((c) => [c.id, c.verdict]));
      expect(
        mine
          .filter((l) => verdicts.get(l.case.id) !== expected(l.case))
          .map((l) => `${l.case.id}: ${verdicts.get(l.case.id)}, not ${expected(l.case)}`),
      ).toEqual([]);
      expect(run.otherTargets?.cases ?? 0).toBe(liveCases(set).length - mine.length);
      // the properties too: every one it offers the operations of holds
      const props = run.cases.filter((c) => c.kind === 'property');
      expect(props.map((c) => [c.id, c.verdict])).toEqual(
        PROPERTIES.map((p) => [p.id, p.operations.every((op) => offered.includes(op)) ? 'passed' : 'skipped']),
      );
      expect(subject.session.restarts).toBe(0);
      expect(log.filter((l) => !l.startsWith('testee stderr:'))).toEqual([]);
    } finally {
      await subject.close();
      await gateway?.close();
    }
  }, 60_000);
});
