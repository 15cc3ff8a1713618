/**
 * CONTRIBUTING's recipes work as written (issue 20, item 5): each is followed in a temporary copy of
 * the kit (its files copied, node_modules linked) step by step as CONTRIBUTING states it — the YAML
 * case "Adding a vector" shows, appended to the file it names; the adapter "Adding an adapter"
 * points to, saved where it says, with the README it shows — then the commands the recipe names are
 * run there, as a contributor would type them, and each must pass. Nothing but what the recipe says
 * is changed in the copy, so a test that pins what a recipe changes fails here. `npx <name>` runs
 * what npx resolves it to in the kit's folder — the bin package.json names, else node_modules/.bin —
 * through a shim on PATH, without npx's own start (half a second each; the README's
 * `npx pgv2kit run`, which .ci/run types as it is, checks npx in a clone).
 */
import { execFile } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadVectorSet } from '../../src/vectors/load.js';
import { linkTree } from '../_support.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONTRIBUTING = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
/** What a copy of the kit needs to run its tests; dist/ last, so it is newer than the sources it was built from. */
const COPIED = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'vitest.config.ts',
  'CONTRIBUTING.md',
  'bin',
  'src',
  'vectors',
  'suites',
  'test',
  'examples',
  'scripts',
  'docs',
  'dist',
];

const copies: string[] = [];
/**
 * npx as it resolves a name in the kit's own folder (no registry: anything else is refused): the
 * package's bin of that name, as package.json declares it, else the linked node_modules/.bin's.
 */
