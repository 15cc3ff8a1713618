#!/usr/bin/env node
// The checks `npm test` runs before the tests: the build and the type check at once (each is
// tsc, single-threaded for most of its time: two cores take both in the time of the longer),
// then the layer rules on the built tree (beside the type check when the build is skipped). A dist/ newer than every source and build setting is
// not built again (scripts/dist-fresh.mjs: on a fresh clone, npm ci has just built it). Each one's output is printed whole when it ends; the
// exit code is the first failure's, so a red step is never hidden by a green one.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { distFresh } from './dist-fresh.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function step(script) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('close', (code) => {
      process.stdout.write(`> ${script}: ${code === 0 ? 'ok' : `failed (exit ${code})`}\n${out}`);
      resolve(code ?? 1);
    });
  });
}

const fresh = distFresh(fileURLToPath(new URL('..', import.meta.url)));
if (fresh) process.stdout.write('> build: dist/ is newer than src/, package.json and tsconfig.build.json: not built again (npm run build forces it)\n');
// the layer rules read the built tree: with dist/ fresh they run beside the type check, else after the build
const [build, typecheck, layers] = fresh
  ? [0, ...(await Promise.all([step('typecheck'), step('layers')]))]
  : await Promise.all([step('build'), step('typecheck')]).then(async ([b, t]) => [b, t, b === 0 ? await step('layers') : 1]);
process.exit([build, typecheck, layers].find((c) => c !== 0) ?? 0);
