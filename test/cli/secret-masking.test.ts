/**
 * A testee that prints the merchant secret: the run's output and every report mask it
 * (the secret comes from PGV2_APP_SECRET, which the testee inherits).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-secret-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('masks PGV2_APP_SECRET printed by a testee in stdout, stderr and every report file', () => {
  const secret = 'sk_live_leakcheck_7Hq2Lm9Zx4';
  const testee = `sh -c 'echo "debug: secret is $PGV2_APP_SECRET" >&2; exec node examples/node-adapter/adapter.mjs'`;
  const r = spawnSync(
    process.execPath,
    [
      'bin/pgv2kit.js',
      'run',
      '--testee',
      testee,
      '--only',
      'signature.final-lf-missing',
      '--report-dir',
      join(dir, 'r'),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, PGV2_APP_SECRET: secret, CI: 'true' },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  expect(r.status, r.stderr).toBe(0);
  const files = readdirSync(join(dir, 'r'));
  expect(files.sort()).toEqual(['junit.xml', 'report.html', 'report.md', 'results.json', 'run.log']);
  const log = readFileSync(join(dir, 'r', 'run.log'), 'utf8');
  expect(log).toContain('debug: secret is');
  for (const text of [r.stdout, r.stderr, ...files.map((f) => readFileSync(join(dir, 'r', f), 'utf8'))]) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(0, 14));
  }
});
