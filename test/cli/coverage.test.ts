/**
 * No false passes: `pgv2kit run` against real testees over protocol v1 that offer
 * less than the vectors need (test/cli/fixtures/advertise-testee.mjs advertises the
 * names in ADVERTISE and answers with the reference). A case passes only when every
 * step ran; a run in which no step ran exits 1; an unknown name in the handshake is
 * reported with the closest known one.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import { run } from './_run.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const testee = `"${process.execPath}" "${join(root, 'test/cli/fixtures/advertise-testee.mjs')}"`;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'pgv2kit-coverage-'));
  dirs.push(d);
  return d;
};
const live = liveCases(loadVectorSet());
/** Counted from the vector files, not from the runner. */
const count = (kind: string): number => live.filter((c) => c.case.kind === kind).length;

interface Results {
  conformant: boolean;
  noTestRan: string | null;
  totals: Record<string, number>;
  operations: Array<{
    op: string;
    offered: boolean;
    cases: number;
    ran: number;
    passed: number;
    failed: number;
    notRun: number;
  }>;
  unknownOperations: Array<{ name: string; suggestion: string | null }>;
  cases: Array<{ id: string; kind: string; status: string; verdict: string; ran: string[]; notRun: string[] }>;
}
const results = (dir: string): Results => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;
const env = (advertise: string): Record<string, string | undefined> => ({ ...process.env, ADVERTISE: advertise });

