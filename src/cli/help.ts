/**
 * The help texts: `pgv2kit --help` and `pgv2kit <cmd> --help`.
 * @module
 */
import { HELP_OPTION } from './_args.js';
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
  const environment = [
    ...[...standIns.values()].map((e) => `  ${e.env.padEnd(width2)}  stands in for --${e.option} (${e.commands.join(', ')})`),
    ...conventions.map(([name, what]) => `  ${name.padEnd(width2)}  ${what}`),
  ];
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
 * The help of one command: usage, description, arguments, options, examples.
 * @param command - the command
 * @returns the text, ending in LF
 * @example
 * import { vectorsCommand } from './commands/vectors.js';
 * formatCommandHelp(vectorsCommand)
 */
export function formatCommandHelp(command: Command): string {
  const options = Object.entries({ ...command.options, ...HELP_OPTION } as Record<string, OptionSpec>).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${o.type === 'string' ? ` ${o.valueName ?? '<value>'}` : ''}`;
    return [flag, `${o.description}${o.env ? ` (default: env ${o.env})` : ''}`] as const;
  });
  const width = Math.max(...options.map(([flag]) => flag.length));
  const args = command.arguments ?? [];
  const argWidth = Math.max(0, ...args.map((a) => a.name.length));
  return [
    `Usage: ${command.usage}`,
    '',
    command.summary,
    ...(command.description ? ['', command.description.trimEnd()] : []),
    '',
    ...(args.length > 0 ? ['Arguments:', ...args.map((a) => `  ${a.name.padEnd(argWidth)}  ${a.description}`), ''] : []),
    'Options:',
    ...options.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
    '',
    ...(command.examples && command.examples.length > 0 ? ['Examples:', ...command.examples.map((e) => `  ${e}`), ''] : []),
    'Exit codes:',
    ...Object.entries({ ...EXIT_CODE_TITLES, ...command.exitCodes }).map(([code, title]) => `  ${code}  ${command.exitCodes?.[Number(code) as ExitCode] ?? title}`),
    '',
  ].join('\n');
}
