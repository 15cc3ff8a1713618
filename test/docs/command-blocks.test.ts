/**
 * Every command block of README.md and docs/guide/*.md runs as documented (issue 20), so none
 * goes stale: each file's blocks top to bottom, in one bash, in a fresh project that installed
 * the kit — a copy of what the package ships, in `node_modules/pgv2kit`, its dependencies linked
 * from the clone's — where `npx pgv2kit` runs that installed kit (a shim on PATH: no registry).
 * Which blocks run, and how a block says what it expects, is the convention of
 * `_command-blocks.ts` and CONTRIBUTING.md. Nothing is written in the clone: every project is a
 * temporary folder, and the installed kit refuses writes inside itself.
 */
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/docs/refs.js';
import { linkTree, tempFolders } from '../_support.js';
import { readBlocks, runBlocks, withoutComment, type Block } from './_command-blocks.js';

const ROOT = PACKAGE_ROOT;
/** The Markdown whose command blocks run: the front door and every guide. */
const FILES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs/guide'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/guide/${f}`),
];
/**
 * One file's blocks, all commands together: bounded, whatever a block does (a server left running
 * is killed with its process group). Far above what they take (seconds), for a loaded machine.
 */
const FILE_TIMEOUT_MS = 90_000;

const tmp = tempFolders('pgv2kit-command-blocks-');
const parsed = new Map(FILES.map((f) => [f, readBlocks(readFileSync(join(ROOT, f), 'utf8'))]));
let root = '';
let env: NodeJS.ProcessEnv = {};

beforeAll(() => {
  root = tmp();
  // the kit as npm installs it: what package.json's "files" ships (dist/ as npm test built it), copied once
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
  for (const f of [...pkg.files.filter((f) => !f.startsWith('!')), 'package.json', 'LICENSE', 'README.md'])
    cpSync(join(ROOT, f), join(root, 'installed', f), { recursive: true });
  // "!path" in files: what npm leaves out of what the entries before it ship
  for (const f of pkg.files.filter((f) => f.startsWith('!')))
    rmSync(join(root, 'installed', f.slice(1)), { recursive: true, force: true });
  // npx as it behaves in a project that installed the kit: npx pgv2kit runs the bin of the nearest
  // node_modules up from the working folder; anything else (which would reach the registry) is refused
  const shims = join(root, 'bin');
  mkdirSync(shims);
  writeFileSync(
    join(shims, 'npx'),
    [
      '#!/bin/sh',
      'if [ "$1" = pgv2kit ]; then',
      '  shift; d=$PWD',
      '  while [ "$d" != / ]; do [ -x "$d/node_modules/.bin/pgv2kit" ] && exec "$d/node_modules/.bin/pgv2kit" "$@"; d=$(dirname "$d"); done',
      'fi',
      'echo "npx $*: a docs block runs only npx pgv2kit (the kit installed in its project)" >&2',
      'exit 127',
      '',
    ].join('\n'),
  );
  chmodSync(join(shims, 'npx'), 0o755);
  // no credentials, CI variables or colours of the caller's; properties held to 20 inputs from seed 1, as in the kit's own tests
  env = {
    PATH: `${shims}${delimiter}${process.env['PATH'] ?? ''}`,
    HOME: process.env['HOME'] ?? root,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    PGV2KIT_PROPERTIES: '20',
    PGV2KIT_SEED: '1',
  };
}, 60_000);

/**
 * A fresh project that installed the kit, and a folder outside it for the commands' output.
 * node_modules/pgv2kit is a real folder, as npm makes it (its files hard links to the one copy:
 * a script run by its path there sees that path), its dependencies links to the clone's.
 */