describe('pgv2kit run: coverage you can read', () => {
  it('a testee that offers no operations: exit 1, "no test ran", and the reports say so', async () => {
    const cwd = tmp();
    const r = await run(['run', '--testee', testee, '--run-name', 'none'], { cwd, env: env('') });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('pgv2kit run: no test ran: the implementation offers no operations\n');
    expect(r.stdout).toMatch(/\nno test ran: the implementation offers no operations\n.*\n0 passed, 0 failed\n/);
    const json = results(join(cwd, 'reports', 'none'));
    expect(json).toMatchObject({
      conformant: false,
      noTestRan: 'no test ran: the implementation offers no operations',
    });
    expect(json.totals['passed']).toBe(0);
    expect(json.operations.every((o) => !o.offered && o.ran === 0)).toBe(true);
    expect(readFileSync(join(cwd, 'reports', 'none', 'report.md'), 'utf8')).toContain('**NO TEST RAN: 0 passed');
    expect(readFileSync(join(cwd, 'reports', 'none', 'junit.xml'), 'utf8')).toContain(
      '<property name="pgv2kit.noTestRan" value="no test ran: the implementation offers no operations"/>',
    );
    // and a CI that reads only JUnit does not show it green: one failing testcase says so
    const junit = readFileSync(join(cwd, 'reports', 'none', 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites [^>]*failures="1"/);
    expect(junit).toContain('<testcase name="run.no-test-ran" classname="pgv2kit.run"');
    expect(junit).toContain(
      '<failure message="no test ran: the implementation offers no operations" type="no-test-ran">',
    );
  });

  it('a verifier-only testee: signing shown as not run, no signature case counted as passed (partial), exit 0', async () => {
    const cwd = tmp();
    // the vectors' coverage (the properties' is the same rule: test/properties/properties.test.ts)
    const r = await run(['run', '--testee', testee, '--run-name', 'verifier', '--no-properties'], {
      cwd,
      env: env('request.verify'),
    });
    expect(r.code).toBe(0);
    const signature = count('signature');
    // per operation: offered, cases, ran, passed, failed, error, not run
    expect(r.stdout).toMatch(new RegExp(`\\n  signature\\.content +NO +${signature} +0 +0 +0 +0 +${signature}\\n`));
    expect(r.stdout).toMatch(new RegExp(`\\n  signature\\.sign +NO +${signature} +0 +0 +0 +0 +${signature}\\n`));
    // request.verify runs in every signature case and every request case; the reference's answers pass
    const verifies = signature + count('request');
    expect(r.stdout).toMatch(
      new RegExp(`\\n  request\\.verify +yes +${verifies} +${verifies} +${verifies} +0 +0 +0\\n`),
    );
    expect(r.stdout).toContain(
      `\nnot run: signature.content (not offered, ${signature} steps), signature.sign (not offered, ${signature} steps), `,
    );
    // only the request cases passed fully; the signature cases are partial; the rest skipped
    // the cases of kit-internal operations (the gateway and merchant roles, the upload address's form check) are no testee's
    const others = live.filter(
      (l) =>
        l.case.kind === 'gateway' ||
        l.case.kind === 'merchant' ||
        (l.case.kind === 'upload' && l.case.op === 'upload.formCheck'),
    ).length;
    expect(r.stdout).toContain(`\nfor other targets: ${others} cases need only kit-internal operations (`);
    const skipped = live.length - signature - count('request') - others;
    expect(r.stdout).toContain(
      `\npartial: ${signature} (not counted as passed), skipped: ${skipped}, expected failures: 0\n${count('request')} passed, 0 failed\n`,
    );
    const json = results(join(cwd, 'reports', 'verifier'));
    const sig = json.cases.filter((c) => c.kind === 'signature');
    expect(sig).toHaveLength(signature);
    expect(sig.filter((c) => c.verdict === 'passed')).toEqual([]);
    expect(
      sig.every(
        (c) =>
          c.status === 'partial' &&
          c.verdict === 'partial' &&
          c.ran.join() === 'request.verify' &&
          c.notRun.join() === 'signature.content,signature.sign',
      ),
    ).toBe(true);
    expect(json.totals).toMatchObject({ passed: count('request'), partial: signature, failed: 0, error: 0 });
    expect(json.conformant).toBe(true);
    const junit = readFileSync(join(cwd, 'reports', 'verifier', 'junit.xml'), 'utf8');
    expect(junit).toContain(
      '<skipped message="partial: not run: signature.content, signature.sign (not offered); passed: request.verify">',
    );
    const md = readFileSync(join(cwd, 'reports', 'verifier', 'report.md'), 'utf8');
    expect(md).toContain(
      `**CONFORMANT (PARTIAL): ${count('request')} passed, ${signature} partial, ${skipped} skipped`,
    );
    expect(md).toContain('| `signature.sign` | **no** |');
  }, 60_000);

  it('a testee given only cases of kit-internal operations: exit 1, "no test ran", naming why', async () => {
    const cwd = tmp();
    const r = await run(['run', '--testee', testee, '--only', 'area:gateway', '--run-name', 'kit-only'], {
      cwd,
      env: env('request.verify'),
    });
    expect(r.code).toBe(1);
    const gateway = count('gateway');
    expect(r.stderr).toBe(
      `pgv2kit run: no test ran: the ${gateway} selected cases need only kit-internal operations (upload.formCheck, gateway.*), which only the reference (in process) and the gateway role (--gateway) run, never a testee\n`,
    );
    expect(results(join(cwd, 'reports', 'kit-only'))).toMatchObject({
      conformant: false,
      cases: [],
      otherTargets: { cases: gateway },
    });
  });

  it('--only signature --skip signature selects nothing: exit 1, "no test ran"', async () => {
    const cwd = tmp();
    const r = await run(['run', '--only', 'signature', '--skip', 'signature', '--run-name', 'empty'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'pgv2kit run: no test ran: the selection (--only signature --skip signature) leaves no case\n',
    );
    expect(r.stdout).toMatch(/\n0 passed, 0 failed\nreports: /);
    expect(results(join(cwd, 'reports', 'empty'))).toMatchObject({
      conformant: false,
      noTestRan: 'no test ran: the selection (--only signature --skip signature) leaves no case',
      cases: [],
    });
  });

  it('a testee that offers none of the operations the selection needs: exit 1', async () => {
    const r = await run(['run', '--testee', testee, '--only', 'signature', '--no-reports'], {
      cwd: tmp(),
      env: env('webhook.verify'),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'pgv2kit run: no test ran: the implementation offers none of the operations the selected cases need (signature.content, signature.sign, request.verify)\n',
    );
  });

  it('a misspelled operation in the handshake: a warning with the closest name, on stderr and in the reports', async () => {
    const cwd = tmp();
    const r = await run(['run', '--testee', testee, '--only', 'signature', '--run-name', 'typo'], {
      cwd,
      env: env('signature.content,signature.sgn,request.verify'),
    });
    const warning =
      'the testee offers "signature.sgn", which protocol v1 does not know (did you mean "signature.sign"?)';
    expect(r.stderr).toContain(`pgv2kit run: warning: ${warning}\n`);
    // the misspelled operation is not offered: its steps did not run, so no signature case passed
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\n0 passed, 0 failed\n/);
    const dir = join(cwd, 'reports', 'typo');
    expect(results(dir).unknownOperations).toEqual([
      { name: 'signature.sgn', suggestion: 'signature.sign', message: warning },
    ]);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain(`> **Warning**: ${warning}`);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain(
      '<strong>Warning</strong>: the testee offers &quot;signature.sgn&quot;',
    );
  });

  it('--list marks the cases that would be partial', async () => {
    const r = await run(['run', '--testee', testee, '--only', 'signature.generate-upload-url', '--list'], {
      cwd: tmp(),
      env: env('request.verify'),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'signature.generate-upload-url  valid  signature.content,signature.sign,request.verify  (partial: signature.content,signature.sign not offered)\n',
    );
  });
});
