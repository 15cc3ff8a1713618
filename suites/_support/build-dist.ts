/**
 * vitest global setup: builds dist/ when it is missing or older than a source file,
 * so tests that run the real binary or the Node example adapter (which import the
 * built package) see the code under test; and writes the snapshot of the kit's vectors
 * again (npm run snapshot) when a vector file is newer than it, so a case added by hand
 * (CONTRIBUTING, "Adding a vector") is what the tests load. `npm test` builds first anyway.
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distFresh, newest } from '../../scripts/dist-fresh.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SNAPSHOT = join(ROOT, 'dist', 'vectors', 'set-snapshot.json');

export default function setup(): void {
  if (distFresh(ROOT)) {
    if (statSync(SNAPSHOT).mtimeMs < newest(join(ROOT, 'vectors'), /\.(ya?ml|json)$/))
      execFileSync('npm', ['run', '--silent', 'snapshot'], { cwd: ROOT, stdio: 'inherit' });
    return;
  }
  // what npm run build does: compile, then the snapshot of the kit's vectors (src/vectors/write-snapshot.ts)
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
}
