/**
 * Mistakes people type (issue 20, item 8): an option misspelt gets the closest option, in every
 * command; a list option given twice gets the one comma-separated value that gives them all;
 * an unquoted --testee command line (or --module path) gets how to quote it; a --testee path
 * with a space, split by the shell, gets the command line mended. Each suggestion is shell-quoted,
 * and pasting it into a shell does what it says (checked by running it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { splitPathHint } from '../../src/cli/_start-failure.js';
import { COMMANDS } from '../../src/cli/registry.js';
import { run } from './_run.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'pgv2kit.js');
const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-typos-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The real binary, as a user meets it. */
function pgv2kit(args: readonly string[], cwd = ROOT): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', PGV2KIT_PROPERTIES: '5', PGV2KIT_SEED: '1' },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The same command in process (src/cli/main.ts, what the binary runs), in the same folder and environment: for a
 * suggestion pasted, whose point is what the command does, not the process (the real binary is checked above).
 */
function inProcess(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return run(args, { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', PGV2KIT_PROPERTIES: '5', PGV2KIT_SEED: '1' } });
}

/** The words a POSIX shell makes of a suggestion, as pasting it would give them. */
function shellWords(text: string): string[] {
  return execFileSync('sh', ['-c', `printf '%s\\0' ${text}`], { encoding: 'utf8' })
    .split('\0')
    .slice(0, -1);
}

describe('an unknown option gets the closest one', () => {
  it.each([
    [['run', '--onyl', 'x'], 'pgv2kit run: unknown option --onyl (did you mean --only?)'],
    [['run', '--report-dri', 'x'], 'pgv2kit run: unknown option --report-dri (did you mean --report-dir?)'],
    [['run', '--tetsee', 'x'], 'pgv2kit run: unknown option --tetsee (did you mean --testee?)'],
    [['vectors', '--jsno'], 'pgv2kit vectors: unknown option --jsno (did you mean --json?)'],
    [['serve', '--prot', '0'], 'pgv2kit serve: unknown option --prot (did you mean --port?)'],
    // nothing close: no guess
    [['run', '--frobnicate'], 'pgv2kit run: unknown option --frobnicate'],
    [['run', '-x'], 'pgv2kit run: unknown option -x'],
  ])('%j', async (argv, line) => {
    const r = await run(argv);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `${line}\nsee pgv2kit ${argv[0]} --help\n` });
  });

  // every option of every command, misspelt by one letter dropped, is suggested back
  const typos = COMMANDS.flatMap((c) => {
    const names = [...Object.keys(c.options), 'help'];
    return names
      .filter((n) => n.length >= 4)
      .map((n) => [c.name, n, `${n.slice(0, 1)}${n.slice(2)}`] as const)
      .filter(([, , typo]) => !names.includes(typo));
  });
  it.each(typos)('%s --%s misspelt --%s', async (command, option, typo) => {
    const r = await run([command, `--${typo}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^pgv2kit ${command}: unknown option --${typo} \\(did you mean (--[a-z-]+ or )*--${option}( or --[a-z-]+)*\\?\\)$`,
        'm',
      ),
    );
  });

  it('through the real binary', () => {
    expect(pgv2kit(['run', '--onyl', 'signature'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'pgv2kit run: unknown option --onyl (did you mean --only?)\nsee pgv2kit run --help\n',
    });
  });
});

describe('a list option given twice says how to give several', () => {
  it.each([
    [
      ['run', '--only', 'signature', '--only', 'authorization'],
      'option --only is given more than once: give several patterns as one comma-separated value: --only signature,authorization',
    ],
    [
      ['run', '--skip', 'flag:UppercaseHex', '--skip', 'id:signature.url-*'],
      "option --skip is given more than once: give several patterns as one comma-separated value: --skip 'flag:UppercaseHex,id:signature.url-*'",
    ],
    [
      ['run', '--only=a b', '--only', "it's"],
      "option --only is given more than once: give several patterns as one comma-separated value: --only 'a b,it'\\''s'",
    ],
    [
      ['run', '--vectors', 'kit', '--vectors', './mine'],
      'option --vectors is given more than once: give several folders as one comma-separated value: --vectors kit,./mine',
    ],
    // not a list: as before
    [['run', '--seed', '1', '--seed', '2'], 'option --seed is given more than once'],
  ])('%j', async (argv, line) => {
    const r = await run(argv);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `pgv2kit run: ${line}\nsee pgv2kit run --help\n` });
  });

  it('the suggestion, pasted, runs both selections (commas work for --only)', async () => {
    const given = await inProcess([
      'run',
      '--only',
      'signature.final-lf-missing',
      '--only',
      'id:signature.url-*',
      '--list',
      '--no-properties',
    ]);
    expect(given.code).toBe(2);
    const suggestion = /: (--only .*)$/m.exec(given.stderr)?.[1] ?? '';
    expect(shellWords(suggestion)).toEqual(['--only', 'signature.final-lf-missing,id:signature.url-*']);
    const pasted = await inProcess(['run', ...shellWords(suggestion), '--list', '--no-properties']);
    expect(pasted.code, pasted.stderr).toBe(0);
    const ids = pasted.stdout
      .split('\n')
      .filter((l) => /^signature\./.test(l))
      .map((l) => l.split(' ')[0]);
    expect(ids).toContain('signature.final-lf-missing');
    expect(ids.filter((id) => id?.startsWith('signature.url-')).length).toBeGreaterThan(0);
    expect(ids.every((id) => id === 'signature.final-lf-missing' || id?.startsWith('signature.url-'))).toBe(true);
  });
});

