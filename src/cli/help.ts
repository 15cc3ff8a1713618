/**
 * The help texts: `pgv2kit --help` and `pgv2kit <cmd> --help`.
 * @module
 */
import { HELP_OPTION, conflictsOf, ruleOf } from './_args.js';
import type { Command, OptionSpec } from './command.js';
import { EXIT_CODE_TITLES, type ExitCode } from './exit-codes.js';

/**
 * The help of the whole CLI: commands, global options, exit codes.
 * @param commands - the registered commands
 * @returns the text, ending in LF
 * @example
 * import { COMMANDS } from './registry.js';
 * formatMainHelp(COMMANDS).startsWith('pgv2kit: ') // true
 */
export function formatMainHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const environment = environmentLines(commands);
  return [
    'pgv2kit: conformance kit for the V2_SHA256 signing scheme of the payment gateway',
    '',
    'Usage: pgv2kit <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  -h, --help     Show this help (pgv2kit <command> --help for a command)',
    '  -V, --version  Show the version (-v too)',
    '',
    ...(environment.length > 0 ? ['Environment:', ...environment, ''] : []),
    'Exit codes:',
    ...Object.entries(EXIT_CODE_TITLES).map(([code, title]) => `  ${code}  ${title}`),
    '',
  ].join('\n');
}

/**
 * The environment variables the commands read, one line each: those that stand in for an option
 * (naming the commands that have it) and the conventions (NO_COLOR …), for `pgv2kit --help` and
 * the CLI reference.
 * @param commands - the registered commands
 * @returns the lines, indented by two spaces
 * @example
 * import { COMMANDS } from './registry.js';
 * environmentLines(COMMANDS)[0] // '  PGV2_APP_ID                stands in for --app-id (run, serve, certify, …'
 */
export function environmentLines(commands: readonly Command[]): string[] {
  // one line per variable and option, naming the commands that have it
  const standIns = new Map<string, { env: string; option: string; commands: string[] }>();
  for (const c of commands) {
    for (const [name, o] of Object.entries(c.options)) {
      if (o.env === undefined) continue;
      const key = `${o.env} --${name}`;
      const entry = standIns.get(key) ?? { env: o.env, option: name, commands: [] };
      entry.commands.push(c.name);
      standIns.set(key, entry);
    }
  }
  const envWidth = Math.max(0, ...[...standIns.values()].map((e) => e.env.length));
  const conventions: ReadonlyArray<readonly [string, string]> = [
    ['NO_COLOR', 'set (not empty): no colours (https://no-color.org)'],
    ['FORCE_COLOR', 'set (not 0): colours even when stdout is not a terminal'],
    ['GITHUB_STEP_SUMMARY', 'set (GitHub Actions): run appends a Markdown summary of the run to that file'],
  ];
  const width2 = Math.max(envWidth, ...conventions.map(([name]) => name.length));
  return [
    ...[...standIns.values()].map(
      (e) => `  ${e.env.padEnd(width2)}  stands in for --${e.option} (${e.commands.join(', ')})`,
    ),
    ...conventions.map(([name, what]) => `  ${name.padEnd(width2)}  ${what}`),
  ];
}

/**
 * The help of one command: usage, description, arguments, options, examples.
 * @param command - the command
 * @returns the text, ending in LF
 * @example
 * import { vectorsCommand } from './commands/vectors.js';
 * formatCommandHelp(vectorsCommand)
 */
export function formatCommandHelp(command: Command): string {
  const options = optionRows(command).map((o) => [`${o.short ? `-${o.short}, ` : '    '}${o.flag}`, o.text] as const);
  const width = Math.max(...options.map(([flag]) => flag.length));
  const args = command.arguments ?? [];
  const argWidth = Math.max(0, ...args.map((a) => a.name.length));
  return [
    `Usage: ${command.usage}`,
    '',
    command.summary,
    ...(command.description ? ['', command.description.trimEnd()] : []),
    '',
    ...(args.length > 0
      ? ['Arguments:', ...args.map((a) => `  ${a.name.padEnd(argWidth)}  ${a.description}`), '']
      : []),
    'Options:',
    ...options.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
    '',
    ...(command.examples && command.examples.length > 0
      ? ['Examples:', ...command.examples.map((e) => `  ${e}`), '']
      : []),
    'Exit codes:',
    ...Object.entries({ ...EXIT_CODE_TITLES, ...command.exitCodes }).map(
      ([code, title]) => `  ${code}  ${command.exitCodes?.[Number(code) as ExitCode] ?? title}`,
    ),
    '',
  ].join('\n');
}

/** One option of a command as `--help` and docs/guide/cli.md show it. */
export interface OptionRow {
  /** `--timeout <seconds>`, `--bail`. */
  readonly flag: string;
  /** The one-letter alias, when it has one. */
  readonly short?: string;
  /** The description. */
  readonly description: string;
  /** The default (`5`, `env PGV2_APP_ID`, `env PGV2KIT_SEED, else random, printed`), when it has one. */
  readonly default?: string;
  /** The options it cannot be combined with (`--module`), in table order, either side's rule. */
  readonly conflicts: readonly string[];
  /** The options one of which it needs (`--merchant`). */
  readonly requires: readonly string[];
  /** The description with the rest, as one line of `--help`. */
  readonly text: string;
}

/**
 * The rows of a command's option table, `--help` last: what `--help` and the CLI reference print.
 * @param command - the command
 * @returns one row per option, in table order
 * @example
 * import { runCommand } from './commands/run.js';
 * optionRows(runCommand)[0].flag // '--testee <command>'
 */
export function optionRows(command: Command): OptionRow[] {
  const table = { ...command.options, ...HELP_OPTION } as Record<string, OptionSpec>;
  return Object.entries(table).map(([name, o]) => {
    const plain =
      o.default === undefined ? undefined : typeof o.default === 'object' ? o.default.shown : String(o.default);
    const fallback = o.env !== undefined ? `env ${o.env}${plain !== undefined ? `, else ${plain}` : ''}` : plain;
    const conflicts = conflictsOf(name, table).map((n) => `--${n}`);
    const requires = o.requires === undefined ? [] : ruleOf(o.requires).options.map((n) => `--${n}`);
    const text = [
      `${o.description}${fallback !== undefined ? ` (default: ${fallback})` : ''}`,
      ...(requires.length > 0 ? [`[goes with ${requires.join(' or ')}]`] : []),
      ...(conflicts.length > 0 ? [`[not with ${conflicts.join(', ')}]`] : []),
    ].join(' ');
    return {
      flag: `--${name}${o.type === 'string' ? ` ${o.valueName ?? '<value>'}` : ''}`,
      ...(o.short !== undefined ? { short: o.short } : {}),
      description: o.description,
      ...(fallback !== undefined ? { default: fallback } : {}),
      conflicts,
      requires,
      text,
    };
  });
}
