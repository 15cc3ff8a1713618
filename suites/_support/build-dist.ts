/**
 * vitest global setup: builds dist/ when it is missing or older than a source file,
 * so tests that run the real binary or the Node example adapter (which import the
 * built package) see the code under test. `npm test` builds first anyway.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = join(ROOT, 'dist', 'cli', 'main.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : /\.(ts|json)$/.test(entry.name) ? statSync(path).mtimeMs : 0);
  }
  return newest;
}

export default function setup(): void {
  if (existsSync(ENTRY) && statSync(ENTRY).mtimeMs >= newestSource(join(ROOT, 'src'))) return;
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
}
