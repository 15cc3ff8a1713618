/**
 * `pgv2kit run` end to end, in process: targets, selection, expected-failure lists,
 * exit codes, reports on disk, and secrets kept out of every output.
 */
import { PROPERTIES } from '../../src/properties/catalogue.js';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { caseSecrets } from '../../src/runner/run.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import { run } from './_run.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'pgv2kit-run-'));
  dirs.push(d);
  return d;
};
const misbehaving = join(root, 'test/protocol/fixtures/misbehaving-testee.mjs');
const live = liveCases(loadVectorSet());
const secrets = caseSecrets(live);

/** Every file below a folder, as text. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}

describe('pgv2kit run', () => {
  it('with no target runs every vector against the reference and writes the reports', async () => {
    const cwd = tmp();
    const r = await run(['run', '--run-name', 'ref', '--seed', '1'], { cwd });
    expect(r.code).toBe(0);
    // every live vector, and every property (issue 10), each held by the reference; the slow cases (those that
    // wait, run with --slow only) skipped
    const slow = live.filter((l) => 'waitBeforeUpload' in (l.case.inputs as object)).length;
    expect(slow).toBeGreaterThan(0);
    expect(r.stdout).toMatch(
      new RegExp(`\n${live.length - slow + PROPERTIES.length} passed, 0 failed\nreports: .*\n$`),
    );
    expect(r.stdout).toMatch(new RegExp(`\n {2}property +${PROPERTIES.length} +0 +0 +0 +0 +0 +0\n`));
    expect(r.stdout).toContain(`skipped: ${slow}, expected failures: 0\n`);
    // the reference (and its gateway) offers every operation: every step ran, no case is partial
    expect(r.stdout).not.toMatch(/\npartial: /);
    // the one operation with steps not run: the slow upload cases, skipped without --slow
    expect(r.stdout.match(/\nnot run: .*/g)).toEqual([
      `\nnot run: gateway.upload (answered unsupported, ${slow} step${slow === 1 ? '' : 's'})`,
    ]);
    expect(readdirSync(join(cwd, 'reports', 'ref')).sort()).toEqual([
      'junit.xml',
      'report.html',
      'report.md',
      'results.json',
      'run.log',
    ]);
    const results = JSON.parse(readFileSync(join(cwd, 'reports', 'ref', 'results.json'), 'utf8')) as {
      cases: Array<{ id: string; kind: string }>;
      implementation: { name: string };
    };
    expect(results.cases).toHaveLength(live.length + PROPERTIES.length);
    expect(results.cases.filter((c) => c.kind === 'property').map((c) => c.id)).toEqual(PROPERTIES.map((p) => p.id));
    expect(results.implementation.name).toBe('pgv2kit-reference');
    const written = allText(join(cwd, 'reports')) + r.stdout + r.stderr;
    for (const s of secrets) expect(written.includes(s), 'a secret in the reports').toBe(false);
  });

  it('selects by area, flag and id glob, and lists without running', async () => {
    const r = await run(['run', '--only', 'signature', '--skip', 'flag:UppercaseHex,signature.url-*', '--list'], {
      cwd: tmp(),
    });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^\d+ cases selected for pgv2kit-reference$/);
    expect(lines.slice(0, -1).every((l) => l.startsWith('signature.') && !l.startsWith('signature.url-'))).toBe(true);
    expect(r.stdout).not.toContain('hex-case');
  });

  it.each([
    [['run', '--only', 'nosuchthing'], 'the pattern "nosuchthing" matches no case'],
    [['run', '--timeout', '0'], '--timeout must be a positive number, not "0"'],
    [['run', '--testee', 'x', '--module', 'y'], 'give one of --testee, --module and --merchant'],
    [['run', '--update-expect-failures'], '--update-expect-failures needs --expect-failures <file>'],
    [['run', '--validate-protocol'], '--validate-protocol checks a testee: it needs --testee'],
    [['run', '--module', './no-such-module.mjs'], 'cannot import the module ./no-such-module.mjs'],
    [['run', '--expect-failures', 'missing.yaml'], 'cannot read the expected-failure list'],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const r = await run(argv, { cwd: tmp() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('exits 3 when the testee never becomes ready', async () => {
    const r = await run(['run', '--testee', `"${process.execPath}" "${misbehaving}"`, '--no-reports'], {
      cwd: tmp(),
      env: { ...process.env, START: 'notready' },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^pgv2kit run: the testee could not start: the testee is not ready: this testee needs protocol 7\n {2}command: .*misbehaving-testee\.mjs"\n {2}ended: {3}killed by pgv2kit \(SIGKILL\): it was still running\n {2}stderr: {2}\(nothing\)\n$/,
    );
  });

  it('a defective module fails with exit 1, naming the case and the diagnosis', async () => {
    const cwd = tmp();
    const r = await run(
      ['run', '--module', join(root, 'test/zoo/members/no-final-lf.ts'), '--only', 'signature', '--run-name', 'zoo'],
      { cwd },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /FAILED signature\.\S+: signature\.content: content differs .* — your content is the content in which the LF after part 7 \(the body\) was left out/,
    );
    // every live signature case fails: a content without the LF after the body differs from every expected content
    expect(r.stdout).toContain(`\n0 passed, ${live.filter((l) => l.case.kind === 'signature').length} failed\n`);
    const md = readFileSync(join(cwd, 'reports', 'zoo', 'report.md'), 'utf8');
    expect(md).toContain('no-final-lf');
  });

  it('an expected-failure list: listed failures pass the run, a listed pass fails it, --update rewrites the list', async () => {
    const cwd = tmp();
    const list = join(cwd, 'failures.yaml');
    const member = join(root, 'test/zoo/members/uppercase-hex.ts');
    const pass = 'authorization.order-appid-sign-timestamp-nonce';
    const base = [
      'run',
      '--module',
      member,
      '--only',
      `signature.generate-upload-url,${pass}`,
      '--no-reports',
      '--expect-failures',
      list,
    ];
    writeFileSync(
      list,
      `- id: signature.generate-upload-url\n  reason: our signer writes upper-case hex\n- id: ${pass}\n  reason: stale entry\n- id: signature.gone\n  reason: removed case\n`,
    );
    const before = await run(base, { cwd });
    expect(before.stdout).toContain(`UNEXPECTED PASS ${pass}`);
    expect(before.stdout).toContain('expected-failure list names signature.gone, which is not a case');
    expect(before.code).toBe(1);
    const updated = await run([...base, '--update-expect-failures'], { cwd });
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain(`expected-failure list ${list}: `);
    const text = readFileSync(list, 'utf8');
    expect(text).toContain('- id: signature.generate-upload-url\n  reason: our signer writes upper-case hex\n');
    expect(text).not.toContain(pass);
    expect(text).not.toContain('signature.gone');
    const after = await run(base, { cwd });
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(/skipped: 0, expected failures: 1\n1 passed, 0 failed\n/);
  });

  it('refuses a malformed expected-failure list', async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, 'bad.yaml'), '- id: signature.x\n');
    const r = await run(['run', '--expect-failures', 'bad.yaml', '--no-reports'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad.yaml: entry 1 (signature.x) has no reason');
  });

  it('a testee that answers a case twice: the extra answer is a protocol warning of the run, never charged to the next case', async () => {
    const cwd = tmp();
    const r = await run(
      [
        'run',
        '--testee',
        `"${process.execPath}" "${misbehaving}"`,
        '--only',
        'signature.final-lf-missing,signature.body-not-signed',
        '--run-name',
        't',
        '--no-properties',
      ],
      {
        cwd,
        env: { ...process.env, MODE: 'twolines', BAD: 'final-lf-missing' },
      },
    );
    expect(r.stderr).toMatch(
      /pgv2kit run: warning: the testee broke the protocol \d+ times? outside any case \(run\.log has each\): a second answer for "signature\.final-lf-missing"/,
    );
    const results = JSON.parse(readFileSync(join(cwd, 'reports', 't', 'results.json'), 'utf8')) as {
      cases: Array<{ id: string; verdict: string; ops: Array<{ message: string }> }>;
    };
    // the case after it judged on its own answer (this testee's are not of the operation's shape), never on the extra one
    const after = results.cases.find((c) => c.id === 'signature.body-not-signed');
    expect(after?.ops[0]?.message).toBe('result has no string "contentB64"');
    expect(JSON.stringify(after)).not.toContain('final-lf-missing');
    expect(readFileSync(join(cwd, 'reports', 't', 'run.log'), 'utf8')).toContain(
      'protocol: a second answer for "signature.final-lf-missing"',
    );
  });

  it('a testee that crashes on a case: that case errors, the testee is restarted, the run goes on', async () => {
    const cwd = tmp();
    const r = await run(
      [
        'run',
        '--testee',
        `"${process.execPath}" "${misbehaving}"`,
        '--only',
        'signature.generate-upload-url,signature.final-lf-missing',
        '--run-name',
        'm',
        '--concurrency',
        '1',
      ],
      {
        cwd,
        env: { ...process.env, MODE: 'crash', BAD: 'final-lf-missing' },
      },
    );
    expect(r.code).toBe(1);
    const results = JSON.parse(readFileSync(join(cwd, 'reports', 'm', 'results.json'), 'utf8')) as {
      cases: Array<{ id: string; verdict: string; ops: Array<{ message: string }> }>;
    };
    const byId = new Map(results.cases.map((c) => [c.id, c]));
    expect(byId.get('signature.final-lf-missing')?.verdict).toBe('error');
    expect(byId.get('signature.final-lf-missing')?.ops[0]?.message).toBe(
      'the testee exited with code 3 before answering',
    );
    // the other case ran on the restarted testee (whose answers are not of the operation's shape)
    expect(byId.get('signature.generate-upload-url')?.ops[0]?.message).toBe('result has no string "contentB64"');
    expect(readFileSync(join(cwd, 'reports', 'm', 'run.log'), 'utf8')).toContain('restarting the testee (restart 1)');
  });

  it("keeps the testee's stderr in run.log with secrets masked", async () => {
    const cwd = tmp();
    await run(
      [
        'run',
        '--testee',
        `"${process.execPath}" "${misbehaving}"`,
        '--only',
        'signature.generate-upload-url',
        '--run-name',
        'm',
      ],
      {
        cwd,
        env: { ...process.env, MODE: 'stderr', BAD: 'generate-upload-url' },
      },
    );
    const log = readFileSync(join(cwd, 'reports', 'm', 'run.log'), 'utf8');
    expect(log).toMatch(/testee stderr: oops with secret \S+\*+ \(\d+ chars\)/);
    for (const s of secrets) expect(log.includes(s)).toBe(false);
  });
});
