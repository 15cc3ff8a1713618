/**
 * `--json` is one JSON document on stdout however the command ends (issue 25, item 5): a usage error used to
 * leave stdout empty, so a script reading it got nothing to parse. Every command with --json, ended by a usage
 * error before it could write its own document, writes the error as one.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/registry.js';
import { run } from './_run.js';

const withJson = COMMANDS.filter((c) => 'json' in c.options).map((c) => c.name);

describe('--json on an error', () => {
  it('covers every command that has --json', () => {
    expect(withJson.sort()).toEqual(['certify', 'explain', 'fuzz', 'merge', 'run', 'serve', 'vectors']);
  });

  it.each(withJson)(
    '%s --json with an unknown option: exit 2, stdout one JSON document naming the error',
    async (name) => {
      const r = await run([name, '--json', '--no-such-option']);
      expect(r.code).toBe(2);
      const lines = r.stdout.split('\n').filter((l) => l !== '');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] ?? '')).toEqual({
        command: name,
        exitCode: 2,
        error: { code: 'PGV2_CLI_USAGE', exit: 'usage', message: 'unknown option --no-such-option' },
      });
      // the person at the terminal still reads it on stderr
      expect(r.stderr).toContain('unknown option --no-such-option');
    },
  );

  it('merge --json of a folder that does not exist: the error as the document, exit 2', async () => {
    const r = await run(['merge', '--json', '/no/such/shard']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ command: 'merge', exitCode: 2, error: { exit: 'usage' } });
  });

  it('without --json nothing is added to stdout', async () => {
    const r = await run(['run', '--no-such-option']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});
