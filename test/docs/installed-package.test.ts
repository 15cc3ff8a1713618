/**
 * The kit as an SDK team gets it (issue 13, item 7): `npm pack` (the dist/ that `npm test` built
 * first), the tarball installed into an empty project with no install-time script (its `prepare`
 * builds in a clone or a git install, never for a tarball), and
 * `npx pgv2kit run --testee "python3 <the shipped Python adapter>"` run from there — every vector
 * and property against the adapter the package ships, reports written in the project.
 *
 * And what the package ships (the files of that `npm pack --json`, scripts not run): the docs
 * that messages and reports cite, the example adapters `run --help` names, and every
 * path that `run --help`, README.md and the guides (docs/guide/) mention (paths in the
 * repository's development folders excepted: README says they are in the repository only).
 * One pack for both: npm's start and its walk of the package are a second of CPU.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/docs/refs.js';
import { tempFolders } from '../_support.js';
import { run } from '../cli/_run.js';

const exec = promisify(execFile);
const ROOT = PACKAGE_ROOT;
/** Folders of the repository that the package does not ship (README's layout says so). */
const DEVELOPMENT = ['src/', 'suites/', 'test/', 'bench/', 'reports/', '.ci/', 'scripts/'];

/** The front door and the guides: what a user reads first, shipped with the package. */
const MARKDOWN = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs/guide'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/guide/${f}`),
];
const tmp = tempFolders('pgv2kit-installed-');
let project = '';
let npxEnv: NodeJS.ProcessEnv = {};
/** The files the package ships, as npm pack lists them. */
let files: Set<string>;

