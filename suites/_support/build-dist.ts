/**
 * vitest global setup: builds dist/ when it is missing or older than a source file,
 * so tests that run the real binary or the Node example adapter (which import the
 * built package) see the code under test; and writes the snapshot of the kit's vectors
 * again (npm run snapshot) when a vector file is newer than it, so a case added by hand
 * (CONTRIBUTING, "Adding a vector") is what the tests load. `npm test` builds first anyway.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = join(ROOT, 'dist', 'cli', 'main.js');
const SNAPSHOT = join(ROOT, 'dist', 'vectors', 'set-snapshot.json');

/** The newest change under a folder: of its files matching `files`, and of its folders (a file added or removed). */
function newest(dir: string, files: RegExp): number {
  let time = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    time = Math.max(time, entry.isDirectory() ? newest(path, files) : files.test(entry.name) ? statSync(path).mtimeMs : 0);
  }
  return time;
}

export default function setup(): void {
  if (existsSync(ENTRY) && existsSync(SNAPSHOT) && statSync(ENTRY).mtimeMs >= newest(join(ROOT, 'src'), /\.(ts|json)$/)) {
    if (statSync(SNAPSHOT).mtimeMs < newest(join(ROOT, 'vectors'), /\.(ya?ml|json)$/)) execFileSync('npm', ['run', '--silent', 'snapshot'], { cwd: ROOT, stdio: 'inherit' });
    return;
  }
  // what npm run build does: compile, then the snapshot of the kit's vectors (src/vectors/write-snapshot.ts)
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
}
