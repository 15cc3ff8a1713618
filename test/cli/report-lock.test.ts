/**
 * Two runs into one report folder (issue 20, item 8): the folder named before the run (--report-dir,
 * reports/<--run-name>) is locked for the command by a file holding its pid; a second run into it
 * while the first runs is refused (exit 2, the folder and the pid named); a lock whose process is
 * gone is taken over with a note; the lock is never left behind (a normal end, a usage error after
 * it was taken, a signal) and never written into a folder the kit refused. Real processes, real
 * files: the first run is the real binary, waiting on a testee that never answers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { alive, tempFolders } from '../_support.js';
import { run } from './_run.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'pgv2kit.js');
const LOCK = '.pgv2kit.lock';
const REPORT_FILES = ['junit.xml', 'report.html', 'report.md', 'results.json', 'run.log'];
const ONE_CASE = ['--only', 'signature.final-lf-missing', '--no-properties'];
const tmp = tempFolders('pgv2kit-lock-');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

/** A process that runs until killed, and one that has ended (its pid free). */
function sleeper(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  return child;
}
function endedPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

/** Polls until `check` holds, at most `ms`. */
async function until(check: () => boolean, ms = 20_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

describe('a report folder in use', () => {
  it('is refused while the process named in its lock runs: exit 2, the folder and the pid, nothing written', async () => {
    const dir = join(tmp(), 'r');
    mkdirSync(dir);
    const holder = sleeper();
    writeFileSync(join(dir, LOCK), `${holder.pid}\n`);
    const r = await run(['run', ...ONE_CASE, '--report-dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `pgv2kit run: the report folder ${dir} is in use by another pgv2kit (pid ${holder.pid}): wait for it to end or choose another --report-dir (its lock: ${join(dir, LOCK)})\nsee pgv2kit run --help\n`,
    );
    expect(readdirSync(dir)).toEqual([LOCK]);
    expect(readFileSync(join(dir, LOCK), 'utf8')).toBe(`${holder.pid}\n`);
  });

  it.each([
    ['certify', ['certify', '--run-name', 'c']],
    ['merge', ['merge', 'no-such-shard', '--run-name', 'c']],
  ])('%s shares it (reports/<--run-name>)', async (_, argv) => {
    const cwd = tmp();
    const dir = join(cwd, 'reports', 'c');
    mkdirSync(dir, { recursive: true });
    const holder = sleeper();
    writeFileSync(join(dir, LOCK), `${holder.pid}\n`);
    const r = await run(argv, { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the report folder ${dir} is in use by another pgv2kit (pid ${holder.pid})`);
  });

  it('a lock naming no process is refused, saying which file to remove', async () => {
    const dir = join(tmp(), 'r');
    mkdirSync(dir);
    writeFileSync(join(dir, LOCK), 'garbage');
    const r = await run(['run', ...ONE_CASE, '--report-dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `the report folder ${dir} is locked by ${join(dir, LOCK)}, which names no process: remove it if no pgv2kit is writing there`,
    );
  });

  it('a stale lock (its process gone) is taken over with a note; the run ends with the reports and no lock', async () => {
    const dir = join(tmp(), 'r');
    mkdirSync(dir);
    const pid = endedPid();
    expect(alive(pid)).toBe(false);
    writeFileSync(join(dir, LOCK), `${pid}\n`);
    const r = await run(['run', ...ONE_CASE, '--report-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `pgv2kit run: note: the report folder ${dir} was locked by pid ${pid}, which is no longer running: taken over\n`,
    );
    expect(readdirSync(dir).sort()).toEqual(REPORT_FILES);
  });

  it('two runs one after the other into one folder: both run, no lock left', async () => {
    const cwd = tmp();
    for (let i = 0; i < 2; i++) {
      const r = await run(['run', ...ONE_CASE, '--run-name', 'twice'], { cwd });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('note:');
      expect(readdirSync(join(cwd, 'reports', 'twice')).sort()).toEqual(REPORT_FILES);
    }
  });

  it('a folder the kit refuses gets no lock', async () => {
    const dir = join(tmp(), 'mine');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'my own file');
    const r = await run(['run', ...ONE_CASE, '--report-dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not a report folder');
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  });

  it('a usage error after the lock was taken leaves nothing: the folder the lock made is removed', async () => {
    const cwd = tmp();
    const r = await run(['run', ...ONE_CASE, '--module', './no-such-module.mjs', '--report-dir', 'deep/r'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no-such-module.mjs');
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('two real runs into one folder', () => {
  it("the second is refused naming the first one's pid; SIGTERM to the first removes its lock and the folder it made", async () => {
    const cwd = tmp();
    const dir = join(cwd, 'r');
    // a testee that never answers the handshake (and ends when its stdin closes): the first run waits for it
    const testee = `"${process.execPath}" -e "process.stdin.resume(); process.stdin.on('end', () => process.exit(0))"`;
    const first = spawn(
      process.execPath,
      [BIN, 'run', '--testee', testee, '--timeout', '60', ...ONE_CASE, '--report-dir', dir],
      { cwd, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(first);
    let stderr = '';
    first.stderr?.on('data', (c: Buffer) => void (stderr += c.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      first.on('close', (code, signal) => resolve({ code, signal })),
    );
    expect(await until(() => existsSync(join(dir, LOCK))), stderr).toBe(true);
    expect(readFileSync(join(dir, LOCK), 'utf8')).toBe(`${first.pid}\n`);

    const second = spawnSync(process.execPath, [BIN, 'run', ...ONE_CASE, '--report-dir', dir], {
      cwd,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(second.status).toBe(2);
    expect(second.stderr).toContain(
      `pgv2kit run: the report folder ${dir} is in use by another pgv2kit (pid ${first.pid})`,
    );
    expect(readdirSync(dir)).toEqual([LOCK]);

    first.kill('SIGTERM');
    expect((await exited).signal).toBe('SIGTERM');
    expect(existsSync(dir)).toBe(false);
  }, 60_000);
});
