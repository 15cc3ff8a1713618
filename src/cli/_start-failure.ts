/**
 * A run that could not begin, as the CLI reports it: a testee that could not start (one message
 * on stderr: the command, how it ended, the last lines of its stderr) or a target not reached
 * (one line), and, for `pgv2kit run`, a run with no case that every report shows as such. Exit 3.
 * @module
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describeEnd, formatStartFailure, type TesteeStartError, type TesteeStartFailure } from '../protocol/testee.js';
import { ReportWriteError, writeReports } from '../reports/write.js';
import type { RunAborted, RunResult, RunTarget } from '../runner/result.js';
import { countVerdicts, defaultRunName } from '../runner/run.js';
import { shellQuote } from '../shell-quote.js';
import { KIT_NAME, kitVersion } from '../version.js';
import type { CliIo } from './io.js';
import { TargetUnreachableError } from './_reach.js';
import { reportFolderName } from './_report-folder.js';

/**
 * The facts of a start failure, also for an error built without them.
 * @param e - the error
 * @param command - the testee command, as given
 * @returns the failure
 * @example
 * try {
 *   await createTesteeSubject({ command: 'false', timeoutMs: 5000 });
 * } catch (e) {
 *   startFailure(e, 'false').reason;
 * }
 */
export function startFailure(e: TesteeStartError, command: string): TesteeStartFailure {
  return (
    e.failure ?? {
      kind: 'exit',
      reason: e.message,
      command,
      exitCode: null,
      signal: null,
      killedByKit: false,
      stderrTail: [],
    }
  );
}

/**
 * Prints a start failure on stderr: `pgv2kit <command>: the testee could not start: …`
 * and the facts, one a line (the io masks secrets), and a hint when the command line holds a
 * path with a space the shell split ({@link splitPathHint}).
 * @param io - the command's io (its working folder is the testee's)
 * @param name - the command's name, e.g. `run`
 * @param failure - the failure
 * @example
 * try {
 *   await createTesteeSubject({ command: 'false', timeoutMs: 5000 });
 * } catch (e) {
 *   printStartFailure(io, 'run', startFailure(e, 'false'));
 * }
 */
export function printStartFailure(io: Pick<CliIo, 'stderr' | 'cwd'>, name: string, failure: TesteeStartFailure): void {
  const hint = splitPathHint(failure.command, io.cwd);
  io.stderr(`pgv2kit ${name}: ${formatStartFailure(failure)}${hint !== undefined ? `  hint:    ${hint}\n` : ''}`);
}

/**
 * Whether a testee's command line names a path with a space unquoted: a word that is no file
 * or folder, which joined with the words after it (as written) is one. The shell that runs the
 * command line (`sh -c`) split it, so the testee was given two arguments that name nothing.
 * @param command - the command line, as given to --testee
 * @param cwd - the folder it runs in (relative paths)
 * @returns the hint with the command line mended, or undefined when no such word is found
 * @example
 * import { mkdirSync, writeFileSync } from 'node:fs';
 * mkdirSync(`${tmp}/my dir`); writeFileSync(`${tmp}/my dir/a.py`, '');
 * const hint = splitPathHint('python3 my dir/a.py', tmp);
 * hint // 'the command line is run by a shell (sh -c), which split "my dir/a.py" at its spaces: …'
 * hint?.endsWith(`: quote the path inside it: --testee 'python3 "my dir/a.py"'`) // true
 */
