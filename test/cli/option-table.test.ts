/**
 * The option tables (issue 23): a command's rules between options (`conflicts`, `requires`), its
 * values' parsing and its defaults are declared in its table and applied by the parser, the same
 * way for every command; `--help` shows them.
 */
import { describe, expect, it } from 'vitest';
import { applyOptionTable, conflictsOf, parseCommandArgs, ruleOf } from '../../src/cli/_args.js';
import { parseOption } from '../../src/cli/_numbers.js';
import { UsageError, type OptionSpecs } from '../../src/cli/command.js';
import { formatCommandHelp, optionRows } from '../../src/cli/help.js';
import { COMMANDS } from '../../src/cli/registry.js';
import { runCommand } from '../../src/cli/commands/run.js';

const table = {
  a: { type: 'boolean', description: 'A', conflicts: ['b', 'c'] },
  b: { type: 'boolean', description: 'B', conflicts: ['a', 'c'] },
  c: { type: 'string', description: 'C', conflicts: ['a', 'b'] },
  d: { type: 'boolean', description: 'D', conflicts: { options: ['e'], why: 'd is e' } },
  e: { type: 'string', description: 'E', parse: parseOption.positiveInteger },
  f: { type: 'boolean', description: 'F', requires: ['a', 'b'] },
  g: { type: 'boolean', description: 'G', requires: { options: ['a'], message: 'g needs a' } },
  t: { type: 'string', description: 'T', default: 5, parse: parseOption.seconds },
  u: { type: 'string', description: 'U', default: 5, env: 'U_VAR', parse: parseOption.seconds },
  w: { type: 'string', description: 'W', default: { shown: 'worked out' } },
} as const satisfies OptionSpecs;

const refusal = (given: Record<string, unknown>): string => {
  try {
    applyOptionTable(given, table);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  return 'accepted';
};

describe('applyOptionTable', () => {
  it.each([
    [{ b: true, c: 'x' }, 'give one of --a, --b and --c'],
    [{ c: 'x', a: true }, 'give one of --a, --b and --c'],
    [{ d: true, e: '2' }, 'give --d or --e, not both (d is e)'],
    [{ f: true }, '--f goes with --a or --b'],
    [{ g: true }, 'g needs a'],
    [{ e: '0' }, '--e must be a positive integer, not "0"'],
    [{ t: 'soon' }, '--t must be a positive number, not "soon"'],
    [{ a: true, f: true, g: true, d: true }, 'accepted'],
  ])('%j: %s', (given, message) => {
    expect(refusal(given)).toBe(message);
  });

  it('gives what parse reads, and a plain default where the option has no environment variable', () => {
    expect(applyOptionTable({ e: '3' }, table)).toEqual({ e: 3, t: 5000 });
    expect(applyOptionTable({ t: '1.5', w: 'x' }, table)).toEqual({ t: 1500, w: 'x' });
  });

  it('waits for a run: --help shows the help whatever else is given', () => {
    expect(
      parseCommandArgs(
        ['--bail', '--max-failures', '2', '--help'],
        { ...runCommand.options, help: { type: 'boolean', description: 'help' } },
        true,
      ).values['help'],
    ).toBe(true);
  });
});

describe('the tables of the commands', () => {
  it.each(COMMANDS.map((c) => [c.name, c] as const))('%s: every rule names options of its table', (_, command) => {
    for (const [name, spec] of Object.entries(command.options)) {
      for (const rule of [spec.conflicts, spec.requires]) {
        if (rule === undefined) continue;
        for (const other of ruleOf(rule).options)
          expect(Object.keys(command.options), `--${name} names --${other}`).toContain(other);
      }
      // a plain default the parser applies goes through parse (one with an environment variable is the command's to apply)
      if (spec.default !== undefined && typeof spec.default !== 'object' && spec.env === undefined)
        expect(spec.parse, `--${name}: a plain default is read by parse`).toBeDefined();
    }
  });

  it('a rule reads the same from either side in --help', () => {
    expect(conflictsOf('max-failures', runCommand.options)).toEqual(['bail']);
    expect(conflictsOf('list', runCommand.options)).toEqual(['json']);
    const rows = optionRows(runCommand);
    expect(rows.find((r) => r.flag === '--bail')?.conflicts).toEqual(['--max-failures']);
    expect(rows.find((r) => r.flag === '--notify-url <url>')?.requires).toEqual(['--merchant']);
    expect(rows.find((r) => r.flag === '--timeout <seconds>')?.default).toBe('5');
    expect(formatCommandHelp(runCommand)).toMatch(
      /--testee <command> +Start this command and run it over protocol v1 \[not with --module, --merchant\]\n/,
    );
  });
});
