/**
 * The exit codes of `pgv2kit`: a contract scripts and CI can rely on
 * (arethetypeswrong `cli/src/getExitCode.ts`). Never renumbered.
 * @module
 */

/** Every exit code the CLI returns, by meaning. */
export const EXIT = {
  /** The command did what was asked and found nothing wrong. */
  ok: 0,
  /**
   * Nonconformance: a check failed, a signature does not match. A bad vector file is this only for
   * `pgv2kit vectors`, whose job is to judge the files; any other command that cannot load the
   * vector set it was given exits {@link EXIT.usage} (its input is refused).
   */
  nonconformance: 1,
  /**
   * Usage or configuration error: unknown command or option, missing value, unreadable file, vector files that do
   * not load (a kit error of exit class `usage`).
   */
  usage: 2,
  /**
   * The tool itself or the implementation under test failed (crashed, unreachable, timed out; a kit error of exit
   * class `failure`).
   */
  failure: 3,
  /** Interrupted by Ctrl-C (SIGINT: 128 + 2), the reports written so far marked so. */
  interrupted: 130,
  /** Terminated (SIGTERM: 128 + 15), the reports written so far marked so. */
  terminated: 143,
} as const;

/** One of the values of {@link EXIT}. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * A title for each exit code every command has, as `--help` prints them (130 and 143 are `run`'s
 * own: its help names them).
 */
export const EXIT_CODE_TITLES: Readonly<Partial<Record<ExitCode, string>>> = {
  0: 'success',
  1: 'nonconformance: a check failed, a signature does not match',
  2:
    'usage or configuration error: unknown command or option, missing value, unreadable file, ' +
    'vector files that do not load',
  3: 'the tool or the implementation under test failed',
};