export function splitPathHint(command: string, cwd: string): string | undefined {
  const words = [...command.matchAll(/\S+/g)]
    .slice(0, MAX_WORDS)
    .map((m) => ({ start: m.index, end: m.index + m[0].length }));
  for (const [i, first] of words.entries()) {
    if (isPath(command.slice(first.start, first.end), cwd)) continue;
    // the longest such join: `/tmp/a b c/x.py` whole, not its folder `/tmp/a b`
    for (const last of words.slice(i + 1).reverse()) {
      const path = command.slice(first.start, last.end);
      if (!isPath(path, cwd)) continue;
      // inside the command line: in double quotes when nothing in it is special there, else in single quotes
      const quoted = /["$`\\!]/.test(path) ? shellQuote(path) : `"${path}"`;
      const mended = `${command.slice(0, first.start)}${quoted}${command.slice(last.end)}`;
      return (
        `the command line is run by a shell (sh -c), which split ${JSON.stringify(path)} at its spaces: ` +
        `quote the path inside it: --testee ${shellQuote(mended)}`
      );
    }
  }
  return undefined;
}

/** What a run that ended before any case knows of itself. */
export interface AbortedRunFacts {
  /** Why: a testee that did not start, or a target not reached. */
  readonly failure: TesteeStartFailure | TargetUnreachableError;
  readonly vectorSetHash: string;
  readonly target: RunTarget;
  readonly selection: { readonly only: readonly string[]; readonly skip: readonly string[] };
  readonly startedAt: Date;
  readonly finishedAt: Date;
  readonly log: readonly string[];
  readonly runName?: string;
  /**
   * The run's shard, when it was one (its reports then hold shard.json: pgv2kit merge says the shard did not
   * start).
   */
  readonly shard?: NonNullable<RunResult['shard']>;
}

/**
 * A run in which no case ran because the testee could not start or a target could not be
 * reached: no case, no verdict, `aborted` set (reports render it at the top; it never counts
 * as passed).
 * @param facts - {@link AbortedRunFacts}
 * @returns the run
 */
export function abortedRun(facts: AbortedRunFacts): RunResult {
  const f = facts.failure;
  const aborted: RunAborted =
    f instanceof TargetUnreachableError
      ? {
          kind: 'target-unreachable',
          message: f.message,
          command: f.url,
          exitCode: null,
          signal: null,
          ended: `not reached: ${f.reason}`,
          stderrTail: [],
        }
      : {
          kind: 'testee-start',
          message: f.reason,
          command: f.command,
          exitCode: f.exitCode,
          signal: f.signal,
          ended: describeEnd(f),
          stderrTail: [...f.stderrTail],
        };
  const why = f instanceof TargetUnreachableError ? f.message : `the testee could not start (${f.reason})`;
  const logged = f instanceof TargetUnreachableError ? f.message : `the testee could not start: ${f.reason}`;
  return {
    runName:
      facts.runName ??
      defaultRunName(f instanceof TargetUnreachableError ? facts.target.kind : 'testee', facts.startedAt),
    kit: { name: KIT_NAME, version: kitVersion() },
    vectorSetHash: facts.vectorSetHash,
    implementation: { name: 'unknown', version: 'unknown', language: 'unknown' },
    target: facts.target,
    startedAt: facts.startedAt.toISOString(),
    finishedAt: facts.finishedAt.toISOString(),
    durationMs: facts.finishedAt.getTime() - facts.startedAt.getTime(),
    selection: { only: [...facts.selection.only], skip: [...facts.selection.skip] },
    cases: [],
    totals: countVerdicts([]),
    aborted,
    log: [...facts.log, `${facts.finishedAt.toISOString()} ${logged}`],
    staleListEntries: [],
    offered: [],
    operations: [],
    unknownOperations: [],
    noTestRan: `no test ran: ${why}`,
    ...(facts.shard ? { shard: facts.shard } : {}),
  };
}

/**
 * `pgv2kit run` when no case could run: the message, then the reports of a run with no
 * case saying why (the testee could not start, a target could not be reached). A report
 * folder that cannot be written is said too; the exit code is 3 either way.
 * @param io - the command's io
 * @param facts - the run's facts
 * @param reports - where to write them (`dir` absent: `reports/<run name>` under cwd), or undefined for --no-reports
 * @returns 3 (EXIT.failure), the run as the reports have it, and where they went (undefined: not written)
 */
export async function reportAbortedRun(
  io: CliIo,
  facts: AbortedRunFacts,
  reports: { readonly dir?: string; readonly secrets: readonly string[] } | undefined,
): Promise<{ code: 3; run: RunResult; dir: string | undefined }> {
  if (facts.failure instanceof TargetUnreachableError) io.stderr(`pgv2kit run: ${facts.failure.message}\n`);
  else printStartFailure(io, 'run', facts.failure);
  const run = abortedRun(facts);
  let dir: string | undefined;
  if (reports) {
    try {
      dir = (
        await writeReports(run, {
          dir: reports.dir ?? join(io.cwd, 'reports', reportFolderName(run.runName)),
          secrets: reports.secrets,
        })
      ).dir;
      io.stdout(`reports: ${dir}\n`);
    } catch (e) {
      if (!(e instanceof ReportWriteError)) throw e;
      io.stderr(`pgv2kit run: ${e.message}\n`);
    }
  }
  return { code: 3, run, dir };
}

// --- internal ---

/** The words of a command line looked at for a split path (each joined with those after it). */
const MAX_WORDS = 64;

function isPath(path: string, cwd: string): boolean {
  try {
    statSync(resolve(cwd, path));
    return true;
  } catch {
    return false;
  }
}
