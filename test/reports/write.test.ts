/**
 * writeReports: the five files, written atomically; an existing report folder
 * replaced whole; nothing left behind on failure; a folder that is not a report
 * folder never replaced.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPORT_FILES, ReportWriteError, writeReports } from '../../src/reports/write.js';
import { fixtureRun, SECRETS } from './_fixture.js';

const scratch = (): string => mkdtempSync(join(tmpdir(), 'pgv2kit-reports-'));

describe('writeReports', () => {
  it('writes junit.xml, results.json, report.md, report.html and run.log, and leaves no temporary folder', async () => {
    const base = scratch();
    const { dir, files } = await writeReports(fixtureRun(), { dir: join(base, 'out'), secrets: SECRETS });
    expect(dir).toBe(join(base, 'out'));
    expect(files).toEqual([...REPORT_FILES]);
    expect(readdirSync(dir).sort()).toEqual([...REPORT_FILES].sort());
    expect(readdirSync(base)).toEqual(['out']);
    expect(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'))).toMatchObject({
      schemaVersion: 2,
      runName: 'nightly',
    });
    expect(readFileSync(join(dir, 'run.log'), 'utf8').split('\n')).toHaveLength(fixtureRun().log.length + 1);
  });

  it('creates a missing parent folder', async () => {
    const base = scratch();
    const { dir } = await writeReports(fixtureRun(), { dir: join(base, 'a', 'b', 'out'), secrets: SECRETS });
    expect(readdirSync(dir)).toHaveLength(REPORT_FILES.length);
  });

  it('replaces an existing report folder whole', async () => {
    const base = scratch();
    const dir = join(base, 'out');
    mkdirSync(dir);
    writeFileSync(join(dir, 'junit.xml'), 'OLD');
    writeFileSync(join(dir, 'run.log'), 'OLD');
    await writeReports(fixtureRun({ runName: 'second' }), { dir, secrets: SECRETS });
    expect(readdirSync(dir).sort()).toEqual([...REPORT_FILES].sort());
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('name="pgv2kit second"');
    expect(readFileSync(join(dir, 'run.log'), 'utf8')).not.toContain('OLD');
    expect(readdirSync(base)).toEqual(['out']);
  });

  it('fails with a ReportWriteError when the parent is a file, leaving no folder and no temporary folder', async () => {
    const base = scratch();
    writeFileSync(join(base, 'parent'), 'a file');
    const dir = join(base, 'parent', 'out');
    const error = await writeReports(fixtureRun(), { dir, secrets: SECRETS }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportWriteError);
    expect(error).toMatchObject({ code: 'PGV2_REPORT_WRITE', path: dir });
    expect((error as ReportWriteError).cause).toMatchObject({ code: 'ENOTDIR' });
    expect(readdirSync(base)).toEqual(['parent']);
  });

  it('refuses to replace a folder that holds anything but report files, and leaves it as it was', async () => {
    const base = scratch();
    const dir = join(base, 'home');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    writeFileSync(join(dir, 'junit.xml'), 'OLD');
    await expect(writeReports(fixtureRun(), { dir, secrets: SECRETS })).rejects.toThrow(/not a report folder/);
    expect(readdirSync(dir).sort()).toEqual(['junit.xml', 'notes.txt']);
    expect(readdirSync(base)).toEqual(['home']);
  });

  it('refuses a path that is a file, and the file system root', async () => {
    const base = scratch();
    writeFileSync(join(base, 'file'), 'x');
    await expect(writeReports(fixtureRun(), { dir: join(base, 'file'), secrets: SECRETS })).rejects.toBeInstanceOf(
      ReportWriteError,
    );
    expect(readFileSync(join(base, 'file'), 'utf8')).toBe('x');
    await expect(writeReports(fixtureRun(), { dir: '/', secrets: SECRETS })).rejects.toMatchObject({
      code: 'PGV2_REPORT_WRITE',
    });
  });

  it('fails with a ReportWriteError when a report cannot be rendered, leaving nothing behind', async () => {
    const base = scratch();
    const broken = { ...fixtureRun(), cases: [{ ...fixtureRun().cases[0]!, ops: null }] } as unknown as ReturnType<
      typeof fixtureRun
    >;
    await expect(writeReports(broken, { dir: join(base, 'out'), secrets: SECRETS })).rejects.toBeInstanceOf(
      ReportWriteError,
    );
    expect(readdirSync(base)).toEqual([]);
  });
});
