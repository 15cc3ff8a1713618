/**
 * What every run-shaped command (run, merge) does after its reports: the `--junit` file, the
 * Markdown summary appended to `$GITHUB_STEP_SUMMARY` when it is set, and with `--json` the one
 * summary line on stdout — from the run's report model, so a merged run says it as one run would.
 * @module
 */
import { appendFileSync, closeSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../atomic-file.js';
import { fileSystemReason } from '../file-errors.js';
import { junitFromModel, runSummaryFromModel, stepSummaryFromModel, type ReportModel } from '../reports/index.js';
import { checkWritableFile, resolvePath } from './_files.js';
import type { JsonOutput } from './_json-output.js';
import { UsageError } from './command.js';
import { EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';

/**
 * The `--junit` file, checked before the run: its folder made when missing (as pytest's
 * --junitxml), then it must be writable.
 * @param junit - the option's value, or undefined
 * @param cwd - the folder it is relative to
 * @returns the absolute path, or undefined
 * @throws {UsageError} when it cannot be written
 */
export function prepareJunit(junit: string | undefined, cwd: string): string | undefined {
  if (junit === undefined) return undefined;
  const path = resolvePath(cwd, junit);
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch {
    /* said next, in words */
  }
  checkWritableFile(path, '--junit');
  if (!isOwnJunit(path))
    throw new UsageError(
      `--junit ${path} exists and is not a JUnit report pgv2kit wrote: it is never overwritten; ` +
        'remove it or give another file',
    );
  return path;
}

/**
 * Whether a --junit path may be (over)written: missing, empty, or a JUnit report of this kit's (its root says
 * `<testsuites name="pgv2kit …`): a file of the user's is never replaced (issue 25, item 3).
 */
function isOwnJunit(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return true;
  }
  try {
    const head = Buffer.alloc(4096);
    const n = readSync(fd, head, 0, head.length, 0);
    return n === 0 || /<testsuites name="pgv2kit[ "]/.test(head.subarray(0, n).toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

/**
 * After a run's reports: the --junit file, the job summary, the --json line.
 * @param name - the command, for messages (`run`, `merge`)
 * @param io - the command's io (with --json, its stdout is stderr)
 * @param emit - prints the --json summary
 * @param r - the run's model, its exit code so far, where the reports went, the --junit path, the secrets
 * @returns the exit code: 3 when the --junit file (checked before) could not be written now
 */
export function concludeRun(
  name: string,
  io: CliIo,
  emit: JsonOutput['emit'],
  r: {
    readonly model: ReportModel;
    readonly code: number;
    readonly reportsDir: string | undefined;
    readonly junitPath: string | undefined;
    readonly secrets: readonly string[];
  },
): number {
  let code = r.code;
  if (r.junitPath) {
    try {
      writeFileAtomic(r.junitPath, junitFromModel(r.model, r.secrets));
    } catch (e) {
      io.stderr(`pgv2kit ${name}: --junit ${r.junitPath} could not be written: ${fileSystemReason(e) ?? String(e)}\n`);
      code = EXIT.failure;
    }
  }
  const summaryFile = io.env['GITHUB_STEP_SUMMARY'];
  if (summaryFile) {
    try {
      appendFileSync(summaryFile, stepSummaryFromModel(r.model, r.secrets, r.reportsDir));
    } catch (e) {
      io.stderr(
        `pgv2kit ${name}: warning: the job summary ($GITHUB_STEP_SUMMARY, ${summaryFile}) could not be written: ` +
          `${fileSystemReason(e) ?? String(e)}\n`,
      );
    }
  }
  // the JUnit XML a CI step can pick up: the --junit file, else the one in the report folder
  emit(
    runSummaryFromModel(r.model, r.secrets, {
      exitCode: code,
      reportsDir: r.reportsDir ?? null,
      junit: r.junitPath ?? (r.reportsDir ? join(r.reportsDir, 'junit.xml') : null),
    }),
  );
  return code;
}
