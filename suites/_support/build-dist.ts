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
const SNAPSHOT = join(ROOT, 'dist', 'vectors', 'set-snapshot.json');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : /\.(ts|json)$/.test(entry.name) ? statSync(path).mtimeMs : 0);
  }
  return newest;
}

export default function setup(): void {
  if (existsSync(ENTRY) && existsSync(SNAPSHOT) && statSync(ENTRY).mtimeMs >= newestSource(join(ROOT, 'src'))) return;
  // what npm run build does: compile, then the snapshot of the kit's vectors (src/vectors/write-snapshot.ts)
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
}
