/**
 * A run that stops before every case ran (issue 12): --max-failures / --bail stop scheduling once
 * that many cases failed; Ctrl-C (SIGINT) and SIGTERM stop the run as a real process: the testee's
 * whole process group goes, the reports of what ran are written and marked, exit 130 / 143. The
 * cases that did not run are not in the run (never counted as passed), and the reports say how many.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { alive, tempFolders } from '../_support.js';
import { run } from './_run.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'pgv2kit.js');
const FIXTURE = join(ROOT, 'test/protocol/fixtures/misbehaving-testee.mjs');
const MEMBER = join(ROOT, 'test/zoo/members/uppercase-hex.ts');
const tmp = tempFolders('pgv2kit-stop-');
type Results = {
  stopped: { kind: string; reason: string; notRun: number } | null;
  conformant: boolean;
  cases: Array<{ id: string; verdict: string; ops: Array<{ message: string }> }>;
};
const results = (dir: string): Results => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;

/**
 * The kit as a real process whose testee (a node script) writes its pid first: the signal is sent
 * once `ready` holds (and `settleMs` more have passed), then the exit is awaited.
 */
async function signalKit(
  signal: NodeJS.Signals,
  cwd: string,
  args: (testee: string) => string[],
  script: string,
  o: {
    readonly env?: Record<string, string>;
    readonly ready: (output: string, pidFile: string) => boolean;
    readonly settleMs?: number;
  },
): Promise<{ exit: number | null; stdout: string; stderr: string; pid: number; ms: number; aliveAtSignal: boolean }> {
  const pidFile = join(cwd, 'testee.pid');
  const testee = `echo $$ > "${pidFile}"; exec "${process.execPath}" "${script}"`;
  const kit = await startKit(args(testee), cwd, o.env ?? {}, (output) => o.ready(output, pidFile));
  await new Promise((r) => setTimeout(r, o.settleMs ?? 0));
  const pid = Number(readFileSync(pidFile, 'utf8'));
  const aliveAtSignal = alive(pid);
  const started = Date.now();
  const { exit, stdout, stderr } = await kit.signal(signal);
  return { exit, stdout, stderr, pid, ms: Date.now() - started, aliveAtSignal };
}