function project(name: string): { project: string; logs: string } {
  const dir = join(root, 'projects', name);
  const modules = join(dir, 'node_modules');
  linkTree(join(root, 'installed'), join(modules, 'pgv2kit'));
  for (const dep of readdirSync(join(ROOT, 'node_modules')).filter((d) => !d.startsWith('.') && d !== 'pgv2kit'))
    symlinkSync(join(ROOT, 'node_modules', dep), join(modules, dep));
  mkdirSync(join(modules, '.bin'));
  symlinkSync('../pgv2kit/bin/pgv2kit.js', join(modules, '.bin', 'pgv2kit'));
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'my-sdk', private: true, devDependencies: { pgv2kit: 'file:pgv2kit-0.1.0.tgz' } }, null, 2)}\n`,
  );
  const logs = join(root, 'logs', name);
  mkdirSync(logs, { recursive: true });
  return { project: dir, logs };
}

describe('the convention is kept', () => {
  it.each(FILES)('%s: every fence has a language, shell blocks are sh, markers stand before a fence', (file) => {
    expect(parsed.get(file)?.problems).toEqual([]);
  });

  it.each(FILES)('%s: a block marked "runs in <file>" has each command in a block of that file that runs', (file) => {
    const missing: string[] = [];
    for (const block of parsed.get(file)?.blocks ?? []) {
      if (block.kind !== 'runs-in') continue;
      const there = new Set(runCommands(parsed.get(block.file)?.blocks ?? []));
      if (!parsed.has(block.file))
        missing.push(`line ${block.line}: ${block.file} is not one of the files whose blocks run`);
      for (const c of block.commands)
        if (!there.has(withoutComment(c.text)))
          missing.push(`line ${c.line}: not in a block of ${block.file} that runs: ${c.text}`);
    }
    expect(missing).toEqual([]);
  });

  it('README.md keeps the two commands, the first as a hook looks for it', () => {
    const first = parsed.get('README.md')?.blocks.find((b) => b.kind !== 'other' && b.kind !== 'file');
    expect(first && 'commands' in first ? first.commands[0]?.text : '').toMatch(/^npm ci +&& +npx pgv2kit run +#/);
  });

  it('most blocks run: a guide that marks every block not run teaches nothing checked', () => {
    // the guides' index, and the CLI reference (made from the option tables, it shows no command to run)
    for (const file of FILES.filter(
      (f) => f.startsWith('docs/guide/') && f !== 'docs/guide/README.md' && f !== 'docs/guide/cli.md',
    )) {
      expect(runCommands(parsed.get(file)?.blocks ?? []).length, file).toBeGreaterThan(0);
    }
  });
});

describe('the reader of blocks', () => {
  it('reads run, not run, runs-in and file blocks, commands with their lines and exit codes', () => {
    const md = [
      'text', //                                          1
      '```sh', //                                         2
      'npx pgv2kit vectors   # counts', //                3
      '', //                                              4
      '# a comment', //                                   5
      'npx pgv2kit explain \\', //                        6
      '  --app-id a   # exits 2: no --method', //         7
      '```', //                                           8
      '<!-- not run: needs a server -->', //              9
      '```sh', //                                         10
      'npx pgv2kit run --gateway https://x.example', //   11
      '```', //                                           12
      '<!-- file: body.json -->', //                      13
      '```json', //                                       14
      '{}', //                                            15
      '```', //                                           16
      '<!-- runs in docs/guide/ci.md -->', //             17
      '```sh', //                                         18
      'npx pgv2kit -V', //                                19
      '```', //                                           20
    ].join('\n');
    const { blocks, problems } = readBlocks(md);
    expect(problems).toEqual([]);
    expect(blocks).toEqual([
      {
        kind: 'run',
        line: 2,
        commands: [
          { line: 3, text: 'npx pgv2kit vectors   # counts', exits: 0 },
          { line: 6, text: 'npx pgv2kit explain \\\n  --app-id a   # exits 2: no --method', exits: 2 },
        ],
      },
      {
        kind: 'not-run',
        line: 10,
        reason: 'needs a server',
        commands: [{ line: 11, text: 'npx pgv2kit run --gateway https://x.example', exits: 0 }],
      },
      { kind: 'file', line: 14, name: 'body.json', content: '{}\n' },
      {
        kind: 'runs-in',
        line: 18,
        file: 'docs/guide/ci.md',
        commands: [{ line: 19, text: 'npx pgv2kit -V', exits: 0 }],
      },
    ]);
  });

  it.each([
    ['```\nls\n```', 'line 1: a fence without a language'],
    ['```bash\nls\n```', 'line 1: a `bash` block: write it as `sh`'],
    ['<!-- not run: -->\n```sh\nls\n```', 'line 2: "not run:" without a reason'],
    [
      '<!-- not run: a server -->\n\n```sh\nls\n```',
      'line 1: <!-- not run: a server --> is not the line just before a fence',
    ],
    ['<!-- not run: a server -->\n```text\nout\n```', 'line 2: <!-- not run: a server --> before a `text` block'],
    ["```sh\ncat > a.txt <<'EOF'\nx\nEOF\n```", 'line 2: a heredoc'],
    ['<!-- file: ../escape.txt -->\n```text\nx\n```', 'line 2: file ../escape.txt: a relative path inside the project'],
  ])('refuses %j', (md, problem) => {
    expect(readBlocks(md).problems.join('\n')).toContain(problem);
  });

  it('a trailing comment is cut outside quotes only', () => {
    expect(withoutComment('npx pgv2kit run --testee "node a.mjs # not a comment"   # a comment')).toBe(
      'npx pgv2kit run --testee "node a.mjs # not a comment"',
    );
    expect(withoutComment("echo 'it''s' #x")).toBe("echo 'it''s'");
    expect(withoutComment('echo a#b')).toBe('echo a#b');
  });
});

