/**
 * Writes a run's report folder atomically: everything into a sibling temporary
 * folder, then renamed into place; never a half-written report folder.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { accessSync, constants, lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import * as fs from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { RunResult } from '../runner/result.js';
import { buildModel, type ReportModel } from './_model.js';
import { redactorFor } from './redact.js';
import { htmlFromModel } from './html.js';
import { junitFromModel } from './junit.js';
import { markdownFromModel } from './markdown.js';
import { resultsJsonFromModel } from './results-json.js';
import { SHARD_FILE, shardFileText } from './merge.js';
import { REPORT_LOCK_FILE } from './lock.js';
import { Pgv2kitError } from '../errors.js';

/**
 * The files of a report folder, in the order they are written.
 * @example REPORT_FILES.includes('report.html') // true
 */
export const REPORT_FILES = ['junit.xml', 'results.json', 'report.md', 'report.html', 'run.log'] as const;

/**
 * A report folder could not be written; nothing was left half-written.
 * @example
 * import { mkdirSync, writeFileSync } from 'node:fs';
 * mkdirSync(`${tmp}/mine`); writeFileSync(`${tmp}/mine/notes.txt`, 'mine');
 * await writeReports(run, {
 *   dir: `${tmp}/mine`,
 *   secrets: [],
 * }) // throws ReportWriteError — a folder of other files is never replaced
 */
export class ReportWriteError extends Pgv2kitError {
  /** Stable code for scripts. */
  override readonly code = 'PGV2_REPORT_WRITE';
  /** A usage error (exit 2). */
  override readonly exit = 'usage';
  override readonly name = 'ReportWriteError';
  /** The report folder that was to be written. */
  readonly path: string;
  override readonly cause: unknown;

  /**
   * @param path - the report folder
   * @param message - what failed
   * @param cause - the underlying error
   */
  constructor(path: string, message: string, cause?: unknown) {
    super(`cannot write the report folder ${path}: ${message}${cause instanceof Error ? ` (${cause.message})` : ''}`, {
      cause,
    });
    this.path = path;
    this.cause = cause;
  }
}

/** Options of {@link writeReports}. */
export interface WriteOptions {
  /** The report folder (its parent is created when missing). */
  readonly dir: string;
  /** Texts masked in every file: the app secrets the run knows. */
  readonly secrets: readonly string[];
  /**
   * More files written with the reports, in the same folder and the same atomic step (a role's own
   * page: `pgv2kit certify`'s certification.html), written as given: the caller renders them from
   * data it masked first (a rendered page is never masked as text). Their names are report files
   * of this folder too.
   */
  readonly extra?: ReadonlyArray<{ readonly name: string; readonly content: string }>;
}

/**
 * Writes junit.xml, results.json, report.md, report.html and run.log into `dir`, and the
 * `extra` files given.
 *
 * The files are rendered and written into a temporary folder beside `dir`
 * (`.<name>.tmp-<random>`), flushed, and the folder is then renamed to `dir`. An
 * existing `dir` is replaced only once the new folder is complete, and only when it
 * is a report folder (it holds nothing but report files): the kit never deletes a
 * folder it did not write. On any error the temporary folder is removed, an existing
 * report folder is left as it was, and a {@link ReportWriteError} is thrown.
 *
 * Secrets are masked in every file (see {@link toResultsJson}); run.log is the run's
 * log lines, masked.
 * @param run - the run
 * @param options - {@link WriteOptions}
 * @returns the folder (absolute) and the names of the files written
 * @throws {ReportWriteError} when the folder cannot be written (code `PGV2_REPORT_WRITE`)
 * @example const { dir, files } = await writeReports(run, { dir: `${tmp}/latest`, secrets: [appSecret] });
 */
export async function writeReports(run: RunResult, options: WriteOptions): Promise<{ dir: string; files: string[] }> {
  let model: ReportModel;
  try {
    model = buildModel(run, options.secrets);
  } catch (e) {
    throw new ReportWriteError(resolve(options.dir), 'rendering or writing the reports failed', e);
  }
  return writeModelReports(model, options);
}

/**
 * {@link writeReports} from a report model (what `pgv2kit merge` builds from the shards' models):
 * the same files, written the same way.
 * @param model - the run's model, every text masked
 * @param options - {@link WriteOptions}
 * @returns the folder (absolute) and the names of the files written
 * @throws {ReportWriteError} when the folder cannot be written
 */
