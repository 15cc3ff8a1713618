/**
 * writeReports when the disk fails mid-write (report.html cannot be written after
 * three files were): no temporary folder is left, an existing report folder keeps
 * its old content, and no new folder appears.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReportWriteError, writeReports } from '../../src/reports/write.js';
import { fixtureRun, SECRETS } from './_fixture.js';

const failing = vi.hoisted(() => ({ file: '', opened: [] as string[], renameFrom: '' }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof real.open = async (path, ...rest) => {
    failing.opened.push(String(path));
    if (failing.file && String(path).endsWith(failing.file))
      throw Object.assign(new Error('EIO: simulated write failure'), { code: 'EIO' });
    return real.open(path, ...rest);
  };
  const rename: typeof real.rename = async (from, to) => {
    if (failing.renameFrom && String(from).includes(failing.renameFrom))
      throw Object.assign(new Error('EXDEV: simulated rename failure'), { code: 'EXDEV' });
    return real.rename(from, to);
  };
  return { ...real, default: { ...real, open, rename }, open, rename };
});

afterEach(() => {
  failing.file = '';
  failing.opened = [];
  failing.renameFrom = '';
});

describe('writeReports, failing mid-write', () => {
  it('removes the temporary folder and creates no report folder', async () => {
    const base = mkdtempSync(join(tmpdir(), 'pgv2kit-reports-'));
    failing.file = 'report.html';
    const error = await writeReports(fixtureRun(), { dir: join(base, 'out'), secrets: SECRETS }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ReportWriteError);
    expect((error as ReportWriteError).cause).toMatchObject({ code: 'EIO' });
    expect(failing.opened.map((p) => p.split('/').pop())).toEqual([
      'junit.xml',
      'results.json',
      'report.md',
      'report.html',
    ]);
    expect(readdirSync(base)).toEqual([]);
  });

  it('leaves an existing report folder as it was', async () => {
    const base = mkdtempSync(join(tmpdir(), 'pgv2kit-reports-'));
    const dir = join(base, 'out');
    mkdirSync(dir);
    writeFileSync(join(dir, 'junit.xml'), 'OLD');
    failing.file = 'run.log';
    await expect(writeReports(fixtureRun(), { dir, secrets: SECRETS })).rejects.toBeInstanceOf(ReportWriteError);
    expect(readdirSync(base)).toEqual(['out']);
    expect(readdirSync(dir)).toEqual(['junit.xml']);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toBe('OLD');
  });

  it('puts the old report folder back when the new one cannot be renamed into place', async () => {
    const base = mkdtempSync(join(tmpdir(), 'pgv2kit-reports-'));
    const dir = join(base, 'out');
    mkdirSync(dir);
    writeFileSync(join(dir, 'junit.xml'), 'OLD');
    failing.renameFrom = '.out.tmp-';
    await expect(writeReports(fixtureRun(), { dir, secrets: SECRETS })).rejects.toMatchObject({
      code: 'PGV2_REPORT_WRITE',
      cause: { code: 'EXDEV' },
    });
    expect(readdirSync(base)).toEqual(['out']);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toBe('OLD');
  });
});