const shims = mkdtempSync(join(tmpdir(), 'pgv2kit-recipe-npx-'));
copies.push(shims);
writeFileSync(
  join(shims, 'npx'),
  [
    '#!/bin/sh',
    'name=$1; shift',
    `bin=$(node -e 'const p = require(process.cwd() + "/package.json"); const b = typeof p.bin === "string" ? { [p.name]: p.bin } : p.bin; process.stdout.write(String(b?.[process.argv[1]] ?? ""))' "$name")`,
    '[ -n "$bin" ] && exec "$PWD/$bin" "$@"',
    '[ -x "node_modules/.bin/$name" ] && exec "node_modules/.bin/$name" "$@"',
    'echo "npx $name: not a bin of the kit nor of its node_modules (a recipe reaches no registry)" >&2',
    'exit 127',
    '',
  ].join('\n'),
);
chmodSync(join(shims, 'npx'), 0o755);
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe.concurrent('the recipes of CONTRIBUTING.md, followed in a copy of the kit', () => {
  it('Adding a vector: the case it shows, in the file it names, passes what it says to run', async () => {
    const recipe = section('Adding a vector');
    const yaml = fence(recipe, 'yaml');
    const file = [...recipe.slice(0, recipe.indexOf(yaml.raw)).matchAll(/`(vectors\/[\w/.-]+\.yaml)`/g)].at(-1)?.[1];
    expect(file, 'the file the case goes in, named before it').toBeDefined();
    const added = (parse(yaml.body) as Array<{ id: string }>)[0];
    expect(added?.id, 'the recipe shows one case').toMatch(/^signature\./);
    // the example stays an example: a case of the kit with its id would make the recipe add it twice
    expect(
      loadVectorSet().cases.map((c) => c.case.id),
      "the recipe's id is taken by a case of the kit: give the example another",
    ).not.toContain(added?.id);
    const kit = copyKit();
    appendFileSync(join(kit, file ?? ''), yaml.body);
    for (const command of commands(fence(recipe, 'sh').body)) {
      const out = await expectPasses(command, kit);
      if (command.startsWith('npx vitest')) expect(out).toMatch(/\n[1-9]\d* passed, 0 failed\n$/);
    }
    // what ran is the set with the case in it: as the copy's own kit loads it (its loader, its snapshot of the
    // set, which the run's global setup wrote again from the changed vectors; loaded in full here, the set's
    // YAML took 0.8 s of CPU)
    const copied = (await import(pathToFileURL(join(kit, 'dist/vectors/load.js')).href)) as {
      loadVectorSet: typeof loadVectorSet;
    };
    expect(copied.loadVectorSet(join(kit, 'vectors')).cases.map((c) => c.case.id)).toContain(added?.id);
  }, 120_000);

  it('Adding a role: the folder and the registry entry it shows make a kind the kit runs and reports', async () => {
    const recipe = section('Adding a role');
    const files = [...recipe.matchAll(/<!-- file: ([\w/.-]+) -->\n( *)```(\w+)\n([\s\S]*?)^\2```$/gm)].map((m) => ({
      path: m[1] ?? '',
      body: unindent(m[4] ?? '', m[2] ?? ''),
    }));
    // one folder of src/roles/ and the role's vectors (its schema and its folder): nothing else is written
    const folders = new Set(files.map((f) => f.path.split('/').slice(0, -1).join('/')));
    expect([...folders].sort()).toEqual(['src/roles/example', 'vectors/example', 'vectors/schema']);
    expect(files.filter((f) => f.path.startsWith('vectors/schema/')).map((f) => f.path)).toEqual([
      'vectors/schema/example.schema.json',
    ]);
    const edit = /<!-- edit: (src\/roles\/registry\.ts) -->\n( *)```ts\n([\s\S]*?)^\2```$/m.exec(recipe);
    expect(edit, 'the registry entry, shown as the lines it adds').not.toBeNull();
    const kit = copyKit({ modulesAtHome: true });
    for (const f of files) {
      mkdirSync(dirname(join(kit, f.path)), { recursive: true });
      writeFileSync(join(kit, f.path), f.body);
    }
    // the entry: its import after the registry's imports, and ROLES's line replaced by the recipe's
    const registry = join(kit, edit?.[1] ?? '');
    const lines = readFileSync(registry, 'utf8').split('\n');
    const [importLine, rolesLine, ...rest] = unindent(edit?.[3] ?? '', edit?.[2] ?? '')
      .trimEnd()
      .split('\n');
    expect(rest, 'the entry is two lines: the import and ROLES').toEqual([]);
    const roles = lines.findIndex((l) => l.startsWith('export const ROLES = '));
    expect(roles, 'ROLES is one line of the registry').toBeGreaterThan(-1);
    lines[roles] = rolesLine ?? '';
    lines.splice(lines.findLastIndex((l) => l.startsWith('import ')) + 1, 0, importLine ?? '');
    writeFileSync(registry, lines.join('\n'));
    const [build, run, ...more] = commands(fence(recipe, 'sh').body);
    expect(more).toEqual([]);
    await expectPasses(build ?? '', kit);
    const out = await expectPasses(`${run} --json --report-dir reports/recipe`, kit);
    const summary = JSON.parse(out.slice(0, out.indexOf('\n'))) as { totals: { passed: number; failed: number } };
    expect(summary.totals).toMatchObject({ passed: 1, failed: 0 });
    // reported under its kind, by the runner and the reports with nothing added for it
    const results = JSON.parse(readFileSync(join(kit, 'reports/recipe/results.json'), 'utf8')) as {
      cases: Array<{ id: string; kind: string; status: string }>;
    };
    expect(results.cases.map((c) => [c.id, c.kind, c.status])).toEqual([
      ['example.generate-upload-url', 'example', 'pass'],
    ]);
  }, 120_000);

  it('Adding an adapter: the partial adapter it points to, with the README it shows, passes what it says to run', async () => {
    const recipe = section('Adding an adapter');
    const [, doc = '', anchor = ''] = /\]\((docs\/[\w.-]+\.md)#([\w-]+)\)/.exec(recipe) ?? [];
    const source = fence(headingSection(readFileSync(join(ROOT, doc), 'utf8'), anchor), 'python').body;
    const target = /`(examples\/[\w-]+\/[\w.-]+)`/.exec(recipe)?.[1] ?? '';
    expect(target, 'where the adapter is saved').toMatch(/^examples\/[\w-]+\/adapter\.py$/);
    const readme = fence(recipe, 'markdown').body;
    expect(readme).toContain(`pgv2kit run --testee "python3 ${target}"`);
    const kit = copyKit();
    mkdirSync(join(kit, dirname(target)));
    writeFileSync(join(kit, target), source);
    writeFileSync(join(kit, dirname(target), 'README.md'), readme);
    const [command, ...more] = commands(fence(recipe, 'sh').body);
    expect(more).toEqual([]);
    expect(command).toContain(` -t ${dirname(target).split('/')[1]}`);
    // the adapter's own test ran (the one test the recipe's -t names), and it passed
    expect(await expectPasses(command ?? '', kit)).toMatch(/\n1 passed, 0 failed\n$/);
  }, 120_000);
});

