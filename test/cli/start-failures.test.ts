/**
 * A testee that fails at start ends the run loudly: the real `pgv2kit` binary (a child
 * process over dist/) exits 3 — never Node's 13, "unsettled top-level await" — prints
 * the command, how the testee ended and its stderr's last lines (secrets masked), and
 * `run` still writes every report, saying the testee could not start. `fuzz` says the same for
 * each way of failing in process (main, as the binary runs it: a wait left pending fails the test
 * by its timeout), and as the real binary in the secret-masking test.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as inProcess } from './_run.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'pgv2kit.js');
const FIXTURES = 'test/protocol/fixtures/start-failures';
const REPORT_FILES = ['junit.xml', 'results.json', 'report.md', 'report.html', 'run.log'];

/** The secret the testees see in their environment; exit_later.mjs writes it to stderr. */
const SECRET = 'sk_live_StartFail7Qw3Zx9';
/** Its mask, by the rule the kit documents (src/scheme/mask.ts): two characters shown, the rest as stars, the length. */
const MASKED = `sk${'*'.repeat(SECRET.length - 2)} (${SECRET.length} chars)`;

/** What bin/pgv2kit.js prints when a wait was left pending: must never be the way a start failure ends. */
const SAFETY_NET = 'a wait was left pending';

interface Outcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node bin/pgv2kit.js <args>` in the kit's folder, killed after 30 s (it never should be). */
function pgv2kit(args: readonly string[]): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, PGV2_APP_SECRET: SECRET, SDK_SECRET: SECRET, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => void (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => void (stderr += s));
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

interface StartFailureCase {
  readonly name: string;
  readonly command: string;
  /** The reason after `the testee could not start: `. */
  readonly reason: RegExp;
  /** How it ended, after `ended:`. */
  readonly ended: RegExp;
  /** A stderr line of the testee's that must be in the message's tail. */
  readonly tail: RegExp;
  readonly timeout?: string;
}

const CASES: readonly StartFailureCase[] = [
  {
    name: 'a command not on PATH',
    command: 'pgv2kit-no-such-interpreter-xyz adapter.py',
    reason: /the testee exited with code 127 before it was ready/,
    ended: /exited with code 127 \(the shell found no such command\)/,
    tail: /pgv2kit-no-such-interpreter-xyz.*not found/,
  },
  {
    name: 'a missing script',
    command: 'python3 /nonexistent/adapter.py',
    reason: /the testee exited with code 2 before it was ready/,
    ended: /exited with code 2/,
    tail: /\/nonexistent\/adapter\.py.*No such file or directory/,
  },
  {
    name: 'a Python import error',
    command: `python3 ${FIXTURES}/import_error.py`,
    reason: /the testee exited with code 1 before it was ready/,
    ended: /exited with code 1/,
    tail: /ModuleNotFoundError: No module named 'pgv2kit_no_such_module_xyz'/,
  },
  {
    name: 'a Python syntax error',
    command: `python3 ${FIXTURES}/syntax_error.py`,
    reason: /the testee exited with code 1 before it was ready/,
    ended: /exited with code 1/,
    tail: /SyntaxError/,
  },
  {
    name: 'an exit 2 after 300 ms',
    command: `node ${FIXTURES}/exit_later.mjs`,
    reason: /the testee exited with code 2 before it was ready/,
    ended: /exited with code 2/,
    tail: /adapter: cannot reach the SDK/,
  },
  {
    name: 'ready:false',
    command: `node ${FIXTURES}/not_ready.mjs`,
    reason: /the testee is not ready: the SDK needs a licence file/,
    ended: /killed by pgv2kit \(SIGKILL\): it was still running/,
    tail: /adapter: the SDK needs a licence file/,
  },
  {
    name: 'no answer to start',
    command: `node ${FIXTURES}/silent.mjs`,
    reason: /the testee did not answer start within 1000 ms/,
    ended: /killed by pgv2kit \(SIGKILL\): it was still running/,
    tail: /adapter: waiting for something that never comes/,
    timeout: '1',
  },
];

const temps: string[] = [];
afterAll(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

beforeAll(() => {
  // suites/_support/build-dist.ts (vitest global setup) builds dist/ when it is stale
  expect(existsSync(join(ROOT, 'dist', 'cli', 'main.js')), 'dist/cli/main.js is missing: npm run build').toBe(true);
});

/** The message every start failure prints, checked line by line. */
function expectMessage(stderr: string, command: string, c: StartFailureCase): void {
  expect(stderr).not.toContain(SAFETY_NET);
  expect(stderr).toMatch(new RegExp(`^pgv2kit ${command}: the testee could not start: ${c.reason.source}$`, 'm'));
  expect(stderr).toContain(`\n  command: ${c.command}\n`);
  expect(stderr).toMatch(new RegExp(`^  ended: +${c.ended.source}$`, 'm'));
  expect(stderr).toMatch(/^ {2}stderr \(last \d+ lines?\):$/m);
  expect(stderr).toMatch(new RegExp(`^ {4}\\| .*${c.tail.source}`, 'm'));
  // no path with a space split here: no hint about quoting
  expect(stderr).not.toContain('  hint:');
}

describe.concurrent('a testee that fails at start', () => {
  it.each(CASES)(
    '$name: run exits 3 with the message and reports that say so; fuzz exits 3 with the same message',
    async (c) => {
      const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-start-'));
      temps.push(dir);
      const reports = join(dir, 'reports');
      const timeout = ['--timeout', c.timeout ?? '10'];
      // run as the real binary; fuzz in process (the binary's fuzz: the secret-masking test below), where a wait
      // left pending would hang the test until its timeout instead of ending the process with 13
      const [run, fuzz] = await Promise.all([
        pgv2kit(['run', '--testee', c.command, '--report-dir', reports, ...timeout]),
        inProcess(['fuzz', '--testee', c.command, '--runs', '5', ...timeout], {
          cwd: ROOT,
          env: { ...process.env, PGV2_APP_SECRET: SECRET, SDK_SECRET: SECRET, CI: 'true' },
        }),
      ]);

      expect(run.code, run.stderr).toBe(3);
      expectMessage(run.stderr, 'run', c);
      expect(run.stdout).toContain(`reports: ${reports}`);
      for (const f of REPORT_FILES) expect(existsSync(join(reports, f)), f).toBe(true);

      const results = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as {
        conformant: boolean;
        summary: string;
        cases: unknown[];
        totals: { passed: number };
        aborted: {
          kind: string;
          message: string;
          command: string;
          exitCode: number | null;
          signal: string | null;
          stderrTail: string[];
        } | null;
      };
      expect(results.conformant).toBe(false);
      expect(results.cases).toEqual([]);
      expect(results.totals.passed).toBe(0);
      expect(results.summary).toMatch(/^TESTEE COULD NOT START: /);
      expect(results.aborted).toMatchObject({ kind: 'testee-start', command: c.command });
      expect(results.aborted?.message).toMatch(c.reason);
      expect(results.aborted?.stderrTail.some((l) => c.tail.test(l))).toBe(true);
      if (c.name === 'ready:false' || c.name === 'no answer to start')
        expect(results.aborted).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
      else expect(results.aborted?.exitCode).toBe(Number(/code (\d+)/.exec(c.reason.source)?.[1]));

      const junit = readFileSync(join(reports, 'junit.xml'), 'utf8');
      expect(junit).toMatch(/<testsuites [^>]*tests="1" [^>]*errors="1"/);
      expect(junit).toMatch(
        /<testcase name="testee\.start" classname="pgv2kit\.testee"[^>]*>\s*<error message="the testee could not start: [^"]+" type="testee-start">/,
      );
      expect(junit).not.toContain('<testcase name="signature.');
      const md = readFileSync(join(reports, 'report.md'), 'utf8');
      expect(md).toMatch(/^> \*\*The testee could not start\*\*: /m);
      expect(md).toMatch(c.tail);
      const html = readFileSync(join(reports, 'report.html'), 'utf8');
      expect(html).toContain('<section class="aborted" id="aborted"><h2>The testee could not start</h2>');
      // the box says how to fix it, as docs/failures/testee-start.md does; nothing claims to know the implementation, nor gives the no-test-ran fix (the handshake) of a testee that never started
      expect(html).toMatch(
        /<h2>The testee could not start<\/h2><p>[^<]*\. No case ran\.<\/p><div class="explained"><p><strong>How to fix it<\/strong>: Run the command by hand in the same folder and type <code>\{&quot;cmd&quot;:&quot;start&quot;,&quot;protocol&quot;:1\}<\/code>/,
      );
      expect(html).toContain('<dt>Implementation</dt><dd>not known (the testee could not start: no case ran)</dd>');
      for (const text of [html, md]) expect(text).not.toMatch(/unknown unknown|Advertise, in the handshake/);
      expect(readFileSync(join(reports, 'run.log'), 'utf8')).toMatch(/the testee could not start: /);

      expect(fuzz.code, fuzz.stderr).toBe(3);
      expectMessage(fuzz.stderr, 'fuzz', c);
      expect(fuzz.stdout).not.toMatch(/no finding|FINDING/);
    },
    60_000,
  );

  it("masks the run's secrets (PGV2_APP_SECRET) in the testee's stderr, in the message and in every report", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-start-secret-'));
    temps.push(dir);
    const reports = join(dir, 'reports');
    const command = `node ${FIXTURES}/exit_later.mjs`;
    const [run, fuzz] = await Promise.all([
      pgv2kit(['run', '--testee', command, '--report-dir', reports]),
      pgv2kit(['fuzz', '--testee', command, '--runs', '5']),
    ]);
    for (const r of [run, fuzz]) {
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`| adapter: cannot reach the SDK (secret ${MASKED})`);
      expect(r.stderr + r.stdout).not.toContain(SECRET);
    }
    for (const f of REPORT_FILES) {
      const text = readFileSync(join(reports, f), 'utf8');
      expect(text, f).not.toContain(SECRET);
      // nor any 8 characters of it: the reports mask fragments too (src/reports/redact.ts)
      for (let i = 0; i + 8 <= SECRET.length; i++)
        expect(text, `${f}: ${SECRET.slice(i, i + 8)}`).not.toContain(SECRET.slice(i, i + 8));
    }
    expect(readFileSync(join(reports, 'report.md'), 'utf8')).toContain('adapter: cannot reach the SDK (secret sk');
  }, 60_000);
});

describe('bin/pgv2kit.js', () => {
  it('a command whose promise is left pending when the event loop empties exits 3 with a message, never 13', () => {
    // a stand-in for dist/: main awaits only an unref'd timer, the way the old start failure did
    const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-pending-'));
    temps.push(dir);
    mkdirSync(join(dir, 'bin'));
    mkdirSync(join(dir, 'dist', 'cli'), { recursive: true });
    copyFileSync(BIN, join(dir, 'bin', 'pgv2kit.js'));
    writeFileSync(
      join(dir, 'dist', 'cli', 'main.js'),
      'export function processIo() { return {}; }\nexport async function main() { await new Promise((r) => setTimeout(r, 60_000).unref()); return 0; }\n',
    );
    const r = spawnSync(process.execPath, [join(dir, 'bin', 'pgv2kit.js'), 'run'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(3);
    expect(r.stderr).toContain(
      `pgv2kit: internal error: the command stopped before it finished (${SAFETY_NET}); please report it\n`,
    );
  });

  it('a command that settles is not touched by that safety net', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-settled-'));
    temps.push(dir);
    mkdirSync(join(dir, 'bin'));
    mkdirSync(join(dir, 'dist', 'cli'), { recursive: true });
    copyFileSync(BIN, join(dir, 'bin', 'pgv2kit.js'));
    writeFileSync(
      join(dir, 'dist', 'cli', 'main.js'),
      'export function processIo() { return {}; }\nexport async function main() { return 1; }\n',
    );
    const r = spawnSync(process.execPath, [join(dir, 'bin', 'pgv2kit.js')], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('');
  });
});
