/**
 * A testee that cannot start, run in process (the child-process tests in start-failures.test.ts
 * prove the exit code of the real binary; these walk the same code where coverage sees it):
 * the message, the reports of a run with no case, a report folder that cannot be written.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from './_run.js';

const tmp = mkdtempSync(join(tmpdir(), 'pgv2kit-start-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const missing = 'python3 /nonexistent/pgv2kit-adapter.py';

describe('a testee that cannot start, in process', () => {
  it('run: exit 3, the command and its stderr, reports that say no case ran', async () => {
    const dir = join(tmp, 'r');
    const r = await run(['run', '--testee', missing, '--report-dir', dir], {
      cwd: tmp,
      env: { ...process.env, PGV2_APP_SECRET: 'sk_live_inproc_secret_99' },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^pgv2kit run: the testee could not start: the testee exited with code 2 before it was ready\n {2}command: python3 \/nonexistent\/pgv2kit-adapter\.py\n/,
    );
    expect(r.stderr).toContain("can't open file");
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      conformant: boolean;
      aborted: { kind: string; exitCode: number };
      cases: unknown[];
    };
    expect(results).toMatchObject({ conformant: false, aborted: { kind: 'testee-start', exitCode: 2 }, cases: [] });
    expect(readFileSync(join(dir, 'report.md'), 'utf8').split('\n')[0]).toBe(
      '# pgv2kit conformance report: python3 /nonexistent/pgv2kit-adapter.py (the testee could not start)',
    );
  });

  it('run: a report folder that is a file is a usage error found before the testee is started (exit 2)', async () => {
    const file = join(tmp, 'a-file');
    writeFileSync(file, 'x');
    const r = await run(['run', '--testee', missing, '--report-dir', file], { cwd: tmp, env: { ...process.env } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/pgv2kit run: cannot write the report folder .*a-file: it exists and is not a folder/);
    expect(r.stderr).not.toContain('could not start');
  });

  it('fuzz: exit 3 and the same message', async () => {
    const r = await run(['fuzz', '--testee', missing, '--runs', '5'], { cwd: tmp, env: { ...process.env } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^pgv2kit fuzz: the testee could not start: the testee exited with code 2 before it was ready\n {2}command: python3 \/nonexistent\/pgv2kit-adapter\.py\n/,
    );
  });
});

describe('a timeout a timer cannot hold', () => {
  it.each([
    ['run', '--testee', 'node x.mjs'],
    ['fuzz', '--testee', 'node x.mjs'],
    ['certify', '--notify-url', 'http://127.0.0.1:9/n', '--return-url', 'http://127.0.0.1:9/r'],
  ])('%s --timeout 99999999: usage error naming the limit, nothing started', async (...argv) => {
    const r = await run([...argv, '--timeout', '99999999'], {
      cwd: tmp,
      env: { PGV2_APP_ID: 'a', PGV2_APP_SECRET: 'sk_test_timeout_1' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--timeout must be at most 2147483 seconds \(about 24 days\), not "99999999"/);
  });
});
