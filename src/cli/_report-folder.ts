/**
 * Where a command writes its reports, checked before it runs anything: `--report-dir`, or
 * `reports/<--run-name>`, must be a report folder or creatable; without either, the name comes
 * from the run and `reports/` itself is checked. A wrong folder is a usage error (exit 2), found
 * before the first case, not after the last.
 * @module
 */
import { join } from 'node:path';
import { checkReportDir, checkReportsRoot, ReportWriteError } from '../reports/write.js';
import { resolvePath } from './_files.js';
import { UsageError } from './command.js';

/**
 * The report folder the options name, checked.
 * @param values - `--report-dir` and `--run-name` as given
 * @param cwd - the working folder
 * @param extra - files the command writes beside the reports (certify's pages)
 * @returns the folder, or undefined when the run will name it (under `<cwd>/reports`)
 * @throws {UsageError} naming the folder and the problem
 */
export function checkedReportFolder(values: { readonly 'report-dir'?: string | undefined; readonly 'run-name'?: string | undefined }, cwd: string, extra: readonly string[] = []): string | undefined {
  const dir = values['report-dir'] ? resolvePath(cwd, values['report-dir']) : values['run-name'] ? join(cwd, 'reports', values['run-name']) : undefined;
  try {
    if (dir) checkReportDir(dir, extra);
    else checkReportsRoot(join(cwd, 'reports'));
  } catch (e) {
    if (e instanceof ReportWriteError) throw new UsageError(e.message);
    throw e;
  }
  return dir;
}
