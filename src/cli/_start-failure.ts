/**
 * A testee that could not start, as the CLI reports it: one message on stderr (the
 * command, how it ended, the last lines of its stderr) and, for `pgv2kit run`, a run
 * with no case that every report shows as "the testee could not start". Exit 3.
 * @module
 */
import { join } from 'node:path';
import { describeEnd, formatStartFailure, type TesteeStartError, type TesteeStartFailure } from '../protocol/testee.js';
import { ReportWriteError, writeReports } from '../reports/write.js';
import type { RunAborted, RunResult, RunTarget } from '../runner/result.js';
import { countVerdicts, defaultRunName } from '../runner/run.js';
import { KIT_NAME, kitVersion } from '../version.js';
import type { CliIo } from './io.js';

/**
 * The facts of a start failure, also for an error built without them.
 * @param e - the error
 * @param command - the testee command, as given
 * @returns the failure
 * @example startFailure(e, values.testee).reason
 */
export function startFailure(e: TesteeStartError, command: string): TesteeStartFailure {
  return e.failure ?? { kind: 'exit', reason: e.message, command, exitCode: null, signal: null, killedByKit: false, stderrTail: [] };
}

/**
 * Prints a start failure on stderr: `pgv2kit <command>: the testee could not start: …`
 * and the facts, one a line (the io masks secrets).
 * @param io - the command's io
 * @param name - the command's name, e.g. `run`
 * @param failure - the failure
 * @example printStartFailure(io, 'fuzz', startFailure(e, values.testee))
 */
export function printStartFailure(io: Pick<CliIo, 'stderr'>, name: string, failure: TesteeStartFailure): void {
  io.stderr(`pgv2kit ${name}: ${formatStartFailure(failure)}`);
}

/** What a run that could not start knows of itself. */
export interface AbortedRunFacts {
  readonly failure: TesteeStartFailure;
  readonly vectorSetHash: string;
  readonly target: RunTarget;
  readonly selection: { readonly only: readonly string[]; readonly skip: readonly string[] };
  readonly startedAt: Date;
  readonly finishedAt: Date;
  readonly log: readonly string[];
  readonly runName?: string;
}

/**
 * A run in which no case ran because the testee could not start: no case, no
 * verdict, `aborted` set (reports render it at the top; it never counts as passed).
 * @param facts - {@link AbortedRunFacts}
 * @returns the run
 * @example writeReports(abortedRun({ failure, vectorSetHash: set.hash, … }), { dir, secrets })
 */
export function abortedRun(facts: AbortedRunFacts): RunResult {
  const f = facts.failure;
  const aborted: RunAborted = { kind: 'testee-start', message: f.reason, command: f.command, exitCode: f.exitCode, signal: f.signal, ended: describeEnd(f), stderrTail: [...f.stderrTail] };
  return {
    runName: facts.runName ?? defaultRunName('testee', facts.startedAt),
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
    log: [...facts.log, `${facts.finishedAt.toISOString()} the testee could not start: ${f.reason}`],
    staleListEntries: [],
    ...nothingRan(f.reason),
  };
}

/** The coverage of a run in which nothing ran: no operation offered, none covered, and why no test ran. */
function nothingRan(reason: string): { offered: []; operations: []; unknownOperations: []; noTestRan: string } {
  return { offered: [], operations: [], unknownOperations: [], noTestRan: `no test ran: the testee could not start (${reason})` };
}

/**
 * `pgv2kit run` after a failed start: the message, then the reports of a run with no
 * case saying the testee could not start. A report folder that cannot be written is
 * said too; the exit code is 3 either way.
 * @param io - the command's io
 * @param facts - the run's facts
 * @param reports - where to write them (`dir` absent: `reports/<run name>` under cwd), or undefined for --no-reports
 * @returns 3 (EXIT.failure)
 */
export async function reportStartFailure(io: CliIo, facts: AbortedRunFacts, reports: { readonly dir?: string; readonly secrets: readonly string[] } | undefined): Promise<3> {
  printStartFailure(io, 'run', facts.failure);
  if (reports) {
    const run = abortedRun(facts);
    try {
      const written = await writeReports(run, { dir: reports.dir ?? join(io.cwd, 'reports', run.runName), secrets: reports.secrets });
      io.stdout(`reports: ${written.dir}\n`);
    } catch (e) {
      if (!(e instanceof ReportWriteError)) throw e;
      io.stderr(`pgv2kit run: ${e.message}\n`);
    }
  }
  return 3;
}