describe('an unquoted --testee command line or --module path says how to quote it', () => {
  it.each([
    [
      ['run', '--testee', 'python3', 'x.py'],
      "run: --testee takes the whole command line as one argument: quote it: --testee 'python3 x.py'",
    ],
    [
      ['run', '--testee', 'python3', 'my adapter.py', 'x'],
      "run: --testee takes the whole command line as one argument: quote it: --testee 'python3 my adapter.py x'",
    ],
    [
      ['run', '--module', './my', 'dir/x.mjs'],
      "run: --module takes one path: quote one with spaces: --module './my dir/x.mjs'",
    ],
    [
      ['fuzz', '--testee', 'python3', 'x.py'],
      "fuzz: --testee takes the whole command line as one argument: quote it: --testee 'python3 x.py'",
    ],
    [
      ['fuzz', '--testee=node', 'my adapter.mjs'],
      "fuzz: --testee takes the whole command line as one argument: quote it: --testee 'node my adapter.mjs'",
    ],
    [
      ['explain', '--body-file', './my', 'body.json'],
      "explain: --body-file takes one path: quote one with spaces: --body-file './my body.json'",
    ],
    // an option whose value is not a command line or a path: as before
    [
      ['fuzz', '--seed', '1', '2'],
      'fuzz: unexpected argument #3: this command takes no positional arguments (a value without its --option?)',
    ],
    // the gateway's base URL keeps its message
    [['run', 'http://127.0.0.1:9'], 'run: unexpected argument "http://127.0.0.1:9" (a base URL goes with --gateway)'],
    // a value that may be a secret is never echoed
    [
      ['fuzz', '--secret', 'sk_live_Typo', 'Secret'],
      'fuzz: unexpected argument #3: this command takes no positional arguments (a value without its --option?)',
    ],
  ])('%j', async (argv, line) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith(`pgv2kit ${line}`), r.stderr).toBe(true);
    expect(r.stderr).not.toContain('sk_live_Typo');
  });

  it('the suggestion, pasted, starts the testee', async () => {
    const adapter = 'examples/python-adapter/pgv2kit_adapter.py';
    const given = await inProcess([
      'run',
      '--testee',
      'python3',
      adapter,
      '--only',
      'signature.final-lf-missing',
      '--no-properties',
      '--no-reports',
    ]);
    expect(given.code).toBe(2);
    const suggestion = /quote it: (--testee .*)$/m.exec(given.stderr)?.[1] ?? '';
    expect(shellWords(suggestion)).toEqual(['--testee', `python3 ${adapter}`]);
    const pasted = await inProcess([
      'run',
      ...shellWords(suggestion),
      '--only',
      'signature.final-lf-missing',
      '--no-properties',
      '--no-reports',
    ]);
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stdout).toMatch(/^1 passed, 0 failed$/m);
  });
});

