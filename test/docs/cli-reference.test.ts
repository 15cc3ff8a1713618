/**
 * docs/guide/cli.md, the CLI reference, is what the commands' option tables make (issue 23): the
 * same tables `--help` prints, so the page never drifts from the CLI.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/docs/refs.js';
import { optionRows } from '../../src/cli/help.js';
import { CLI_REFERENCE_PATH, formatCliReference } from '../../src/cli/reference.js';
import { COMMANDS } from '../../src/cli/registry.js';

describe('docs/guide/cli.md', () => {
  const page = formatCliReference(COMMANDS);

  it('is what the option tables make', () => {
    const file = readFileSync(join(PACKAGE_ROOT, CLI_REFERENCE_PATH), 'utf8');
    // toBe, not a diff of lines: the message says what to do
    expect(
      file === page,
      `${CLI_REFERENCE_PATH} is not what the commands' option tables make: run npm run docs:cli and commit it`,
    ).toBe(true);
  });

  it.each(COMMANDS.map((c) => [c.name, c] as const))(
    'has %s: its usage and every option of its --help',
    (_, command) => {
      expect(page).toContain(`## ${command.name}\n`);
      expect(page).toContain(`Usage: ${command.usage}\n`);
      // a | in a table cell is escaped, code spans included
      for (const row of optionRows(command)) expect(page).toContain(`\`${row.flag.replace(/\|/g, '\\|')}\``);
    },
  );
});
