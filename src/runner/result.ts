/**
 * The result of a conformance run, as data: what the reports are written from.
 * @module
 */
import type { CaseOutcome, OpOutcome } from '../checks/outcome.js';
import type { Operation } from '../protocol/operations.js';
import type { Implementation, Json } from '../subjects/subject.js';
import type { OperationCoverage } from './coverage.js';
import type { UnknownOperation } from './unknown-operations.js';
import { VECTOR_KINDS } from '../roles/registry.js';
import type { ExpectedResult, VectorKind } from '../vectors/types.js';
import type { Diagnosis } from '../diagnosis/diagnosis.js';
import type { CounterexampleVector } from '../vectors/counterexample.js';

/**
 * A case's verdict in the run, after the expected-failure list is applied:
 * a listed failure is `expected-failure` (does not fail the run); a listed case that
 * passes is `unexpected-pass` (fails the run until the list is updated). A `partial`
 * case (some steps did not run) is never counted as passed, and does not fail the run.
 */
export type Verdict = 'passed' | 'failed' | 'error' | 'partial' | 'skipped' | 'expected-failure' | 'unexpected-pass';

/**
 * Titles and meanings of each verdict, for output and reports.
 * @example VERDICT_INFO.failed.failsRun // true
 */
export const VERDICT_INFO: Record<
  Verdict,
  { readonly title: string; readonly failsRun: boolean; readonly description: string }
> = {
  passed: {
    title: 'passed',
    failsRun: false,
    description: 'Behaved as the case expects (acceptable cases: either way, the choice recorded).',
  },
  failed: { title: 'FAILED', failsRun: true, description: 'Not conformant on this case.' },
  error: {
    title: 'ERROR',
    failsRun: true,
    description: 'The implementation crashed, hung, or answered outside the protocol.',
  },
  partial: {
    title: 'partial',
    failsRun: false,
    description:
      'Some steps passed, others did not run (an operation the implementation does not offer): not counted as passed.',
  },
  skipped: {
    title: 'skipped',
    failsRun: false,
    description: 'No step ran: the implementation does not offer the operations the case needs.',
  },
  'expected-failure': {
    title: 'expected failure',
    failsRun: false,
    description: 'Failed, and listed in the expected-failure file.',
  },
  'unexpected-pass': {
    title: 'UNEXPECTED PASS',
    failsRun: true,
    description: 'Listed as an expected failure but passed: update the list (--update-expect-failures).',
  },
};

export type { Diagnosis } from '../diagnosis/diagnosis.js';
export { COUNTEREXAMPLE_AREAS, type CounterexampleKind, type CounterexampleVector } from '../vectors/counterexample.js';

/** An operation's outcome with its diagnosis. */
export interface OpResult extends OpOutcome {
  readonly diagnosis?: readonly Diagnosis[];
  /**
   * For a refusal of a valid case (one bit, not diagnosed): the known mistakes that could explain it, their content for
   * the case differing from the right one (src/diagnosis/refusal-causes.ts); the triage joins it to the group of one of
   * them diagnosed elsewhere in the run.
   */
  readonly couldExplain?: readonly string[];
  /** Milliseconds from request to answer. */
  readonly durationMs: number;
  /**
   * What the implementation was sent (protocol v1 input: the header to parse, the request to verify), kept for a step
   * that failed or errored.
   */
  readonly input?: Json;
}

/** The kinds of a run's cases: the vector kinds, and the properties. */
export type CaseKind = VectorKind | 'property';

/**
 * @deprecated the word is kind (CONTRIBUTING.md's Words): {@link CaseKind}
 */
export type CaseArea = CaseKind;

/** Every kind, in report order. */
export const RUN_KINDS: readonly CaseKind[] = [...VECTOR_KINDS, 'property'];

/** What a property case records beyond a vector case's fields. */
export interface PropertyRecord {
  readonly seed: number;
  /** Inputs judged (up to the failure). */
  readonly runs: number;
  /** On failure: `<seed>:<path>`, for `--replay <id>=<seed>:<path>`. */
  readonly replay?: string;
  readonly shrinks?: number;
  /** On failure: the shrunk input, as data. */
  readonly counterexample?: Json;
  /**
   * On failure, when the counterexample can be written as a vector case (`pgv2kit run --save`): what the case needs.
   */
  readonly asVector?: CounterexampleVector;
}

