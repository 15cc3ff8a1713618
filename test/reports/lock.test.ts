/**
 * The report folder's lock (src/reports/lock.ts) on its own, in real folders: what it makes and
 * removes, a folder held by this process, a lock that cannot be made, a lock replaced by another
 * process's (never removed by this one), and the report files around it (the write replaces the
 * folder, lock and all; a report folder holding a lock is still a report folder). The CLI's use
 * (two runs, a stale lock, a signal) is in test/cli/report-lock.test.ts.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockReportFolder, REPORT_LOCK_FILE, ReportFolderLockError } from '../../src/reports/lock.js';
import { checkReportDir, REPORT_FILES, writeReports } from '../../src/reports/write.js';
import { tempFolders } from '../_support.js';
import { fixtureRun, SECRETS } from './_fixture.js';

const tmp = tempFolders('pgv2kit-lock-unit-');

describe('lockReportFolder', () => {
  it('makes the missing folders and the lock (this pid); release removes the lock and the folders it made, once', () => {
    const root = tmp();
    const dir = join(root, 'a', 'b');
    const lock = lockReportFolder(dir);
    expect(lock).toMatchObject({ dir, tookOverFrom: undefined });
    expect(readFileSync(join(dir, REPORT_LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
    lock.release();
    expect(readdirSync(root)).toEqual([]);
    lock.release();
    expect(readdirSync(root)).toEqual([]);
  });

  it('a folder it did not make stays; a folder this process holds is refused, as held by this process', () => {
    const dir = tmp();
    const lock = lockReportFolder(dir);
    try {
      expect(() => lockReportFolder(dir)).toThrow(
        `the report folder ${dir} is in use by this process: wait for it to end or choose another --report-dir`,
      );
    } finally {
      lock.release();
    }
    expect(existsSync(dir)).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a lock replaced by another process's is left to it", () => {
    const dir = tmp();
    const lock = lockReportFolder(dir);
    writeFileSync(join(dir, REPORT_LOCK_FILE), '4194303\n');
    lock.release();
    expect(readFileSync(join(dir, REPORT_LOCK_FILE), 'utf8')).toBe('4194303\n');
  });

  it('several folders held at once, each released on its own; its exit and signal listeners go with the last', () => {
    const [a, b] = [tmp(), tmp()];
    const listeners = ['exit', 'SIGINT', 'SIGTERM'].map((e) => process.listenerCount(e));
    const first = lockReportFolder(a);
    const second = lockReportFolder(b);
    expect(['exit', 'SIGINT', 'SIGTERM'].map((e) => process.listenerCount(e))).toEqual(listeners.map((n) => n + 1));
    expect([existsSync(join(a, REPORT_LOCK_FILE)), existsSync(join(b, REPORT_LOCK_FILE))]).toEqual([true, true]);
    first.release();
    expect([existsSync(join(a, REPORT_LOCK_FILE)), existsSync(join(b, REPORT_LOCK_FILE))]).toEqual([false, true]);
    second.release();
    expect(existsSync(join(b, REPORT_LOCK_FILE))).toBe(false);
    expect(['exit', 'SIGINT', 'SIGTERM'].map((e) => process.listenerCount(e))).toEqual(listeners);
  });

  it.each(['0\n', '', '12 34\n', '-5\n'])('a lock file holding %j names no process: refused, left as it is', (text) => {
    const dir = tmp();
    writeFileSync(join(dir, REPORT_LOCK_FILE), text);
    expect(() => lockReportFolder(dir)).toThrow(/which names no process: remove it if no pgv2kit is writing there/);
    expect(readFileSync(join(dir, REPORT_LOCK_FILE), 'utf8')).toBe(text);
  });

  it('a folder that cannot be made: the error names it', () => {
    const root = tmp();
    writeFileSync(join(root, 'file'), '');
    const error = (() => {
      try {
        lockReportFolder(join(root, 'file', 'r'));
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ReportFolderLockError);
    expect(error).toMatchObject({
      code: 'PGV2_REPORT_FOLDER_LOCKED',
      pid: undefined,
      message: expect.stringMatching(/^cannot lock the report folder .*\/file\/r: /),
    });
  });
});

describe('the lock and the report files', () => {
  it('a report folder holding the lock is still a report folder: checked, written (the lock goes with the old folder), files listed without it', async () => {
    const dir = join(tmp(), 'r');
    const lock = lockReportFolder(dir);
    expect(() => checkReportDir(dir)).not.toThrow();
    const { files } = await writeReports(fixtureRun(), { dir, secrets: SECRETS });
    expect(files).toEqual([...REPORT_FILES]);
    expect(readdirSync(dir).sort()).toEqual([...REPORT_FILES].sort());
    lock.release();
    expect(readdirSync(dir).sort()).toEqual([...REPORT_FILES].sort());
  });

  it('a folder with a file of its own beside the lock is not a report folder', () => {
    const dir = tmp();
    mkdirSync(join(dir, 'r'));
    writeFileSync(join(dir, 'r', REPORT_LOCK_FILE), '1\n');
    writeFileSync(join(dir, 'r', 'notes.txt'), '');
    expect(() => checkReportDir(join(dir, 'r'))).toThrow(
      /is not a report folder \(only junit\.xml, results\.json, report\.md, report\.html, run\.log, shard\.json may be in it\)/,
    );
  });
});
