/**
 * The kit as an SDK team gets it (issue 13, item 7): `npm pack` (the dist/ that `npm test` built
 * first), the tarball installed into an empty project with no install-time script (its `prepare`
 * builds in a clone or a git install, never for a tarball), and
 * `npx pgv2kit run --testee "python3 <the shipped Python adapter>"` run from there — every vector
 * and property against the adapter the package ships, reports written in the project.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/docs/refs.js';
import { tempFolders } from '../_support.js';

const exec = promisify(execFile);
const tmp = tempFolders('pgv2kit-installed-');
let project = '';
let npxEnv: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  const packs = tmp();
  const { stdout } = await exec('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packs], {
    cwd: PACKAGE_ROOT,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  const [pack] = JSON.parse(stdout) as Array<{ filename: string }>;
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
