/**
 * A report folder held by the command that will write it: a lock file in the folder
 * ({@link REPORT_LOCK_FILE}, holding the pid), made with O_EXCL when the folder is checked
 * before the run, so that a second run into the same folder is refused instead of the two
 * replacing each other's reports. Released when the command ends, however it ends (its end,
 * an error, `process.exit`, a signal nothing else handles); a lock whose process is no
 * longer running is stale and is taken over. The reports' own write replaces the folder and
 * the lock with it (the files it writes never include the lock).
 * @module
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Pgv2kitError } from '../errors.js';

/** The lock file's name in a report folder: never a report file, allowed in a report folder. */
export const REPORT_LOCK_FILE = '.pgv2kit.lock';

/**
 * A report folder could not be locked: in use by a running process (`pid`), or the lock could
 * not be made (`pid` undefined, the cause given).
 * @example
 * const lock = lockReportFolder(`${tmp}/r`);
 * const second = (() => {
 *   try {
 *     return lockReportFolder(`${tmp}/r`);
 *   } catch (e) {
 *     return e;
 *   } finally {
 *     lock.release();
 *   }
 * })();
 * second instanceof ReportFolderLockError // true
 */
export class ReportFolderLockError extends Pgv2kitError {
  /** Stable code for programs. */
  override readonly code = 'PGV2_REPORT_FOLDER_LOCKED';
  /** A usage error (exit 2). */
  override readonly exit = 'usage';
  override readonly name = 'ReportFolderLockError';
  /** The report folder. */
  readonly dir: string;
  /** The process holding it, when one does. */
  readonly pid: number | undefined;

  /**
   * @param dir - the report folder
   * @param message - what is wrong
   * @param pid - the process holding it
   */
  constructor(dir: string, message: string, pid?: number) {
    super(message);
    this.dir = dir;
    this.pid = pid;
  }
}

/** A held report folder. */
export interface ReportFolderLock {
  /** The report folder (absolute). */
  readonly dir: string;
  /** The pid named by a stale lock this one replaced (that process was no longer running). */
  readonly tookOverFrom: number | undefined;
  /**
   * Removes the lock when it is still this process's, and the folder when the lock made it and
   * it is still empty. Never throws; a second call does nothing.
   */
  release(): void;
}

/**
 * Locks a report folder for this process, making the folder (and its missing parents) when it
 * does not exist.
 * @param dir - the report folder, checked already (`checkReportDir`)
 * @returns the lock
 * @throws {ReportFolderLockError} when a running process holds the folder (its pid named), when
 *   the lock file names no process, or when the lock cannot be made
 * @example const lock = lockReportFolder(`${tmp}/nightly`); lock.release();
 */
export function lockReportFolder(dir: string): ReportFolderLock {
  const target = resolve(dir);
  const file = join(target, REPORT_LOCK_FILE);
  let made: string | undefined;
  try {
    made = mkdirSync(target, { recursive: true });
  } catch (e) {
    throw new ReportFolderLockError(target, `cannot lock the report folder ${target}: ${(e as Error).message}`);
  }
  const removeMade = (): void => removeEmpty(target, made);
  let tookOverFrom: number | undefined;
  try {
    tookOverFrom = takeLock(target, file);
  } catch (e) {
    removeMade();
    throw e;
  }
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    HELD.delete(release);
    if (HELD.size === 0) watchProcess(false);
    try {
      if (holderOf(file) === process.pid) unlinkSync(file);
    } catch {
      // gone already: the reports' write replaced the folder
    }
    removeMade();
  };
  if (HELD.size === 0) watchProcess(true);
  HELD.add(release);
  return { dir: target, tookOverFrom, release };
}

// --- internal ---

/** The releases of the locks this process holds. */
const HELD = new Set<() => void>();

/** Makes the lock file; returns the pid of a stale lock it replaced. */
function takeLock(dir: string, file: string): number | undefined {
  let stale: number | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      try {
        writeSync(fd, `${process.pid}\n`);
      } catch (e) {
        // a lock that names no process would hold the folder for good: none is left
        closeSync(fd);
        unlinkSync(file);
        throw e;
      }
      closeSync(fd);
      // two runs taking over one stale lock at once: the one whose lock is there holds it
      const now = holderOf(file);
      if (now === process.pid) return stale;
      if (now === null) continue;
      throw inUse(dir, file, now);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        if (e instanceof ReportFolderLockError) throw e;
        throw new ReportFolderLockError(dir, `cannot lock the report folder ${dir}: ${(e as Error).message}`);
      }
    }
    const holder = holderOf(file);
    if (holder === null) continue; // removed meanwhile: try again
    if (holder === undefined || isRunning(holder)) throw inUse(dir, file, holder);
    stale = holder;
    try {
      unlinkSync(file);
    } catch {
      // removed meanwhile: try again
    }
  }
  throw inUse(dir, file, holderOf(file) ?? undefined);
}

function inUse(dir: string, file: string, pid: number | undefined): ReportFolderLockError {
  if (pid === undefined)
    return new ReportFolderLockError(
      dir,
      `the report folder ${dir} is locked by ${file}, which names no process: ` +
        'remove it if no pgv2kit is writing there, or choose another --report-dir',
    );
  const who = pid === process.pid ? 'this process' : `another pgv2kit (pid ${pid})`;
  return new ReportFolderLockError(
    dir,
    `the report folder ${dir} is in use by ${who}: ` +
      `wait for it to end or choose another --report-dir (its lock: ${file})`,
    pid,
  );
}

/** The pid a lock file names: null when there is no file, undefined when it names none. */
function holderOf(file: string): number | null | undefined {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
  const m = /^(\d{1,10})\n?$/.exec(text);
  const pid = m ? Number(m[1]) : 0;
  return pid > 0 ? pid : undefined;
}

/** Whether a process runs with this pid (EPERM: it does, as another user's). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Removes `dir` and its parents up to `made` (the first folder the lock made), while empty. */
function removeEmpty(dir: string, made: string | undefined): void {
  if (made === undefined) return;
  for (let d = dir; ; d = dirname(d)) {
    try {
      if (readdirSync(d).length > 0) return;
      rmdirSync(d);
    } catch {
      return;
    }
    if (d === made || dirname(d) === d) return;
  }
}

/** Releases every lock when the process exits, and on a signal nothing else handles (then dies of it). */
function watchProcess(on: boolean): void {
  for (const signal of SIGNALS) (on ? process.on : process.off).call(process, signal, onSignal);
  (on ? process.on : process.off).call(process, 'exit', releaseAll);
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function releaseAll(): void {
  for (const release of [...HELD]) release();
}

function onSignal(signal: NodeJS.Signals): void {
  // the command handles it (a run stops, writes its reports and ends, releasing)
  if (process.listenerCount(signal) > 1) return;
  releaseAll();
  process.kill(process.pid, signal);
}
