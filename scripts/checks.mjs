#!/usr/bin/env node
// npm test: the build (unless dist/ is newer than every source and build setting: scripts/dist-fresh.mjs;
// on a fresh clone npm ci has just built it), then at once the tests (vitest, its output
// streamed) and the checks — the type check, the layer rules on the built tree, the lint (eslint over src/,
// scripts/ and bin/; `npm run lint` takes the tests too) and the formatting check (prettier, the whole
// tree). The machine's cores are busy either way: run beside the tests the checks cost their CPU time,
// not the time of a step of their own. Each check's output is printed whole when it ends, and the
// checks' verdicts once more after the tests, so a red check is never lost in the tests' output; the exit
// code is the first failure's. Arguments go to vitest (`npm test -- -t signature`).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { distFresh } from './dist-fresh.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const CHECKS = ['typecheck', 'layers', 'lint:src', 'format:check'];

/** Runs an npm script, its output kept and printed whole when it ends; resolves to its exit code. */
function check(script) {
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

/**
 * Runs vitest, its output streamed; resolves to its exit code. Coverage is `npm run coverage` (V8 counting every
 * loaded function after each test file is 7 s of CPU the CI budget has no room for).
 */
function tests(args) {
  return new Promise((resolve) => {
    const child = spawn(npx, ['vitest', 'run', ...args], { stdio: 'inherit' });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

if (distFresh(fileURLToPath(new URL('..', import.meta.url))))
  process.stdout.write(
    '> build: dist/ is newer than src/, package.json and tsconfig.build.json: not built again (npm run build forces it)\n',
  );
else if ((await check('build')) !== 0) process.exit(1);
// the layer rules read the built tree, and the type check the build's declarations of src/ (tsconfig.tests.json)
const checks = CHECKS.map((script) => check(script));
const testCode = await tests(process.argv.slice(2));
const checkCodes = await Promise.all(checks);
process.stdout.write(
  `> checks: ${CHECKS.map((s, i) => `${s} ${checkCodes[i] === 0 ? 'ok' : `FAILED (exit ${checkCodes[i]}, its output above)`}`).join(', ')}\n`,
);
process.exit(checkCodes.find((c) => c !== 0) ?? testCode);
