#!/usr/bin/env node
// npm's prepare: builds dist/ unless it is fresh (scripts/dist-fresh.mjs). `npm ci` on a fresh
// clone builds it; `npx pgv2kit` in the clone then links the clone into npx's cache, which runs
// prepare again — with dist/ fresh that is nothing, not a second build of the same tree.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { distFresh } from './dist-fresh.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
if (distFresh(root)) {
  process.stdout.write(
    'prepare: dist/ is newer than src/, package.json and tsconfig.build.json: not built again (npm run build forces it)\n',
  );
  process.exit(0);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const r = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(r.status ?? 1);
