/**
 * The CLI reference, docs/guide/cli.md: every command's usage, description, arguments, options
 * (value, default, what each goes with or cannot be combined with) and exit codes, made from the
 * same tables as `--help` (`npm run docs:cli` writes it; test/docs/cli-reference.test.ts holds the
 * file equal to what this makes).
 * @module
 */
import type { Command } from './command.js';
import { EXIT_CODE_TITLES, type ExitCode } from './exit-codes.js';
import { environmentLines, optionRows } from './help.js';

/** Where the reference is, from the package's folder. */
export const CLI_REFERENCE_PATH = 'docs/guide/cli.md';

/**
 * The CLI reference as Markdown.
 * @param commands - the registered commands, in help order
 * @returns the page, ending in LF
 * @example
 * import { COMMANDS } from './registry.js';
 * formatCliReference(COMMANDS).startsWith('# CLI reference') // true
 */
export function formatCliReference(commands: readonly Command[]): string {
  const lines = [
    '# CLI reference',
    '',
    "<!-- Made by `npm run docs:cli` from the commands' option tables (src/cli/commands/*.ts), " +
      'as their --help is: do not edit by hand. test/docs/cli-reference.test.ts holds it equal. -->',
    '',
    'Every command of `pgv2kit`, as `npx pgv2kit <command> --help` prints it: its usage, what it does,',
    'its options — the value each takes, its default, the options it goes with and those it cannot be',
    'combined with — and its exit codes. A mistake in an invocation (an unknown option, a value that',
    'is not one, options that cannot be combined) is one line naming it, and exit code 2.',
    '',
    '| command | what it does |',
    '|---|---|',
    ...commands.map((c) => `| [${c.name}](#${c.name}) | ${cell(c.summary)} |`),
    '',
    '`npx pgv2kit --help` lists the commands; `-V` (or `--version`, `-v`) prints the version.',
    '',
    '## Environment',
    '',
    '```text',
    ...environmentLines(commands),
    '```',
    '',
  ];
  for (const command of commands) lines.push(...commandSection(command));
  return `${lines.join('\n').trimEnd()}\n`;
}

// --- internal ---

function commandSection(command: Command): string[] {
  const args = command.arguments ?? [];
  return [
    `## ${command.name}`,
    '',
    cell(command.summary),
    '',
    '```text',
    `Usage: ${command.usage}`,
    ...(command.description ? ['', command.description.trimEnd()] : []),
    '```',
    '',
    ...(args.length > 0
      ? ['| argument | |', '|---|---|', ...args.map((a) => `| \`${a.name}\` | ${cell(a.description)} |`), '']
      : []),
    '| option | default | description |',
    '|---|---|---|',
    ...optionRows(command).map((o) => {
      const rules = [
        ...(o.requires.length > 0 ? [`Goes with ${o.requires.map(code).join(' or ')}.`] : []),
        ...(o.conflicts.length > 0 ? [`Not with ${o.conflicts.map(code).join(', ')}.`] : []),
      ];
      const description = rules.length > 0 && !/[.!?]$/.test(o.description) ? `${o.description}.` : o.description;
      return (
        `| ${o.short !== undefined ? `\`-${o.short}\`, ` : ''}\`${o.flag.replace(/\|/g, '\\|')}\` | ` +
        `${o.default !== undefined ? cell(o.default) : ''} | ${[cell(description), ...rules].join(' ')} |`
      );
    }),
    '',
    ...(command.examples && command.examples.length > 0
      ? ['Examples:', '', '```text', ...command.examples, '```', '']
      : []),
    '| exit code | |',
    '|---|---|',
    ...Object.keys({ ...EXIT_CODE_TITLES, ...command.exitCodes }).map((code) => {
      const exitCode = Number(code) as ExitCode;
      return `| ${code} | ${cell(command.exitCodes?.[exitCode] ?? EXIT_CODE_TITLES[exitCode] ?? '')} |`;
    }),
    '',
  ];
}

/** `--merchant` in a code span. */
function code(flag: string): string {
  return `\`${flag}\``;
}

/** Text for a table cell: `|` escaped, `<` and `*` shown as written (not HTML, not emphasis). */
function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/\*/g, '\\*')
    .replace(/\n/g, ' ');
}
