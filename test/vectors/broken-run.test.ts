/**
 * The real run fails on a broken vector file: the suites are started as a child
 * process (vitest) against a copy of the vectors with one defect each — a wrong hex,
 * a wrong content, a schema violation — and must exit non-zero naming the case.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_VECTORS_DIR } from '../../src/vectors/load.js';

const run = promisify(execFile);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of the kit's vectors with one edit to signature/basics.yaml. */
function brokenCopy(edit: (text: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-broken-'));
  dirs.push(dir);
  cpSync(DEFAULT_VECTORS_DIR, dir, { recursive: true });
  const file = join(dir, 'signature', 'basics.yaml');
  const before = readFileSync(file, 'utf8');
  const after = edit(before);
  expect(after).not.toBe(before);
  writeFileSync(file, after);
  return dir;
}

async function runSuites(vectors: string, files: readonly string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        ...files,
        '--coverage.enabled=false',
        '--coverage.reportsDirectory',
        join(tmpdir(), 'pgv2kit-broken-run-coverage'),
      ],
      {
        env: { ...process.env, PGV2KIT_VECTORS: vectors, CI: 'true', FORCE_COLOR: '0', NO_COLOR: '1' },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return { code: 0, output: stdout + stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, output: err.stdout + err.stderr };
  }
}

describe('a broken vector file fails the run', () => {
  it('a wrong hex and a wrong content fail their cases; a schema violation stops the run (two child runs)', async () => {
    const values = brokenCopy((t) =>
      t
        // a wrong hex: the first sign of the file changed by one digit
        .replace(
          /sign: ([0-9a-f]{63})([0-9a-f])/,
          (_, head: string, last: string) => `sign: ${head}${last === '0' ? '1' : '0'}`,
        )
        // a wrong content: one character of a later expected content changed
        .replace(/(content: "app_[\s\S]*?content: ")app_/, '$1apq_'),
    );
    // a schema violation: a result that does not exist
    const schema = brokenCopy((t) => t.replace('result: valid', 'result: fine'));
    // the values through both suites; the schema violation stops any suite that loads the set: one is enough
    const [a, b] = await Promise.all([
      runSuites(values, ['suites/vectors.test.ts', 'suites/expectations.test.ts']),
      runSuites(schema, ['suites/expectations.test.ts']),
    ]);
    expect(a.code).not.toBe(0);
    expect(a.output).toMatch(/FAIL .*signature\.\S+/);
    expect(a.output).toContain('expected.sign is not SHA-256 of expected.content');
    expect(a.output).toContain('the reference builds other content than expected.content');
    expect(b.code).not.toBe(0);
    expect(b.output).toMatch(
      /signature\/basics\.yaml: case signature\.\S+ at \/cases\/\d+\/result: must be one of "valid", "invalid", "acceptable"/,
    );
  }, 90_000);
});