/** One case in the run. */
export interface CaseResult extends Omit<CaseOutcome, 'ops' | 'kind'> {
  readonly kind: CaseKind;
  /** Set for a property case: its seed, runs and, on failure, the shrunk counterexample. */
  readonly property?: PropertyRecord;
  readonly comment: string;
  readonly spec: readonly string[];
  readonly readings: readonly string[];
  readonly flags: readonly string[];
  readonly result: ExpectedResult;
  readonly ops: readonly OpResult[];
  readonly verdict: Verdict;
  /** The reason given in the expected-failure list, when the case is listed. */
  readonly listedReason?: string;
  readonly durationMs: number;
}

/** What was run against what. */
export interface RunTarget {
  readonly kind: 'reference' | 'module' | 'testee' | 'gateway' | 'merchant';
  /** The module path or the testee command (as given), or "built-in reference". */
  readonly description: string;
  /**
   * An SDK run against a given gateway (`run --testee X --gateway URL`): the command or module as given (the
   * description then says where the client cases ran), and the gateway's base URL — what a reproduce line needs.
   */
  readonly command?: string;
  readonly clientGateway?: string;
}

/** Why a run stopped before every selected case ran. */
export type StopKind = 'interrupted' | 'max-failures' | 'deadline' | 'gave-up';

/**
 * Each way a run can stop early: its title in the reports, its banner in the summary line, how
 * JUnit records it (an `error` no CI shows green, or `skipped` for a stop the user asked for),
 * and whether the run ends in exit 3 (the run itself failed: what did not run did not pass).
 * @example STOP_INFO.deadline.title // 'Deadline passed'
 */
export const STOP_INFO: Record<
  StopKind,
  { readonly title: string; readonly banner: string; readonly junit: 'error' | 'skipped'; readonly runFailed: boolean }
> = {
  interrupted: { title: 'Interrupted', banner: 'INTERRUPTED', junit: 'error', runFailed: false },
  'max-failures': { title: 'Stopped early', banner: 'STOPPED', junit: 'skipped', runFailed: false },
  deadline: { title: 'Deadline passed', banner: 'DEADLINE PASSED', junit: 'error', runFailed: true },
  'gave-up': { title: 'Testee given up', banner: 'TESTEE GIVEN UP', junit: 'error', runFailed: true },
};

/** Why a run stopped before every selected case ran; the cases not run are not in the run at all. */
export interface RunStopped {
  /**
   * `interrupted`: a signal (exit 130 or 143); `max-failures`: --max-failures (or --bail) reached;
   * `deadline`: --deadline passed; `gave-up`: the testee failed --give-up-after requests in a row
   * or was restarted --max-restarts times, and is not restarted again (exit 3 for both).
   */
  readonly kind: StopKind;
  /** In words, e.g. `interrupted by SIGINT` or `3 cases failed (--max-failures 3)`. */
  readonly reason: string;
  /** Selected cases (and properties) that did not run. */
  readonly notRun: number;
}

/**
 * Why a run ended before any case ran: the testee could not start, or an HTTP target could not be reached (exit 3
 * both).
 */
export type AbortKind = 'testee-start' | 'target-unreachable';

/**
 * Each way a run can end before any case ran, as the reports say it: the title of the box at the
 * top, the summary's banner, what the subject line adds, what `command` holds, and the JUnit
 * testcase that records it as an `<error>`.
 * @example ABORT_INFO['target-unreachable'].title // 'The target could not be reached'
 */
export const ABORT_INFO: Record<
  AbortKind,
  {
    readonly title: string;
    readonly banner: string;
    readonly subjectNote: string;
    readonly commandLabel: string;
    readonly testcase: string;
  }
> = {
  'testee-start': {
    title: 'The testee could not start',
    banner: 'TESTEE COULD NOT START',
    subjectNote: 'the testee could not start',
    commandLabel: 'command',
    testcase: 'testee.start',
  },
  'target-unreachable': {
    title: 'The target could not be reached',
    banner: 'TARGET NOT REACHED',
    subjectNote: 'not reached',
    commandLabel: 'URL',
    testcase: 'run.target-unreachable',
  },
};

