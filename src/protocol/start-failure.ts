/**
 * A testee that could not start, as data (what happened, how the process ended, the last
 * lines of its stderr) and as the lines the CLI prints.
 * @module
 */
import { Pgv2kitError } from '../errors.js';

/**
 * Requests a testee may fail in a row (a crash, a hang, a line that is not its answer) before its session gives up on
 * it (`--give-up-after`).
 */
export const DEFAULT_GIVE_UP_AFTER = 10;

/** Restarts in all a testee session makes before it gives up on the testee (`--max-restarts`). */
export const DEFAULT_MAX_RESTARTS = 50;

/**
 * How a testee failed to start: the process could not be spawned, exited, did not answer in time, said it is not ready,
 * or answered outside the protocol.
 */
export type TesteeStartKind = 'spawn' | 'exit' | 'timeout' | 'not-ready' | 'protocol';

/** What is known of a testee that did not start, for the message and the reports. */
export interface TesteeStartFailure {
  readonly kind: TesteeStartKind;
  /** One line, e.g. `the testee exited with code 2 before it was ready`. */
  readonly reason: string;
  /** The command line, as given. */
  readonly command: string;
  /** The exit code, or null when it was ended by a signal or never ran. */
  readonly exitCode: number | null;
  /** The signal that ended it (`SIGKILL` when the kit stopped it), or null. */
  readonly signal: string | null;
  /** True when the process was still running and the kit killed it. */
  readonly killedByKit: boolean;
  /** The last lines it wrote to stderr (at most {@link STDERR_TAIL_LINES}), unmasked. */
  readonly stderrTail: readonly string[];
}

/** How many of a testee's last stderr lines a start failure keeps. */
export const STDERR_TAIL_LINES = 10;

/**
 * The testee could not be started or never became ready (exit code 3).
 * @example await createTesteeSubject({ command: 'exit 3', timeoutMs: 5000 }) // throws TesteeStartError
 */
export class TesteeStartError extends Pgv2kitError {
  override readonly code = 'PGV2_TESTEE_START';
  /** A failure (exit 3). */
  override readonly exit = 'failure';
  override readonly name = 'TesteeStartError';
  /** What is known of the failed start (absent only when constructed by hand). */
  readonly failure: TesteeStartFailure | undefined;
  /**
   * How it failed (Bowtie's StartupFailure / ImplementationNotReady): `not-ready` when the testee said so; `exit` when
   * constructed by hand.
   */
  readonly kind: TesteeStartKind;

  /**
   * @param message - the reason, with the stderr tail on the same line
   * @param failure - the facts behind it
   */
  constructor(message: string, failure?: TesteeStartFailure) {
    super(message);
    this.failure = failure;
    this.kind = failure?.kind ?? 'exit';
  }
}

/**
 * A start failure as the CLI prints it: the reason, the command, how the process
 * ended and the last lines of its stderr, one fact a line. Not masked: print it
 * through an io that masks secrets.
 * @param f - the failure
 * @returns lines ending in LF, the first `the testee could not start: <reason>`
 * @example
 * const e = await createTesteeSubject({ command: 'exit 3', timeoutMs: 5000 }).catch((e) => e);
 * formatStartFailure(
 *   e.failure,
 * ) // 'the testee could not start: the testee exited with code 3 before it was ready\n  command: exit 3\n…'
 */
export function formatStartFailure(f: TesteeStartFailure): string {
  const lines = [`the testee could not start: ${f.reason}`, `  command: ${f.command}`, `  ended:   ${describeEnd(f)}`];
  if (f.stderrTail.length === 0) lines.push('  stderr:  (nothing)');
  else
    lines.push(
      `  stderr (last ${f.stderrTail.length} line${f.stderrTail.length === 1 ? '' : 's'}):`,
      ...f.stderrTail.map((l) => `    | ${l}`),
    );
  return `${lines.join('\n')}\n`;
}

/**
 * How a testee that did not start ended, in words.
 * @param f - the failure
 * @returns e.g. `exited with code 127 (the shell found no such command)` or `killed by pgv2kit (SIGKILL): it was still
 * running`
 * @example describeEnd({ exitCode: 2, signal: null, killedByKit: false, … }) // 'exited with code 2'
 */
export function describeEnd(f: Pick<TesteeStartFailure, 'exitCode' | 'signal' | 'killedByKit' | 'kind'>): string {
  if (f.kind === 'spawn' && f.exitCode === null && f.signal === null) return 'never ran';
  if (f.killedByKit) return `killed by pgv2kit${f.signal ? ` (${f.signal})` : ''}: it was still running`;
  if (f.signal) return `killed by ${f.signal}`;
  if (f.exitCode === null) return 'unknown';
  const hint =
    f.exitCode === 127
      ? ' (the shell found no such command)'
      : f.exitCode === 126
        ? ' (the shell could not execute it)'
        : '';
  return `exited with code ${f.exitCode}${hint}`;
}