// --- internal ---

/** A recipe: its section of CONTRIBUTING.md, up to the next section. */
function section(title: string): string {
  const start = CONTRIBUTING.indexOf(`\n## ${title}\n`);
  expect(start, `CONTRIBUTING.md has a section "${title}"`).toBeGreaterThan(0);
  const end = CONTRIBUTING.indexOf('\n## ', start + 1);
  return CONTRIBUTING.slice(start, end === -1 ? undefined : end);
}

/** The section of a Markdown text under the heading whose GitHub anchor is given. */
function headingSection(md: string, anchor: string): string {
  const lines = md.split('\n');
  const at = lines.findIndex(
    (l) =>
      /^#{2,3} /.test(l) &&
      l
        .replace(/^#+ /, '')
        .toLowerCase()
        .replace(/[^\w\s-]/g, '')
        .replace(/\s/g, '-') === anchor,
  );
  expect(at, `a heading #${anchor}`).toBeGreaterThan(-1);
  const next = lines.findIndex((l, i) => i > at && /^#{1,3} /.test(l));
  return lines.slice(at, next === -1 ? undefined : next).join('\n');
}

/** The first fenced block of a language, its indentation (a list item's) removed. */
function fence(text: string, lang: string): { readonly raw: string; readonly body: string } {
  const m = new RegExp(`^( *)\`\`\`${lang}\\n([\\s\\S]*?)^\\1\`\`\`$`, 'm').exec(text);
  expect(m, `a \`\`\`${lang} block`).not.toBeNull();
  const indent = m?.[1] ?? '';
  return {
    raw: m?.[0] ?? '',
    body: (m?.[2] ?? '')
      .split('\n')
      .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
      .join('\n'),
  };
}

/** A fenced block's lines without the indentation of the list item it is in. */
function unindent(body: string, indent: string): string {
  return body
    .split('\n')
    .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
    .join('\n');
}

/** The commands of a shell block, comments left out. */
function commands(sh: string): string[] {
  return sh
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/**
 * A copy of the kit in a temporary folder, node_modules linked. `modulesAtHome`: node_modules a folder of the copy's
 * own, its files hard links (a link to the clone's gives TypeScript its modules at another relative path than
 * dist/.tsbuildinfo records, so the copy's `npm run build` compiled everything again: 8.7 s of CPU, not 5); its
 * caches (.vite, .cache) left out, so that nothing the copy writes there is written in the clone's files. On
 * another file system than the clone's, a link as the others.
 */
function copyKit(options: { readonly modulesAtHome?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-recipe-'));
  copies.push(dir);
  for (const name of COPIED) cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  const modules = join(ROOT, 'node_modules');
  try {
    if (!options.modulesAtHome) throw new Error('a link asked for');
    linkTree(modules, join(dir, 'node_modules'), new Set(['.vite', '.cache']));
  } catch {
    rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
    symlinkSync(modules, join(dir, 'node_modules'), 'dir');
  }
  return dir;
}

/** Runs a command as a contributor would in the copy (a shell, its folder), outside this test run's vitest. */
async function expectPasses(command: string, cwd: string): Promise<string> {
  // the variables vitest sets for its own workers would make the command's vitest think it is one
  const env = {
    ...Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(__)?VITEST|^TINYPOOL|^NODE_V8_COVERAGE$/.test(k)),
    ),
    // in the copy, node_modules is a link: npm reads it as an out-of-date tree, and runs no install-time script
    npm_config_ignore_scripts: 'true',
    PATH: `${shims}${delimiter}${process.env['PATH'] ?? ''}`,
  };
  const { code, out } = await new Promise<{ code: number; out: string }>((resolve) => {
    execFile('sh', ['-c', command], { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
  expect(code, `${command}\n${out.slice(-4000)}`).toBe(0);
  return out;
}
