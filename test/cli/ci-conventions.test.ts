/**
 * What CI expects of a command-line tool (issue 13, item 5): -V / --version; `run --json`, one
 * machine-readable summary on stdout and every line for people on stderr; `--junit <file>`;
 * colours on a terminal, NO_COLOR and FORCE_COLOR honoured; every per-case line on stdout, the
 * progress line alone on stderr; a Markdown summary appended to $GITHUB_STEP_SUMMARY.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kitVersion } from '../../src/version.js';
import { tempFolders } from '../_support.js';
import { run } from './_run.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// a zoo member that fails every signature case (upper-case hex), and a correct one
const WRONG = join(ROOT, 'test/zoo/members/uppercase-hex.ts');
const tmp = tempFolders('pgv2kit-ci-');
const ANSI = /\x1b\[[0-9;]*m/;
const signatureRun = (extra: string[]): string[] => [
  'run',
  '--module',
  WRONG,
  '--only',
  'signature.final-lf-missing,signature.generate-upload-url',
  '--no-properties',
  ...extra,
];

describe.concurrent('-V and --version', () => {
  it.each([['-V'], ['--version'], ['-v']])('%s prints the version', async (flag) => {
    expect(await run([flag])).toEqual({ code: 0, stdout: `${kitVersion()}\n`, stderr: '' });
  });
});

describe.concurrent('run --json', () => {
  it('a failing run: one JSON line on stdout (totals, verdict, exit code, failures with their diagnosis, the reports), the rest on stderr', async () => {
    const cwd = tmp();
    const r = await run(signatureRun(['--json', '--report-dir', 'r']), { cwd });
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    const json = JSON.parse(lines[0] ?? '') as Record<string, unknown> & { failures: Array<Record<string, unknown>> };
    expect(json).toMatchObject({
      conformant: false,
      exitCode: 1,
      reportsDir: join(cwd, 'r'),
      junit: join(cwd, 'r', 'junit.xml'),
      totals: { passed: 0, failed: 2, total: 2 },
      aborted: null,
      stopped: null,
    });
    expect(json.failures.map((f) => f.id).sort()).toEqual([
      'signature.final-lf-missing',
      'signature.generate-upload-url',
    ]);
    expect(json.failures[0]).toMatchObject({ verdict: 'failed', mistake: 'uppercase-hex' });
    expect(json).not.toHaveProperty('cases');
    // what a person reads is all there, on stderr
    expect(r.stderr).toContain('FAILED signature.final-lf-missing');
    expect(r.stderr).toContain('0 passed, 2 failed');
    expect(r.stderr).toContain(`reports: ${join(cwd, 'r')}`);
  });

  it('a target not reached: the JSON says aborted and exit code 3', async () => {
    const r = await run(['run', '--gateway', 'http://127.0.0.1:1', '--json', '--no-reports'], {
      env: { PGV2_APP_ID: 'app_ci', PGV2_APP_SECRET: 'sk_ci_secret_000001' },
      cwd: tmp(),
    });
    expect(r.code).toBe(3);
    const json = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(json).toMatchObject({
      exitCode: 3,
      conformant: false,
      reportsDir: null,
      aborted: { kind: 'target-unreachable' },
    });
  });

  it('--json with --list is a usage error', async () => {
    const r = await run(['run', '--list', '--json'], { cwd: tmp() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--json summarizes a run: leave out --list');
  });
});

describe.concurrent('run --junit', () => {
  it('writes the JUnit XML where asked, its folder made, besides the reports or alone', async () => {
    const cwd = tmp();
    const r = await run(signatureRun(['--junit', 'out/ci/junit.xml', '--no-reports']), { cwd });
    expect(r.code).toBe(1);
    const xml = readFileSync(join(cwd, 'out/ci/junit.xml'), 'utf8');
    expect(xml).toMatch(/^<\?xml/);
    expect(xml).toContain('failures="2"');
    expect(existsSync(join(cwd, 'reports'))).toBe(false);
    // a later run replaces the report it wrote (CI writes the same path each time)
    const again = await run(
      [
        'run',
        '--only',
        'id:signature.payment-create',
        '--no-properties',
        '--junit',
        'out/ci/junit.xml',
        '--no-reports',
      ],
      { cwd },
    );
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(cwd, 'out/ci/junit.xml'), 'utf8')).toContain('tests="1"');
  });

  it("a --junit file of the user's is never overwritten: exit 2 before any case, the file as it was", async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, 'README.md'), '# my project\n');
    const r = await run(signatureRun(['--junit', 'README.md', '--no-reports']), { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('README.md exists and is not a JUnit report pgv2kit wrote: it is never overwritten');
    expect(readFileSync(join(cwd, 'README.md'), 'utf8')).toBe('# my project\n');
  });

  it('a --junit file that cannot be written: exit 2 before any case', async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, 'blocker'), 'a file, not a folder');
    const r = await run(signatureRun(['--junit', 'blocker/junit.xml', '--no-reports']), { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^pgv2kit run: --junit .*blocker\/junit\.xml cannot be written/);
    expect(r.stdout).toBe('');
  });
});

describe.concurrent('colours and where lines go', () => {
  it.each([
    [{}, false, false],
    [{}, true, true],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ NO_COLOR: '1', FORCE_COLOR: '1' }, false, false],
  ] as const)('env %j, stdout a terminal: %s → coloured: %s', async (env, stdoutIsTTY, coloured) => {
    const r = await run(signatureRun(['--no-reports']), { cwd: tmp(), env, stdoutIsTTY });
    expect(r.code).toBe(1);
    expect(ANSI.test(r.stdout)).toBe(coloured);
    if (coloured) expect(r.stdout).toContain('\x1b[1;31mFAILED\x1b[0m signature.final-lf-missing');
  });

  it('on a terminal, every per-case line goes to stdout; stderr has only the progress line', async () => {
    const r = await run(signatureRun(['--no-reports']), {
      cwd: tmp(),
      isTTY: true,
      stdoutIsTTY: true,
      env: { NO_COLOR: '1' },
    });
    expect(r.stdout).toContain('FAILED signature.final-lf-missing');
    expect(r.stderr).not.toContain('FAILED');
    expect(r.stderr).toContain('[2/2] 2 failed');
  });
});

describe.concurrent('$GITHUB_STEP_SUMMARY', () => {
  it('each run appends its Markdown summary: the verdict, the table by area, the failures with their diagnosis, the reports', async () => {
    const cwd = tmp();
    const file = join(cwd, 'step-summary.md');
    writeFileSync(file, '# earlier step\n');
    await run(signatureRun(['--report-dir', 'r']), { cwd, env: { GITHUB_STEP_SUMMARY: file } });
    await run(['run', '--only', 'signature.final-lf-missing', '--no-properties', '--no-reports'], {
      cwd,
      env: { GITHUB_STEP_SUMMARY: file },
    });
    const md = readFileSync(file, 'utf8');
    expect(
      md.startsWith('# earlier step\n### pgv2kit: zoo/uppercase-hex 0\n\n**NOT CONFORMANT: 0 passed, 2 failed'),
    ).toBe(true);
    expect(md).toContain('| signature | 2 | · | 2 |');
    expect(md).toContain(
      '- `signature.final-lf-missing` (FAILED): signature.sign: sign differs from the expected — your sign is the expected sign in which the hex digits are upper case',
    );
    expect(md).toContain(`Reports: \`${join(cwd, 'r')}\``);
    expect(md).toMatch(/### pgv2kit: pgv2kit-reference \S+\n\n\*\*CONFORMANT: 1 passed/);
  });

  it('a summary file that cannot be written is a warning, not a failure of the run', async () => {
    const cwd = tmp();
    const file = join(cwd, 'ro.md');
    writeFileSync(file, '');
    chmodSync(file, 0o444);
    const r = await run(['run', '--only', 'signature.final-lf-missing', '--no-properties', '--no-reports'], {
      cwd,
      env: { GITHUB_STEP_SUMMARY: file },
    });
    // root may write a read-only file: then there is nothing to warn about
    if (readFileSync(file, 'utf8') === '')
      expect(r.stderr).toMatch(/warning: the job summary \(\$GITHUB_STEP_SUMMARY, .*ro\.md\) could not be written/);
    expect(r.code).toBe(0);
  });
});

describe.concurrent('certify --json and fuzz --json: one summary line on stdout', () => {
  it('certify against the sample merchant: the verdict, its requirements, exit code 0, the reports', async () => {
    const cwd = tmp();
    const r = await run(['certify', '--seed', '3', '--json', '--report-dir', 'c'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')).toHaveLength(2);
    const json = JSON.parse(r.stdout) as {
      verdict: string;
      exitCode: number;
      reasons: string[];
      requirements: Array<{ id: string; result: string }>;
      reportsDir: string;
      seed: number;
    };
    expect(json).toMatchObject({ verdict: 'CERTIFIED', exitCode: 0, reasons: [], seed: 3, reportsDir: join(cwd, 'c') });
    expect(json.requirements.length).toBeGreaterThan(3);
    expect(r.stderr).toContain('Verdict: CERTIFIED');
  });

  it('certify against a merchant not reached: NOT CERTIFIED, exit code 3, the secret masked', async () => {
    const secret = 'sk_json_secret_42424242';
    const r = await run(
      [
        'certify',
        '--notify-url',
        'http://127.0.0.1:1/n',
        '--return-url',
        'http://127.0.0.1:1/r',
        '--json',
        '--report-dir',
        'c',
      ],
      { cwd: tmp(), env: { PGV2_APP_ID: 'app_json', PGV2_APP_SECRET: secret } },
    );
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ verdict: 'NOT CERTIFIED', exitCode: 3, answered: false });
    expect(r.stdout + r.stderr).not.toContain(secret);
  });

  it.each([
    [['fuzz', '--runs', '30', '--seed', '1', '--json'], 0, null],
    [['fuzz', '--testee', 'no-such-command-pgv2kit', '--json'], 3, 'the testee could not start'],
  ] as const)('%j → exit %i', async (argv, code, error) => {
    const r = await run(argv, { cwd: tmp() });
    expect(r.code).toBe(code);
    const json = JSON.parse(r.stdout) as {
      exitCode: number;
      seed: number;
      runs: number;
      finding: unknown;
      error?: string;
    };
    expect(json.exitCode).toBe(code);
    expect(json.finding).toBeNull();
    if (error === null) expect(json).toMatchObject({ seed: 1, runs: 30 });
    else expect(json.error).toContain(error);
  });

  it('fuzz --json with a finding: the header, the reason, the replay, what was saved; exit code 1', async () => {
    const cwd = tmp();
    const r = await run(
      [
        'fuzz',
        '--testee',
        `node ${join(ROOT, 'test/fuzz/fixtures/positional-testee.mjs')}`,
        '--seed',
        '9',
        '--save',
        'vectors/authorization/found.yaml',
        '--json',
      ],
      { cwd },
    );
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout) as {
      exitCode: number;
      finding: {
        header: string;
        reason: string;
        replay: string;
        replayCommand: string;
        saved: { id: string; file: string };
      };
    };
    expect(json.exitCode).toBe(1);
    expect(json.finding.header).toMatch(/^V2_SHA256 /);
    expect(json.finding.replay).toMatch(/^9:[\d:]+$/);
    expect(json.finding.replayCommand).toContain(`--replay ${json.finding.replay}`);
    expect(json.finding.saved).toEqual({
      id: 'authorization.fuzz-1',
      file: join(cwd, 'vectors', 'authorization', 'found.yaml'),
    });
    expect(r.stderr).toMatch(/FINDING after \d+ headers/);
  });
});
