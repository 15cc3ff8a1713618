/**
 * Where a command writes its reports, checked before it runs anything: `--report-dir`, or
 * `reports/<--run-name>`, must be a report folder or creatable; without either, the name comes
 * from the run and `reports/` itself is checked. A wrong folder is a usage error (exit 2), found
 * before the first case, not after the last. A folder named before the run is locked for the
 * command (src/reports/lock.ts): a second run into it while the first runs is refused (exit 2,
 * naming the pid that holds it).
 * @module
 */
import { join } from 'node:path';
import { safeName } from '../safe-name.js';
import { lockReportFolder } from '../reports/lock.js';
import { checkReportDir, checkReportsRoot } from '../reports/write.js';
import { resolvePath } from './_files.js';
import type { CommandContext } from './command.js';

/**
 * The report folder the options name, checked, and locked until the command ends.
 * @param values - `--report-dir` and `--run-name` as given
 * @param command - the command's name, io (working folder, stderr for a note) and `atEnd` (the lock's release)
 * @param extra - files the command writes beside the reports (certify's pages)
 * @returns the folder, or undefined when the run will name it (under `<cwd>/reports`)
 * @throws {UsageError} naming the folder and the problem, or the pid of the run holding it
 */
export function checkedReportFolder(
  values: { readonly 'report-dir'?: string | undefined; readonly 'run-name'?: string | undefined },
  command: {
    readonly name: string;
    readonly io: Pick<CommandContext['io'], 'cwd' | 'stderr'>;
    readonly atEnd: CommandContext['atEnd'];
  },
  extra: readonly string[] = [],
): string | undefined {
  const { cwd } = command.io;
  const dir = values['report-dir']
    ? resolvePath(cwd, values['report-dir'])
    : values['run-name']
      ? join(cwd, 'reports', values['run-name'])
      : undefined;
  // a folder refused (ReportWriteError) or in use (ReportFolderLockError) is a usage error (exit 2)
  if (dir) checkReportDir(dir, extra);
  else checkReportsRoot(join(cwd, 'reports'));
  // only a folder that passed the check is locked: the lock file is never written into one refused
  if (dir) {
    const lock = lockReportFolder(dir);
    command.atEnd(() => lock.release());
    if (lock.tookOverFrom !== undefined)
      command.io.stderr(
        `pgv2kit ${command.name}: note: the report folder ${lock.dir} was locked by pid ${lock.tookOverFrom}, ` +
          'which is no longer running: taken over\n',
      );
  }
  return dir;
}

/**
 * A run name as the name of its default report folder (`reports/<run name>`): one path segment whatever the name
 * says — a shard's runName and an implementation's name come from files and testees the kit does not control
 * (`x/../../elsewhere` would leave reports/) — of at most 100 characters ({@link safeName}).
 * @param runName - the run's name
 * @returns the folder name
 * @example reportFolderName('my-sdk-20240611-101500') // 'my-sdk-20240611-101500'
 * @example reportFolderName('x/../../victim') // 'x-..-..-victim'
 */
export function reportFolderName(runName: string): string {
  return safeName(runName, 'run', 100);
}
