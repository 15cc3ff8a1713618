#!/usr/bin/env node
// The checks `npm test` runs before the tests: the build, the type check, the lint (eslint over src/,
// scripts/ and bin/; `npm run lint` takes the tests too) and the formatting check (prettier, the whole
// tree) at once — tsc is single-threaded for most of its time: eslint and prettier take the other core —
// then the layer rules on the built tree (beside the others when the build is skipped). A dist/ newer than
// every source and build setting is not built again (scripts/dist-fresh.mjs: on a fresh clone, npm ci has
// just built it). Each one's output is printed whole when it ends; the exit code is the first failure's,
// so a red step is never hidden by a green one.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { distFresh } from './dist-fresh.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function step(script, report = (code, out) => `> ${script}: ${code === 0 ? 'ok' : `failed (exit ${code})`}\n${out}`) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('close', (code) => {
      process.stdout.write(report(code ?? 1, out));
      resolve(code ?? 1);
    });
  });
}

const fresh = distFresh(fileURLToPath(new URL('..', import.meta.url)));
if (fresh)
  process.stdout.write(
    '> build: dist/ is newer than src/, package.json and tsconfig.build.json: not built again (npm run build forces it)\n',
  );
// the layer rules read the built tree, and the type check the build's declarations of src/ (tsconfig.tests.json):
// with dist/ fresh they run beside the others, else after the build
const build = fresh ? Promise.resolve(0) : step('build');
const codes = await Promise.all([
  build,
  build.then((code) => (code === 0 ? step('typecheck') : 1)),
  build.then((code) => (code === 0 ? step('layers') : 1)),
  step('lint:src'),
  step('format:check'),
]);
process.exit(codes.find((c) => c !== 0) ?? 0);
