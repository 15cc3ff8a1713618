/**
 * How a command is declared: a small object with its name, a one-line summary, a
 * usage line, its options and `run` (citty's `defineCommand`). Adding a command is
 * one file in `src/cli/commands/` plus one line in `src/cli/registry.ts`.
 * @module
 */
import type { ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';

/** One option of a command, as `node:util` parseArgs takes it plus what `--help` prints. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  /** A one-letter alias, e.g. `j` for `-j`. */
  readonly short?: string;
  /** One line for `--help`. */
  readonly description: string;
  /** The placeholder `--help` shows for a string option's value, e.g. `<dir>`. Default `<value>`. */
  readonly valueName?: string;
  /** An environment variable that stands in for the option when it is not given. */
  readonly env?: string;
  /** The value is a secret: masked in every output, error messages included. */
  readonly secret?: boolean;
  /**
   * The value is a comma-separated list of these (`patterns`, `folders`): the option given twice
   * is answered with the one value that gives them all (`--only a,b`).
   */
  readonly list?: string;
}

/** The options of a command, by long name (without `--`). */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** The parsed values of a command's options: absent when not given. */
export type OptionValues<O extends OptionSpecs> = {
  readonly [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : O[K]['type'] extends 'string' ? string : string | boolean;
};

/** What `run` receives. */
export interface CommandContext<O extends OptionSpecs = OptionSpecs> {
  /** The option values as given on the command line (no environment fallback applied). */
  readonly values: OptionValues<O>;
  /** Positional arguments, when the command declares {@link Command.arguments}. */
  readonly positionals: readonly string[];
  /** The io; its output has every known secret masked. */
  readonly io: CliIo;
  /**
   * Declares a further secret to mask in every output from now on (the secret
   * options and their environment variables are declared already).
   */
  readonly addSecret: (secret: string) => void;
  /**
   * Registers what to undo when the command ends, however it ends (main runs each, last first,
   * after `run` returns or throws): a report folder's lock.
   */
  readonly atEnd: (cleanup: () => void) => void;
}

/** A command of the CLI. */
export interface Command<O extends OptionSpecs = OptionSpecs> {
  /** The word after `pgv2kit`. */
  readonly name: string;
  /** One line for the command list of `pgv2kit --help`. */
  readonly summary: string;
  /** The usage line(s) without the leading `Usage: `, e.g. `pgv2kit vectors [--dir <dir>] [--json]`. */
  readonly usage: string;
  /** Paragraphs `pgv2kit <cmd> --help` prints after the usage line. */
  readonly description?: string;
  /** The options; `--help` (`-h`) is added to every command. */
  readonly options: O;
  /** Positional arguments the command takes (default: none), for `--help`. */
  readonly arguments?: ReadonlyArray<{ readonly name: string; readonly description: string }>;
  /** What each exit code means for this command, for `--help` (default: the general meaning). */
  readonly exitCodes?: Readonly<Partial<Record<ExitCode, string>>>;
  /** Example invocations for `--help`. */
  readonly examples?: readonly string[];
  /**
   * Runs the command.
   * @returns the exit code (see `exit-codes.ts`)
   * @throws {UsageError} for a mistake in the invocation: main prints it and exits 2
   */
  run(context: CommandContext<O>): Promise<number> | number;
}

/**
 * Declares a command; the identity function, there for the types.
 * @param command - the command
 * @returns the same command
 * @example
 * const hello = defineCommand({ name: 'hello', summary: 'Say hello', usage: 'pgv2kit hello',
 *   options: { loud: { type: 'boolean', description: 'Shout' } },
 *   run: ({ values, io }) => { io.stdout(values.loud ? 'HELLO\n' : 'hello\n'); return 0; } });
 * hello.name // 'hello'
 */
export function defineCommand<const O extends OptionSpecs>(command: Command<O>): Command<O> {
  return command;
}

/**
 * A mistake in how the command was invoked (or configured): printed as one line,
 * followed by `see pgv2kit <cmd> --help`, and exit code 2. Never a stack trace.
 */
export class UsageError extends Error {
  /** Stable code for programs. */
  readonly code = 'PGV2_CLI_USAGE';
  override readonly name = 'UsageError';
}