describe('a failing command is reported with its file, line and stderr', () => {
  it('a wrong option: exits 2 where 0 was documented, the rest of the file not run', async () => {
    const md = '```sh\nnpx pgv2kit -V\nnpx pgv2kit vectors --bogus\nnpx pgv2kit -V\n```\n';
    const outcome = await runBlocks('wrong.md', readBlocks(md).blocks, {
      ...project('wrong'),
      env,
      timeoutMs: FILE_TIMEOUT_MS,
    });
    expect(outcome.ran).toBe(1);
    expect(outcome.failure).toMatch(
      /^wrong\.md:3: exited 2, expected 0: npx pgv2kit vectors --bogus\n {2}stderr \(last lines\):\n {4}pgv2kit vectors: unknown option --bogus/,
    );
  });

  it('an exit code documented but not met fails too, and a file block is there for the command after it', async () => {
    const md = '<!-- file: a.txt -->\n```text\nhello\n```\n```sh\ngrep -q hello a.txt   # exits 1\n```\n';
    const outcome = await runBlocks('expects.md', readBlocks(md).blocks, {
      ...project('expects'),
      env,
      timeoutMs: FILE_TIMEOUT_MS,
    });
    expect(outcome.failure).toBe('expects.md:6: exited 0, expected 1: grep -q hello a.txt   # exits 1');
  });

  it('npx runs only the installed pgv2kit: anything else would reach the registry', async () => {
    const outcome = await runBlocks('npx.md', readBlocks('```sh\nnpx cowsay hi\n```\n').blocks, {
      ...project('npx'),
      env,
      timeoutMs: FILE_TIMEOUT_MS,
    });
    expect(outcome.failure).toContain(
      'npx.md:2: exited 127, expected 0: npx cowsay hi\n  stderr (last lines):\n    npx cowsay hi: a docs block runs only npx pgv2kit',
    );
  });
});

describe.concurrent('every command block runs as documented', () => {
  it.each(FILES)(
    '%s',
    async (file) => {
      const blocks = parsed.get(file)?.blocks ?? [];
      const outcome = await runBlocks(file, blocks, {
        ...project(file.replace(/\W+/g, '-')),
        env,
        timeoutMs: FILE_TIMEOUT_MS,
      });
      expect(outcome.failure).toBeUndefined();
      expect(outcome.ran).toBe(runCommands(blocks).length);
    },
    FILE_TIMEOUT_MS + 15_000,
  );
});

/** The commands of the blocks that run, without their comments. */
function runCommands(blocks: readonly Block[]): string[] {
  return blocks.flatMap((b) => (b.kind === 'run' ? b.commands.map((c) => withoutComment(c.text)) : []));
}