/** Why a run ended before any case ran, and what is known of it (texts unmasked: reports mask them). */
export interface RunAborted {
  readonly kind: AbortKind;
  /**
   * One line, e.g. `the testee exited with code 2 before it was ready` or `the gateway at http://… cannot be reached:
   * connection refused (127.0.0.1:9)`.
   */
  readonly message: string;
  /** The testee command, as given; for `target-unreachable`, the URL not reached. */
  readonly command: string;
  /** Its exit code, or null (ended by a signal, never ran, or not a testee). */
  readonly exitCode: number | null;
  /** The signal that ended it, or null. */
  readonly signal: string | null;
  /**
   * How it ended, in words, e.g. `exited with code 127 (the shell found no such command)` or `not reached: connection
   * refused (127.0.0.1:9)`.
   */
  readonly ended: string;
  /** The last lines it wrote to stderr (none for a target not reached). */
  readonly stderrTail: readonly string[];
}

/** Counts per verdict. */
export type Totals = Record<Verdict, number>;

/** A whole run. */
export interface RunResult {
  readonly runName: string;
  readonly kit: { readonly name: string; readonly version: string };
  /** SHA-256 of the vector files (names the exact vector set). */
  readonly vectorSetHash: string;
  readonly implementation: Implementation;
  readonly target: RunTarget;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  /** The selection: --only / --skip patterns, as given. */
  readonly selection: { readonly only: readonly string[]; readonly skip: readonly string[] };
  readonly cases: readonly CaseResult[];
  readonly totals: Totals;
  /**
   * Set when the run ended before any case ran: the testee could not start, or a target could not be reached (exit 3).
   * No case counts as passed.
   */
  readonly aborted?: RunAborted;
  /** The run's log: testee restarts, stderr lines (secrets masked), protocol problems. */
  readonly log: readonly string[];
  /** Expected-failure entries whose case was not in the run (for the update). */
  readonly staleListEntries: readonly string[];
  /** The operations the implementation offers (absent when no implementation answered, e.g. an aborted run). */
  readonly offered?: readonly Operation[];
  /** Per operation: offered or not, steps run, passed, failed, not run (absent: none). */
  readonly operations?: readonly OperationCoverage[];
  /** Operation names the implementation advertised that protocol v1 does not know (absent: none). */
  readonly unknownOperations?: readonly UnknownOperation[];
  /** Set when no step ran (`no test ran: …`): the run proves nothing and fails (exit 1). */
  readonly noTestRan?: string;
  /**
   * Set when the run stopped before every case ran: interrupted (Ctrl-C, SIGTERM), `--max-failures` reached,
   * `--deadline` passed or the testee given up on.
   */
  readonly stopped?: RunStopped;
  /**
   * Selected cases left out because every operation they need is kit-internal and the target
   * does not offer it (upload.formCheck, gateway.*: the reference's and the gateway role's,
   * never a testee's). They are not the target's to pass or fail (absent: none).
   */
  readonly otherTargets?: { readonly cases: number; readonly operations: readonly Operation[] };
  /**
   * Set for one shard of a run split across jobs (`--shard <i>/<n>`): which, and every id the
   * whole run selected, in run order (what `pgv2kit merge` orders and checks the shards by).
   */
  readonly shard?: { readonly index: number; readonly count: number; readonly ids: readonly string[] };
}

/**
 * Whether a run's verdicts pass: none fails the run. (A run in which no step ran
 * passes no verdict check but proves nothing: see {@link runConformant}.)
 * @param totals - the run's totals
 * @returns true when nothing failed, errored or passed unexpectedly
 * @example
 * runPassed({
 *   passed: 3,
 *   failed: 0,
 *   error: 0,
 *   partial: 0,
 *   skipped: 1,
 *   'expected-failure': 1,
 *   'unexpected-pass': 0,
 * }) // true
 */
export function runPassed(totals: Totals): boolean {
  return (Object.keys(totals) as Verdict[]).every((v) => !VERDICT_INFO[v].failsRun || totals[v] === 0);
}

/**
 * Whether a run is conformant: some step ran, every selected case ran (it did not stop early), and no verdict fails the
 * run. Partial
 * and skipped cases do not fail it (a verifier-only SDK is not failed for not signing).
 * @param run - the run
 * @returns true for exit 0
 * @example
 * runConformant({
 *   totals: run.totals,
 *   noTestRan: 'no test ran: the implementation offers no operations',
 * }) // false
 */
export function runConformant(run: Pick<RunResult, 'totals' | 'noTestRan' | 'stopped'>): boolean {
  return run.noTestRan === undefined && run.stopped === undefined && runPassed(run.totals);
}