beforeAll(async () => {
  const packs = tmp();
  const { stdout } = await exec('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packs], {
    cwd: PACKAGE_ROOT,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  const [pack] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  files = new Set((pack?.files ?? []).map((f) => f.path));
  project = tmp();
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'an-sdk', version: '1.0.0', private: true })}\n`,
  );
  // the dependencies come from npm's cache when `npm ci` filled it (CI), else from the registry
  await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(packs, pack?.filename ?? '')], {
    cwd: project,
    timeout: 90_000,
  });
  // CI=true: the plain progress of a CI log; no PGV2_* credentials of the caller's
  npxEnv = Object.fromEntries(Object.entries({ ...process.env, CI: 'true' }).filter(([k]) => !k.startsWith('PGV2')));
}, 150_000);

describe.concurrent('installed from the packed tarball into an empty project', () => {
  it('npx pgv2kit run --testee "python3 <shipped adapter>": every case passes, reports in the project, exit 0', async () => {
    const adapter = 'node_modules/pgv2kit/examples/python-adapter/pgv2kit_adapter.py';
    expect(existsSync(join(project, adapter))).toBe(true);
    const r = await exec(
      'npx',
      ['--no-install', 'pgv2kit', 'run', '--testee', `python3 ${adapter}`, '--report-dir', 'reports/python'],
      { cwd: project, env: npxEnv, timeout: 90_000 },
    ).then(
      (x) => ({ code: 0, ...x }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\d+ passed, 0 failed$/m);
    const results = JSON.parse(readFileSync(join(project, 'reports/python/results.json'), 'utf8')) as {
      conformant: boolean;
      totals: Record<string, number>;
      implementation: { name: string };
    };
    expect(results.conformant).toBe(true);
    expect(results.totals['passed']).toBeGreaterThan(300);
    expect([results.totals['failed'], results.totals['error']]).toEqual([0, 0]);
  }, 120_000);

  it('the node:test consumer checks the shipped vectors-json from the installed package, no kit code', async () => {
    const consumer = join(project, 'node_modules/pgv2kit/examples/consumers/node/signature-vectors.test.mjs');
    const r = await exec(process.execPath, ['--test', consumer], { cwd: project, env: npxEnv, timeout: 60_000 });
    expect(r.stdout).toMatch(/# pass [1-9]\d*\n# fail 0\n/);
  }, 60_000);

  it('refuses to write vectors inside the installed kit and says where to write; vectors init makes that place', async () => {
    // the bin npm linked, which npx runs (the run above goes through npx: its start is half a second a call)
    const bin = join(project, 'node_modules/.bin/pgv2kit');
    const settle = (
      p: Promise<{ stdout: string; stderr: string }>,
    ): Promise<{ code: number; stdout: string; stderr: string }> =>
      p.then(
        (x) => ({ code: 0, ...x }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
    const generate = await settle(
      exec(bin, ['generate', '--seed', '1', '--count', '1', '--area', 'signature'], {
        cwd: project,
        env: npxEnv,
        timeout: 60_000,
      }),
    );
    expect(generate.code).toBe(2);
    expect(generate.stderr).toContain('is inside the installed pgv2kit package');
    expect(generate.stderr).toContain('pgv2kit vectors init my-vectors');
    const init = await settle(
      exec(bin, ['vectors', 'init', 'my-vectors'], {
        cwd: project,
        env: npxEnv,
        timeout: 60_000,
      }),
    );
    expect(init.code, init.stderr).toBe(0);
    const into = await settle(
      exec(bin, ['generate', '--seed', '1', '--count', '2', '--area', 'signature', '--dir', 'my-vectors'], {
        cwd: project,
        env: npxEnv,
        timeout: 60_000,
      }),
    );
    expect(into.code, into.stderr).toBe(0);
    expect(into.stdout).toContain('OK: the vector set in');
  }, 120_000);

  it('has no install-time script, ships its LICENSE, and no source map pointing at sources it does not ship', () => {
    const installed = join(project, 'node_modules/pgv2kit');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    // prepare builds dist/ in a clone and for an install from a git URL; npm never runs it for a
    // tarball (this install ran scripts: had it run, its build would have needed tsc, absent here)
    expect(
      Object.keys(manifest.scripts ?? {}).filter((s) => ['preinstall', 'install', 'postinstall'].includes(s)),
    ).toEqual([]);
    expect(manifest.scripts?.['prepare']).toBe('node scripts/prepare.mjs');
    expect(existsSync(join(installed, 'dist/cli/main.js'))).toBe(true);
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    const maps = (readdirSync(join(installed, 'dist'), { recursive: true }) as string[]).filter((f) =>
      f.endsWith('.map'),
    );
    expect(maps).toEqual([]);
  });
});

/** Whether the package holds the path: a file, or a folder with a file in it. */
function shipped(path: string): boolean {
  const p = path.replace(/^\.\//, '');
  if (files.has(p)) return true;
  const folder = p.endsWith('/') ? p : `${p}/`;
  return [...files].some((f) => f.startsWith(folder));
}

describe('the npm package', () => {
  it.each([
    'docs/gateway-spec.md',
    'docs/readings.md',
    'docs/PROTOCOL.md',
    'docs/README.md',
    'examples/node-adapter/adapter.mjs',
    'examples/python-adapter/pgv2kit_adapter.py',
    'examples/sample-merchant/merchant.mjs',
    'examples/consumers/python/test_signature_vectors.py',
    'examples/consumers/node/signature-vectors.test.mjs',
    'vectors-json/index.json',
    'vectors-json/signature/basics.json',
    'vectors-json/schema/signature.schema.json',
    'LICENSE',
    'src/protocol/protocol-v1.schema.json',
    'src/reports/results-v2.schema.json',
    'dist/reports/shard.schema.json',
    'dist/docs/refs.js',
    'package.json',
  ])('ships %s', (path) => {
    expect(files.has(path), `${path} is not in npm pack's list`).toBe(true);
  });

  it('ships every page of docs/mistakes and docs/failures', () => {
    const pages = [...files].filter((f) => /^docs\/(mistakes|failures)\/[a-z0-9-]+\.md$/.test(f));
    expect(pages.filter((f) => f.startsWith('docs/mistakes/')).length).toBeGreaterThan(50);
    expect(pages.filter((f) => f.startsWith('docs/failures/')).length).toBeGreaterThan(30);
    expect(files.has('docs/mistakes/no-final-lf.md')).toBe(true);
  });

  it('ships no tests, suites or sources beyond the published schemas', () => {
    const schemas = ['src/protocol/protocol-v1.schema.json', 'src/reports/results-v2.schema.json'];
    expect([...files].filter((f) => /^(test|suites|bench|src)\//.test(f) && !schemas.includes(f))).toEqual([]);
  });

  it('every path `pgv2kit run --help` names is in the package', async () => {
    const help = (await run(['run', '--help'])).stdout;
    const paths = [...help.matchAll(/\b((?:docs|examples|vectors|bin|dist|src)\/[\w./-]*[\w/])/g)].map(
      (m) => m[1] ?? '',
    );
    expect(paths).toContain('docs/PROTOCOL.md');
    expect(paths).toContain('examples/python-adapter/pgv2kit_adapter.py');
    expect(paths.filter((p) => !shipped(p))).toEqual([]);
  });

  it.each(MARKDOWN)('every path %s mentions is in the package (development folders: in the repository)', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    expect(text).not.toContain('../shared/');
    const mentioned = new Set<string>();
    for (const m of text.matchAll(/\]\(([^)\s#]+)[^)]*\)|`([^`\s]+)`/g)) {
      // a link is relative to its file, a path in code to the kit's folder
      const p =
        m[1] !== undefined ? relative(ROOT, resolve(ROOT, dirname(file), m[1])) : (m[2] ?? '').replace(/^\.\//, '');
      const top = p.split('/')[0] ?? '';
      if (
        /^[\w.-]+(\/[\w.-]+)*\/?$/.test(p) &&
        p.includes('/') &&
        !p.startsWith('..') &&
        top !== 'node_modules' &&
        existsSync(join(ROOT, top))
      )
        mentioned.add(p);
    }
    if (file === 'README.md') {
      expect(mentioned).toContain('docs/gateway-spec.md');
      expect(mentioned).toContain('examples/python-adapter/pgv2kit_adapter.py');
    }
    const missing = [...mentioned].filter((p) =>
      DEVELOPMENT.some((d) => p.startsWith(d)) ? !existsSync(join(ROOT, p)) : !shipped(p),
    );
    expect(missing).toEqual([]);
  });
});
