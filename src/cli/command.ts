/**
 * How a command is declared: a small object with its name, a one-line summary, a
 * usage line, its options and `run` (citty's `defineCommand`). Adding a command is
 * one file in `src/cli/commands/` plus one line in `src/cli/registry.ts`.
 * @module
 */
import type { ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';
import { Pgv2kitError } from '../errors.js';

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
  /**
   * The value when the option is not given, for `--help` and docs/guide/cli.md. A string or number
   * is the plain default: the parser applies it (through {@link OptionSpec.parse}) when the option
   * has no {@link OptionSpec.env}; `{ shown }` only describes a default the command works out.
   */
  readonly default?: string | number | { readonly shown: string };
  /**
   * Options this one cannot be combined with: given with any of them, the parser refuses the
   * invocation (`give --a or --b, not both`; several: `give one of --a, --b and --c`, in table
   * order). A group of options of which at most one is given declares the others on each.
   */
  readonly conflicts?: OptionRule;
  /** Options of which one must be given with this one (`--a goes with --b`). */
  readonly requires?: OptionRule;
  /**
   * Reads the option's text into its value (a number, milliseconds, a shard…): the parser calls it
   * for the text given on the command line (and for a plain {@link OptionSpec.default}), and the
   * command receives the result. It throws a {@link UsageError} naming the option; `name` is the
   * option's long name, or the environment variable that stood in for it.
   */
  readonly parse?: (text: string, name: string) => unknown;
}

/**
 * A rule between options ({@link OptionSpec.conflicts}, {@link OptionSpec.requires}): the options
 * it names, with the reason the message adds in parentheses (`why`) or the whole message.
 */
export type OptionRule =
  readonly string[] | { readonly options: readonly string[]; readonly why?: string; readonly message?: string };

/** The options of a command, by long name (without `--`). */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** The value of one option: what its `parse` returns, else its text (a string option) or true (a boolean one). */
type OptionValue<S extends OptionSpec> = S extends { readonly parse: (text: string, name: string) => infer T }
  ? T
  : S['type'] extends 'boolean'
    ? boolean
    : S['type'] extends 'string'
      ? string
      : string | boolean;

/**
 * The parsed values of a command's options: absent when not given. An option with `parse` and a
 * plain `default` (and no `env`) is always there: the parser applies the default.
 */
export type OptionValues<O extends OptionSpecs> = {
  readonly [K in keyof O]?: OptionValue<O[K]>;
};

/** What `run` receives. */
export interface CommandContext<O extends OptionSpecs = OptionSpecs> {
  /**
   * The option values as given on the command line (no environment fallback applied), read by
   * their `parse` and with their plain defaults; the table's `conflicts` and `requires` hold.
   */
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
  /** The options; `--help` (`-h`) is added to every command. `--help` and docs/guide/cli.md are made from them. */
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
 * Options shared between commands, with a rule (or other fields) one command adds to each.
 * @param options - the shared options
 * @param extra - what to add to every one of them, e.g. `{ requires: ['merchant'] }`
 * @returns the options with it
 * @example
 * withRule(
 *   { seed: { type: 'string', description: 'The seed' } },
 *   { requires: ['merchant'] },
 * ).seed.requires // ['merchant']
 */
export function withRule<const O extends OptionSpecs, const E extends Partial<OptionSpec>>(
  options: O,
  extra: E,
): { readonly [K in keyof O]: O[K] & E } {
  return Object.fromEntries(Object.entries(options).map(([name, spec]) => [name, { ...spec, ...extra }])) as {
    readonly [K in keyof O]: O[K] & E;
  };
}

/**
 * A mistake in how the command was invoked (or configured): printed as one line,
 * followed by `see pgv2kit <cmd> --help`, and exit code 2. Never a stack trace.
 */
export class UsageError extends Pgv2kitError {
  /** Stable code for programs. */
  override readonly code = 'PGV2_CLI_USAGE';
  /** A usage error (exit 2). */
  override readonly exit = 'usage';
  override readonly name = 'UsageError';
}