describe('a testee path with a space, split by the shell', () => {
  const spaced = join(dir, 'my adapters', 'py thon');
  mkdirSync(spaced, { recursive: true });
  copyFileSync(join(ROOT, 'examples/python-adapter/pgv2kit_adapter.py'), join(spaced, 'pgv2kit_adapter.py'));

  it('fails to start with the hint, and the mended command line, pasted, runs', async () => {
    const command = `python3 ${spaced}/pgv2kit_adapter.py`;
    const args = ['--only', 'signature.final-lf-missing', '--no-properties', '--no-reports'];
    const given = await inProcess(['run', '--testee', command, ...args]);
    expect(given.code, given.stderr).toBe(3);
    expect(given.stderr).toMatch(/^pgv2kit run: the testee could not start: /m);
    const hint = /^ {2}hint: {4}(.*)$/m.exec(given.stderr)?.[1] ?? '';
    expect(hint).toBe(
      `the command line is run by a shell (sh -c), which split "${spaced}/pgv2kit_adapter.py" at its spaces: quote the path inside it: --testee 'python3 "${spaced}/pgv2kit_adapter.py"'`,
    );
    const words = shellWords(hint.slice(hint.indexOf('--testee')));
    expect(words).toEqual(['--testee', `python3 "${spaced}/pgv2kit_adapter.py"`]);
    const pasted = await inProcess(['run', ...words, ...args]);
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stdout).toContain(`pgv2kit-python-example 1.0.0 (python3 "${spaced}/pgv2kit_adapter.py")`);
    expect(pasted.stdout).toMatch(/^1 passed, 0 failed$/m);
  });

  it('no hint for a start failure with no split path', async () => {
    const r = await inProcess([
      'run',
      '--testee',
      'python3 -c "import sys; sys.exit(2)"',
      '--no-reports',
      '--timeout',
      '10',
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^ {2}ended: +exited with code 2$/m);
    expect(r.stderr).not.toContain('hint:');
  });

  it.each([
    // relative to the working folder, the longest join (the file, not its folder)
    [
      'node my adapters/py thon/pgv2kit_adapter.py --x',
      `the command line is run by a shell (sh -c), which split "my adapters/py thon/pgv2kit_adapter.py" at its spaces: quote the path inside it: --testee 'node "my adapters/py thon/pgv2kit_adapter.py" --x'`,
    ],
    // quoted already, or escaped: nothing split, no hint
    ['node "my adapters/py thon/pgv2kit_adapter.py"', undefined],
    ["node 'my adapters/py thon/pgv2kit_adapter.py'", undefined],
    ['node my\\ adapters/py\\ thon/pgv2kit_adapter.py', undefined],
    // no such path at all
    ['node my adapters/nothing.py', undefined],
    ['python3 x.py', undefined],
  ])('%s', (command, hint) => {
    expect(splitPathHint(command, dir)).toBe(hint);
  });

  it('a path with a character special inside double quotes is quoted in single quotes', () => {
    const odd = join(dir, 'cost $5');
    writeFileSync(odd, '');
    expect(splitPathHint(`node ${odd}`, '/')).toBe(
      `the command line is run by a shell (sh -c), which split ${JSON.stringify(odd)} at its spaces: quote the path inside it: --testee 'node '\\''${odd}'\\'''`,
    );
    expect(shellWords(`'node '\\''${odd}'\\'''`)).toEqual([`node '${odd}'`]);
  });
});