export async function writeModelReports(
  model: ReportModel,
  options: WriteOptions,
): Promise<{ dir: string; files: string[] }> {
  const target = resolve(options.dir);
  const parent = dirname(target);
  const name = basename(target);
  if (name === '' || parent === target) throw new ReportWriteError(target, 'not a folder that can be replaced');
  const extra = options.extra ?? [];
  // a shard's folder holds its model too (pgv2kit merge reads it); a folder of either kind may be replaced
  const names = [...REPORT_FILES, SHARD_FILE, ...extra.map((f) => f.name)];
  const badName = extra.find(
    (f) => !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(f.name) || (REPORT_FILES as readonly string[]).includes(f.name),
  );
  if (badName) throw new ReportWriteError(target, `${JSON.stringify(badName.name)} cannot be an extra report file`);
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const temp = join(parent, `.${name}.tmp-${suffix}`);
  const old = join(parent, `.${name}.old-${suffix}`);
  let tempMade = false;
  let moved = false;
  try {
    const existing = await folderState(target, names);
    if (existing === 'other')
      throw new ReportWriteError(
        target,
        `it exists and is not a report folder (only ${names.join(', ')} may be in it); ` +
          'remove it or choose another folder',
      );
    await fs.mkdir(parent, { recursive: true });
    await fs.mkdir(temp);
    tempMade = true;
    const { secrets } = options;
    const contents: Record<(typeof REPORT_FILES)[number], () => string> = {
      'junit.xml': () => junitFromModel(model, secrets),
      'results.json': () => `${JSON.stringify(resultsJsonFromModel(model, secrets), null, 2)}\n`,
      'report.md': () => markdownFromModel(model, secrets),
      'report.html': () => htmlFromModel(model, secrets),
      'run.log': () => logText(model, secrets),
    };
    for (const file of REPORT_FILES) await writeFlushed(join(temp, file), contents[file]());
    if (model.shard) await writeFlushed(join(temp, SHARD_FILE), shardFileText(model));
    // rendered by the caller from masked data: never rewritten here (a rendered page is not masked as text)
    for (const file of extra) await writeFlushed(join(temp, file.name), file.content);
    if (existing === 'report') {
      await fs.rename(target, old);
      moved = true;
    }
    await fs.rename(temp, target);
    tempMade = false;
    if (moved) await fs.rm(old, { recursive: true, force: true }).catch(() => undefined);
    return { dir: target, files: [...REPORT_FILES, ...(model.shard ? [SHARD_FILE] : []), ...extra.map((f) => f.name)] };
  } catch (e) {
    if (tempMade) await fs.rm(temp, { recursive: true, force: true }).catch(() => undefined);
    if (moved) await fs.rename(old, target).catch(() => undefined);
    if (e instanceof ReportWriteError) throw e;
    throw new ReportWriteError(target, 'rendering or writing the reports failed', e);
  }
}

/**
 * Checks, before a run, that a report folder can be written where `writeReports` will write it:
 * missing (its nearest existing ancestor a folder this process may write in), or a report
 * folder already (only report files in it). So a wrong `--report-dir` is found before any
 * case runs, not after.
 * @param dir - the report folder
 * @param extra - names of the extra files the run will write beside the reports
 * @throws {ReportWriteError} naming the folder and the problem
 * @example checkReportDir(`${tmp}/latest`)
 */
export function checkReportDir(dir: string, extra: readonly string[] = []): void {
  const target = resolve(dir);
  const names = [...new Set([...REPORT_FILES, SHARD_FILE, ...extra])];
  const stat = statOrUndefined(target, true);
  if (stat) {
    if (!stat.isDirectory())
      throw new ReportWriteError(target, 'it exists and is not a folder; choose another --report-dir');
    if (!readdirSync(target).every((f) => isReportFile(f, names)))
      throw new ReportWriteError(
        target,
        `it exists and is not a report folder (only ${names.join(', ')} may be in it); ` +
          'remove it or choose another folder',
      );
  }
  checkCanCreate(target, dirname(target));
}

/**
 * Checks, before a run, the folder the run's report folder will be made in when its name comes
 * from the run (`reports/` of the working folder): a folder, or missing with a writable ancestor.
 * @param root - the folder, e.g. `<cwd>/reports`
 * @throws {ReportWriteError} naming the folder and the problem
 * @example checkReportsRoot(join(process.cwd(), 'reports'))
 */
export function checkReportsRoot(root: string): void {
  const target = resolve(root);
  checkCanCreate(target, target);
}

// --- internal ---

/** The nearest existing folder at or above `from` is a folder this process may write in. */
function checkCanCreate(target: string, from: string): void {
  let ancestor = from;
  while (!statOrUndefined(ancestor) && dirname(ancestor) !== ancestor) ancestor = dirname(ancestor);
  if (!statOrUndefined(ancestor)?.isDirectory()) throw new ReportWriteError(target, `${ancestor} is not a folder`);
  try {
    accessSync(ancestor, constants.W_OK);
  } catch {
    throw new ReportWriteError(target, `${ancestor} cannot be written to`);
  }
}

function statOrUndefined(path: string, link = false): Stats | undefined {
  try {
    return link ? lstatSync(path) : statSync(path);
  } catch {
    return undefined;
  }
}

/** A file a report folder may hold: a report file, or the lock of the run that will write it (lock.ts). */
function isReportFile(name: string, names: readonly string[]): boolean {
  return names.includes(name) || name === REPORT_LOCK_FILE;
}

async function folderState(path: string, names: readonly string[]): Promise<'missing' | 'report' | 'other'> {
  let stat;
  try {
    stat = await fs.lstat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw e;
  }
  if (!stat.isDirectory()) return 'other';
  const entries = await fs.readdir(path);
  return entries.every((f) => isReportFile(f, names)) ? 'report' : 'other';
}

async function writeFlushed(path: string, text: string): Promise<void> {
  const handle = await fs.open(path, 'wx');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * run.log: the run's log lines as plain text, one a line, each masked as data (they come masked from the model;
 * this is the safety net, with the same masker).
 * @param model - the run's model
 * @param secrets - texts to mask
 * @returns the file's text
 * @example
 * import { buildModel } from './_model.js';
 * logText({ ...buildModel(run, []), log: ['started', 'ended'] }, []) // 'started\nended\n'
 */
export function logText(model: ReportModel, secrets: readonly string[]): string {
  const redactor = redactorFor(secrets);
  return model.log.map((l) => `${redactor.text(l)}\n`).join('');
}