/** The kit as a real process, its output collected; resolves once `ready` holds of its output (or 15 s passed). */
async function startKit(
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
  ready: (output: string) => boolean,
): Promise<{ signal: (s: NodeJS.Signals) => Promise<{ exit: number | null; stdout: string; stderr: string }> }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, ...env, CI: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => void (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => void (stderr += c.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  const until = Date.now() + 15_000;
  while (!ready(stdout + stderr) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return {
    signal: async (s) => {
      child.kill(s);
      return { exit: await closed, stdout, stderr };
    },
  };
}

describe.concurrent('--max-failures and --bail', () => {
  /** An SDK that drops the final LF, behind testee protocol v1. */
  const testee = `"${process.execPath}" --import tsx test/zoo/protocol-adapter.ts no-final-lf`;
  it.each([
    [['--max-failures', '3'], 3],
    [['--bail'], 1],
  ])('%j: stops after that many failures, the rest not run and counted as such, exit 1', async (flags, limit) => {
    const cwd = tmp();
    const r = await run(
      [
        'run',
        '--module',
        MEMBER,
        '--only',
        'signature',
        '--concurrency',
        '1',
        '--no-properties',
        '--report-dir',
        'r',
        ...flags,
      ],
      { cwd },
    );
    expect(r.code).toBe(1);
    const json = results(join(cwd, 'r'));
    const failed = json.cases.filter((c) => c.verdict === 'failed');
    expect(failed.length).toBe(limit);
    expect(json.stopped).toEqual({
      kind: 'max-failures',
      reason: `${limit} case${limit === 1 ? '' : 's'} failed (--max-failures ${limit})`,
      notRun: expect.any(Number),
    });
    const selected = Number(
      /(\d+) cases selected/.exec(
        (await run(['run', '--module', MEMBER, '--only', 'signature', '--list', '--no-properties'], { cwd })).stdout,
      )?.[1],
    );
    expect(json.stopped?.notRun).toBe(selected - json.cases.length);
    expect(r.stderr).toContain(
      `pgv2kit run: stopped early: ${json.stopped?.reason}; ${json.stopped?.notRun} selected cases not run`,
    );
    expect(readFileSync(join(cwd, 'r', 'report.md'), 'utf8')).toContain(`**Stopped early: ${json.stopped?.reason}.**`);
    expect(readFileSync(join(cwd, 'r', 'junit.xml'), 'utf8')).toContain('name="run.stopped"');
  });

  it('--bail against an SDK that drops the final LF, at the default concurrency with properties: exactly 1 failed case, a root cause (signature), the cases in flight not run', async () => {
    const cwd = tmp();
    const r = await run(['run', '--testee', testee, '--bail', '--report-dir', join(cwd, 'r')], { cwd: ROOT });
    expect(r.code, r.stderr).toBe(1);
    const json = results(join(cwd, 'r'));
    const failing = json.cases.filter((c) => c.verdict === 'failed' || c.verdict === 'error');
    expect(failing.map((c) => c.id)).toHaveLength(1);
    expect(failing[0]?.id).toMatch(/^signature\./);
    // what the testee has, as --list counts it (test/cli/counts.test.ts holds the list to a run): every case for it and property either ran here or is counted not run
    const list = (await run(['run', '--testee', testee, '--list'], { cwd: ROOT })).stdout;
    const [, properties, forIt] =
      /^\d+ cases and (\d+) properties selected for .*: (\d+) of the cases for it/m.exec(list) ?? [];
    expect(forIt, list.slice(-400)).toBeDefined();
    expect(json.stopped).toEqual({
      kind: 'max-failures',
      reason: '1 case failed (--max-failures 1)',
      notRun: Number(forIt) + Number(properties) - json.cases.length,
    });
    expect(r.stdout).toMatch(/^\d+ passed, 1 failed$/m);
  }, 60_000);

  it('--max-failures 2 where only properties fail (they run side by side): exactly 2 counted, the rest not run', async () => {
    const cwd = tmp();
    const whole = await run(
      ['run', '--testee', testee, '--only', 'area:property', '--report-dir', join(cwd, 'whole')],
      { cwd: ROOT },
    );
    expect(whole.code).toBe(1);
    const all = results(join(cwd, 'whole')).cases;
    // more than two fail when nothing stops them, so the limit is what holds the count
    expect(all.filter((c) => c.verdict === 'failed').length).toBeGreaterThan(2);
    const r = await run(
      ['run', '--testee', testee, '--only', 'area:property', '--max-failures', '2', '--report-dir', join(cwd, 'r')],
      { cwd: ROOT },
    );
    expect(r.code).toBe(1);
    const json = results(join(cwd, 'r'));
    expect(json.cases.filter((c) => c.verdict === 'failed' || c.verdict === 'error')).toHaveLength(2);
    expect(json.stopped?.notRun).toBe(all.length - json.cases.length);
  }, 60_000);

  it.each([
    [['--bail', '--max-failures', '2'], 'give --bail or --max-failures, not both'],
    [['--max-failures', '0'], '--max-failures must be a positive integer'],
  ])('%j → exit 2', async (flags, message) => {
    const r = await run(['run', '--no-reports', ...flags], { cwd: tmp() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

describe.concurrent('a signal stops a run, as a real process', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: the testee group goes, the reports of what ran are written and marked interrupted, exit %i',
    async (signal, code) => {
      const cwd = tmp();
      // a testee that hangs on one case: without the signal the run would wait out a 60 s timeout
      const { exit, stdout, stderr, pid, ms } = await signalKit(
        signal,
        cwd,
        (testee) => [
          'run',
          '--testee',
          testee,
          '--only',
          'signature',
          '--timeout',
          '60',
          '--no-properties',
          '--report-dir',
          'r',
          '--json',
        ],
        FIXTURE,
        {
          env: { MODE: 'hang', BAD: 'signature.final-lf-missing' },
          ready: (_, pidFile) => existsSync(pidFile),
          settleMs: 700,
        },
      );
      expect(exit).toBe(code);
      expect(ms).toBeLessThan(10_000);
      expect(stderr).toContain(`pgv2kit run: ${signal}: stopping`);
      expect(alive(pid)).toBe(false);
      const json = results(join(cwd, 'r'));
      expect(json.stopped).toMatchObject({ kind: 'interrupted', reason: `interrupted by ${signal}` });
      expect(json.stopped?.notRun).toBeGreaterThan(0);
      expect(json.conformant).toBe(false);
      expect(json.cases.some((c) => c.id === 'signature.final-lf-missing')).toBe(false);
      // --json: one document, with the reports' verdict words (issue 25, item 5)
      const summary = JSON.parse(stdout) as { exitCode: number; conformant: boolean; summary: string };
      expect(summary).toMatchObject({ exitCode: code, conformant: false });
      expect(summary.summary).toMatch(
        new RegExp(`^INTERRUPTED \\(interrupted by ${signal}; \\d+ not run\\) — NOT CONFORMANT`),
      );
      expect(readFileSync(join(cwd, 'r', 'junit.xml'), 'utf8')).toContain('name="run.interrupted"');
      // the report folder's lock (src/reports/lock.ts) is not left behind
      expect(readdirSync(join(cwd, 'r')).sort()).toEqual([
        'junit.xml',
        'report.html',
        'report.md',
        'results.json',
        'run.log',
      ]);
    },
    30_000,
  );
});

describe.concurrent('--deadline cuts the cases in flight', () => {
  it('--deadline 2 --timeout 30 against a testee that never answers: ends within 10 s, exit 3, and no report calls it CONFORMANT', async () => {
    const cwd = tmp();
    const started = Date.now();
    const summary = join(cwd, 'step-summary.md');
    const r = await run(
      [
        'run',
        '--testee',
        `"${process.execPath}" "${FIXTURE}"`,
        '--deadline',
        '2',
        '--timeout',
        '30',
        '--report-dir',
        'r',
        '--junit',
        'junit.xml',
      ],
      { cwd, env: { MODE: 'hang', BAD: '.', GITHUB_STEP_SUMMARY: summary } },
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.code, r.stderr).toBe(3);
    const json = results(join(cwd, 'r'));
    expect(json.stopped).toMatchObject({ kind: 'deadline' });
    expect(json.conformant).toBe(false);
    // every place a verdict is written: never the bare word (NOT CONFORMANT is fine)
    const bare = /(?<!NOT )\bCONFORMANT\b/;
    for (const f of ['report.html', 'report.md', 'results.json'])
      expect(readFileSync(join(cwd, 'r', f), 'utf8'), f).not.toMatch(bare);
    for (const f of [join(cwd, 'junit.xml'), summary]) expect(readFileSync(f, 'utf8'), f).not.toMatch(bare);
    expect(r.stdout + r.stderr).not.toMatch(bare);
    expect(readFileSync(join(cwd, 'r', 'report.md'), 'utf8')).toContain('INCOMPLETE');
  }, 30_000);
});

describe.concurrent('--give-up-after and --max-restarts: a broken testee is not restarted for ever', () => {
  const FAILED_IN_A_ROW = (limit: number): RegExp =>
    new RegExp(`^the testee failed on ${limit} requests in a row, the last: .*; it is not restarted again$`);
  it.each([
    ['crash', [] as string[], 10],
    // --timeout is the restarts' start timeout too: 1 s, so a restart on a loaded machine still starts in time (0.5 s did not, once)
    ['hang', ['--timeout', '1', '--give-up-after', '3'], 3],
  ])(
    '%s on every case %j: the session gives up after %i in a row, the cases left not run, exit 3',
    async (mode, flags, limit) => {
      const cwd = tmp();
      const started = Date.now();
      const r = await run(
        [
          'run',
          '--testee',
          `"${process.execPath}" "${FIXTURE}"`,
          '--only',
          'signature',
          '--no-properties',
          '--concurrency',
          '1',
          '--report-dir',
          'r',
          ...flags,
        ],
        { cwd, env: { MODE: mode, BAD: 'signature.' } },
      );
      expect(r.code).toBe(3);
      const json = results(join(cwd, 'r'));
      // the cases it failed on are errors (a case asks for two or three steps); the rest did not run, counted as such, never as passed
      expect(json.cases.every((c) => c.verdict === 'error')).toBe(true);
      expect(json.cases.length).toBeLessThanOrEqual(limit);
      expect(json.stopped).toEqual({
        kind: 'gave-up',
        reason: expect.stringMatching(FAILED_IN_A_ROW(limit)),
        notRun: expect.any(Number),
      });
      expect(json.stopped?.notRun).toBeGreaterThan(0);
      expect(json.conformant).toBe(false);
      expect(r.stderr).toContain(
        `pgv2kit run: stopped early: ${json.stopped?.reason}; ${json.stopped?.notRun} selected cases not run\n`,
      );
      expect((readFileSync(join(cwd, 'r', 'run.log'), 'utf8').match(/restarting the testee/g) ?? []).length).toBe(
        limit - 1,
      );
      expect(readFileSync(join(cwd, 'r', 'junit.xml'), 'utf8')).toContain('name="run.gave-up"');
      expect(readFileSync(join(cwd, 'r', 'report.md'), 'utf8')).toContain(
        `**Testee given up: ${json.stopped?.reason}.**`,
      );
      expect(Date.now() - started).toBeLessThan(20_000);
    },
  );

  it('a testee that crashes on some cases, never twice in a row, is given up on after --max-restarts restarts', async () => {
    const cwd = tmp();
    // the cases with "lf" in their id crash it; the others between them answer
    const r = await run(
      [
        'run',
        '--testee',
        `"${process.execPath}" "${FIXTURE}"`,
        '--only',
        'signature',
        '--no-properties',
        '--concurrency',
        '1',
        '--report-dir',
        'r',
        '--max-restarts',
        '2',
      ],
      { cwd, env: { MODE: 'crash', BAD: 'lf' } },
    );
    expect(r.code).toBe(3);
    const json = results(join(cwd, 'r'));
    expect(json.stopped).toEqual({
      kind: 'gave-up',
      reason: 'the testee was restarted 2 times (--max-restarts 2); it is not restarted again',
      notRun: expect.any(Number),
    });
    // three crashes: two restarts, and the third is not restarted; each crash stays its case's error
    const crashed = json.cases
      .filter((c) => c.ops.some((o) => o.message.includes('exited with code 3')))
      .map((c) => c.id);
    expect(crashed.length).toBeGreaterThanOrEqual(2);
    expect(crashed.every((id) => id.includes('lf'))).toBe(true);
    expect(json.cases.filter((c) => !c.id.includes('lf')).length).toBeGreaterThan(0);
    expect((readFileSync(join(cwd, 'r', 'run.log'), 'utf8').match(/exited with code 3/g) ?? []).length).toBe(3);
    expect(json.stopped?.notRun).toBeGreaterThan(0);
  });

  it.each([
    [['--give-up-after', '0'], '--give-up-after must be a positive integer, not "0"'],
    [['--max-restarts=-1'], '--max-restarts must be 0 or a positive integer, not "-1"'],
    [['--max-restarts', 'many'], '--max-restarts must be an integer, not "many"'],
  ])('%j → exit 2', async (flags, message) => {
    const r = await run(['run', ...flags, '--no-reports'], { cwd: tmp() });
    expect(r).toEqual({ code: 2, stdout: '', stderr: `pgv2kit run: ${message}\nsee pgv2kit run --help\n` });
  });
});

describe.concurrent('a signal stops fuzz --testee, as a real process', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: the testee group goes with the kit, the seed is printed, exit %i',
    async (signal, code) => {
      // fuzzing has begun (the testee answered start) when the first line is out
      const { exit, stdout, stderr, pid, aliveAtSignal } = await signalKit(
        signal,
        tmp(),
        (testee) => ['fuzz', '--testee', testee, '--seed', '5', '--time', '60', '--json'],
        join(ROOT, 'examples/node-adapter/adapter.mjs'),
        {
          ready: (output) => output.includes('fuzzing authorization.parse'),
        },
      );
      // --json: its one document says the fuzzing was interrupted (issue 25, item 5)
      expect(JSON.parse(stdout)).toEqual({
        seed: 5,
        exitCode: code,
        interrupted: `interrupted by ${signal}`,
        finding: null,
      });
      expect(aliveAtSignal).toBe(true);
      expect(exit).toBe(code);
      expect(stderr).toContain(`pgv2kit fuzz: ${signal}: stopped (seed 5; no finding so far)`);
      const gone = Date.now() + 2000;
      while (alive(pid) && Date.now() < gone) await new Promise((r) => setTimeout(r, 20));
      expect(alive(pid)).toBe(false);
    },
    30_000,
  );
});

describe.concurrent('a signal stops certify, as a real process', () => {
  it('SIGINT: exit 130, the reports of what ran and the one --json document say NOT CERTIFIED, interrupted', async () => {
    const cwd = tmp();
    // a merchant that answers every call after 300 ms (401): the certification is under way for seconds
    const server = createServer((_req, res) => void setTimeout(() => res.writeHead(401).end('no'), 300));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const kit = await startKit(
        ['certify', '--notify-url', `${url}/n`, '--return-url', `${url}/r`, '--report-dir', 'r', '--json'],
        cwd,
        { PGV2_APP_ID: 'app-1', PGV2_APP_SECRET: 'stop-early-secret-1' },
        (output) => output.includes('certifying'),
      );
      await new Promise((r) => setTimeout(r, 700));
      const { exit, stdout, stderr } = await kit.signal('SIGINT');
      expect(exit, stderr).toBe(130);
      const doc = JSON.parse(stdout) as Record<string, unknown>;
      expect(doc).toMatchObject({ verdict: 'NOT CERTIFIED', exitCode: 130 });
      expect(doc['reasons']).toEqual(
        expect.arrayContaining([expect.stringMatching(/^interrupted by SIGINT: \d+ of the checks did not run$/)]),
      );
      const json = results(join(cwd, 'r'));
      expect(json.stopped).toMatchObject({ kind: 'interrupted', reason: 'interrupted by SIGINT' });
      expect(readFileSync(join(cwd, 'r', 'certification.md'), 'utf8')).toContain('NOT CERTIFIED');
    } finally {
      server.close();
      server.closeAllConnections();
    }
  }, 30_000);
});
