/**
 * `--json` is one JSON document on stdout however the command ends (issue 25, item 5): a usage error used to
 * leave stdout empty, so a script reading it got nothing to parse. Every command with --json, ended by a usage
 * error before it could write its own document, writes the error as one.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/registry.js';
import { run } from './_run.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const withJson = COMMANDS.filter((c) => 'json' in c.options).map((c) => c.name);

describe('--json on an error', () => {
  it('covers every command that has --json', () => {
    expect(withJson.sort()).toEqual([
      'certify',
      'check',
      'compare',
      'explain',
      'fuzz',
      'merge',
      'proxy',
      'run',
      'serve',
      'vectors',
    ]);
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

  it.each([
    [130, 'PGV2_INTERRUPTED', 'interrupted', 'interrupted by SIGINT'],
    [143, 'PGV2_INTERRUPTED', 'terminated', 'interrupted by SIGTERM'],
    [7, 'PGV2_EXITED', 'failure', 'the command ended (exit 7) before its summary'],
  ])(
    'a command that ends the process itself (exit %i) before its document: the document is written as it exits',
    (code, errorCode, exit, message) => {
      // a real process: process.exit cannot be called inside the test runner (a second Ctrl-C does this in run and
      // certify, a signal in fuzz)
      const script =
        `const { runCli, processIo } = await import(${JSON.stringify(MAIN)});` +
        "const bye = { name: 'bye', summary: 'x', usage: 'pgv2kit bye', options: { json: { type: 'boolean', " +
        `description: 'x' } }, run: () => process.exit(${code}) };` +
        "await runCli(['bye', '--json'], processIo(), [bye]);";
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(code);
      expect(JSON.parse(r.stdout)).toEqual({
        command: 'bye',
        exitCode: code,
        error: { code: errorCode, exit, message },
      });
    },
  );

  it('without --json nothing is added to stdout', async () => {
    const r = await run(['run', '--no-such-option']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});

describe('--json on an error never carries a secret', () => {
  it('a secret that JSON escapes (a quote, a backslash) is masked before the message is encoded', async () => {
    const secret = 'sk_"quoted\\secret_42';
    // the secret reaches the message as typed: a --body-file that does not exist
    const argv = ['explain', '--json', '--app-id', 'a', '--method', 'POST', '--url', 'https://x/p'].concat([
      '--timestamp',
      '1',
      '--nonce',
      'n',
      '--body-file',
      secret,
    ]);
    const r = await run(argv, { env: { PGV2_APP_SECRET: secret } });
    expect(r.code).toBe(2);
    for (const out of [r.stdout, r.stderr, JSON.stringify(r.stdout)]) {
      expect(out).not.toContain(secret);
      expect(out).not.toContain(JSON.stringify(secret).slice(1, -1));
    }
    expect(JSON.parse(r.stdout)).toMatchObject({ command: 'explain', exitCode: 2, error: { exit: 'usage' } });
    expect((JSON.parse(r.stdout) as { error: { message: string } }).error.message).toMatch(
      /--body-file sk\*+ \(20 chars\)/,
    );
  });
});
