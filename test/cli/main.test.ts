import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defineCommand, UsageError } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/registry.js';
import { VectorSetError } from '../../src/vectors/load.js';
import { MergeError } from '../../src/reports/merge.js';
import { TesteeStartError } from '../../src/protocol/start-failure.js';
import { run } from './_run.js';

const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** No output of a user's mistake may look like a stack trace. */
function expectNoStack(text: string): void {
  expect(text).not.toMatch(/^\s+at /m);
  expect(text).not.toMatch(/\.ts:\d+/);
}

describe('pgv2kit (global)', () => {
  it('--help prints the command list and the exit codes (golden)', async () => {
    const r = await run(['--help']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    await expect(r.stdout).toMatchFileSnapshot('./__snapshots__/help.txt');
    for (const c of COMMANDS) expect(r.stdout).toMatch(new RegExp(`^  ${c.name}  `, 'm'));
    expect(r.stdout).toContain('  2  usage or configuration error');
  });

  it.each([['-h'], ['help']])('%s is --help', async (flag) => {
    expect(await run([flag])).toEqual(await run(['--help']));
  });

  it('no command prints the help on stderr and exits 2', async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe((await run(['--help'])).stdout);
  });

  it.each([['--version'], ['-v']])('%s prints the version of package.json', async (flag) => {
    expect(await run([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it.each(COMMANDS.map((c) => [c.name]))('%s --help lists every option and exits 0', async (name) => {
    const r = await run([name, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith(`Usage: pgv2kit ${name}`)).toBe(true);
    const command = COMMANDS.find((c) => c.name === name);
    for (const option of Object.keys(command?.options ?? {})) expect(r.stdout).toContain(`--${option}`);
    expect(r.stdout).toContain('-h, --help');
    expect(await run([name, '-h'])).toEqual(r);
    expect(await run(['help', name])).toEqual(r);
  });

  it.each(['run', 'vectors', 'explain', 'serve', 'certify', 'check'])('%s --help (golden)', async (name) => {
    await expect((await run([name, '--help'])).stdout).toMatchFileSnapshot(`./__snapshots__/${name}-help.txt`);
  });

  it.each([
    [
      ['vectrs'],
      'pgv2kit: unknown command "vectrs" (did you mean vectors?); the commands are run, merge, compare, vectors, explain, serve, certify, check, proxy, generate, fuzz',
      'see pgv2kit --help',
    ],
    [
      ['frobnicate'],
      'pgv2kit: unknown command "frobnicate"; the commands are run, merge, compare, vectors, explain, serve, certify, check, proxy, generate, fuzz',
      'see pgv2kit --help',
    ],
    [
      ['help', 'nope'],
      'pgv2kit: unknown command "nope"; the commands are run, merge, compare, vectors, explain, serve, certify, check, proxy, generate, fuzz',
      'see pgv2kit --help',
    ],
    [['--bogus=1', 'vectors'], 'pgv2kit: unknown option --bogus (options follow the command)', 'see pgv2kit --help'],
    [['vectors', '--bogus'], 'pgv2kit vectors: unknown option --bogus', 'see pgv2kit vectors --help'],
    [['vectors', '-x'], 'pgv2kit vectors: unknown option -x', 'see pgv2kit vectors --help'],
    [['vectors', '--dir'], 'pgv2kit vectors: option --dir needs a value', 'see pgv2kit vectors --help'],
    [
      ['vectors', '--dir', '--json'],
      'pgv2kit vectors: option --dir needs a value (for a value starting with "-", write --dir=<value>)',
      'see pgv2kit vectors --help',
    ],
    [['vectors', '--json=yes'], 'pgv2kit vectors: option --json takes no value', 'see pgv2kit vectors --help'],
    [
      ['serve', 'extra'],
      'pgv2kit serve: unexpected argument #1: this command takes no positional arguments (a value without its --option?)',
      'see pgv2kit serve --help',
    ],
    [
      ['vectors', 'extra'],
      'pgv2kit vectors: unknown action "extra": vectors takes export, init <dir>, or nothing',
      'see pgv2kit vectors --help',
    ],
    [
      ['vectors', '--dir', 'a', '--dir', 'b'],
      'pgv2kit vectors: option --dir is given more than once',
      'see pgv2kit vectors --help',
    ],
    [['explain', '--app-id'], 'pgv2kit explain: option --app-id needs a value', 'see pgv2kit explain --help'],
  ])('%j is a usage error: one line, the help hint, exit 2', async (argv, line, hint) => {
    const r = await run(argv);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: `${line}\n${hint}\n` });
    // with --json asked for, stdout is the error as one JSON document (issue 25, item 5); else nothing
    if (argv.some((a) => a === '--json' || a.startsWith('--json=')))
      expect(JSON.parse(r.stdout)).toMatchObject({
        exitCode: 2,
        error: { exit: 'usage', message: line.replace(/^pgv2kit \w+: /, '') },
      });
    else expect(r.stdout).toBe('');
  });

  describe('with commands of its own (runCli)', () => {
    const failing = (error: unknown) =>
      defineCommand({
        name: 'boom',
        summary: 'Fails',
        usage: 'pgv2kit boom',
        options: { token: { type: 'string', description: 'a secret', secret: true, env: 'BOOM_TOKEN' } },
        run: ({ values }) => {
          if (values.token) throw new Error(`the token ${values.token} was refused`);
          throw error;
        },
      });

    it('an unexpected error exits 3 with its message and no stack trace', async () => {
      const r = await run(['boom'], { commands: [failing(new TypeError('wires crossed'))] });
      expect(r.code).toBe(3);
      expect(r.stderr).toBe(
        'pgv2kit boom: internal error: wires crossed\n(set PGV2KIT_DEBUG=1 for the stack trace; please report it)\n',
      );
      expectNoStack(r.stderr);
    });

    it('PGV2KIT_DEBUG=1 adds the stack trace', async () => {
      const r = await run(['boom'], {
        commands: [failing(new TypeError('wires crossed'))],
        env: { PGV2KIT_DEBUG: '1' },
      });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/^TypeError: wires crossed\n\s+at /m);
    });

    it('a thrown non-Error exits 3', async () => {
      const r = await run(['boom'], { commands: [failing('just a string')] });
      expect(r).toMatchObject({ code: 3, stderr: expect.stringContaining('internal error: just a string') });
    });

    it('a UsageError thrown by run exits 2 with the help hint', async () => {
      const r = await run(['boom'], { commands: [failing(new UsageError('no such thing'))] });
      expect(r).toEqual({ code: 2, stdout: '', stderr: 'pgv2kit boom: no such thing\nsee pgv2kit boom --help\n' });
    });

    it('a VectorSetError prints its problem lines and exits 2', async () => {
      const e = new VectorSetError([
        {
          file: 'signature/a.yaml',
          caseId: 'signature.x',
          pointer: '/cases/0/expected/sign',
          message: 'must match pattern',
        },
      ]);
      const r = await run(['boom'], { commands: [failing(e)] });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        'pgv2kit boom: the vector files are not valid (1 problem):\n  signature/a.yaml: case signature.x at /cases/0/expected/sign: must match pattern\n',
      );
    });

    it('any kit error is mapped by its exit class, in main: usage as a UsageError, failure one line and exit 3', async () => {
      const usage = await run(['boom'], { commands: [failing(new MergeError('/s does not exist'))] });
      expect(usage).toEqual({
        code: 2,
        stdout: '',
        stderr: 'pgv2kit boom: /s does not exist\nsee pgv2kit boom --help\n',
      });
      const failure = await run(['boom'], {
        commands: [failing(new TesteeStartError('the testee exited with code 2 before it was ready'))],
      });
      expect(failure).toEqual({
        code: 3,
        stdout: '',
        stderr: 'pgv2kit boom: the testee exited with code 2 before it was ready\n',
      });
    });

    it('masks a secret option in every output, even in an error message', async () => {
      const token = 'tok_9d8c7b6a5f4e';
      for (const argv of [
        ['boom', '--token', token],
        ['boom', `--token=${token}`],
      ]) {
        const r = await run(argv, { commands: [failing(new Error('x'))] });
        expect(r.code).toBe(3);
        expect(r.stderr).toContain('the token to************** (16 chars) was refused');
        expect(r.stderr).not.toContain(token);
      }
    });

    it("masks a secret option's environment variable, even where the command does not expect it", async () => {
      const token = 'tok_from_env_31337';
      const r = await run(['boom'], { commands: [failing(new Error(`oops ${token}`))], env: { BOOM_TOKEN: token } });
      expect(r.stderr).not.toContain(token);
      const unknown = await run([token], { commands: [failing(new Error('x'))], env: { BOOM_TOKEN: token } });
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).not.toContain(token);
    });

    it('passes positionals to a command that declares arguments, and masks what it declares secret', async () => {
      const echo = defineCommand({
        name: 'echo',
        summary: 'Echoes',
        usage: 'pgv2kit echo <words…>',
        arguments: [{ name: 'words', description: 'what to echo' }],
        options: { loud: { type: 'boolean', short: 'l', description: 'Shout' } },
        run: ({ values, positionals, io, addSecret }) => {
          addSecret('hidden-word');
          const text = positionals.join(' ');
          io.stdout(`${values.loud ? text.toUpperCase() : text}\n`);
          return 0;
        },
      });
      expect(await run(['echo', '-l', 'a', 'b'], { commands: [echo] })).toEqual({
        code: 0,
        stdout: 'A B\n',
        stderr: '',
      });
      expect((await run(['echo', 'say', 'hidden-word'], { commands: [echo] })).stdout).toBe(
        'say hi********* (11 chars)\n',
      );
      const main = await run(['--help'], { commands: [echo] });
      expect(main.stdout).toContain('Commands:\n  echo  Echoes\n');
      // no command declares a variable: only the conventions every command honours are listed
      expect(main.stdout).not.toContain('stands in for');
      expect(main.stdout).toContain('Environment:\n  NO_COLOR ');
      const help = await run(['echo', '--help'], { commands: [echo] });
      expect(help.stdout).toContain('Arguments:\n  words  what to echo\n');
      expect(help.stdout).toContain('  -l, --loud  Shout\n');
    });
  });
});
