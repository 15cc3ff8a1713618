// Whether dist/ is as new as what builds it: its entry and the vectors' snapshot exist, and the build's
// end (dist/.built, scripts/build-steps.mjs) is newer than every source of src/ and the build's settings
// (package.json, tsconfig.build.json). `npm test` (scripts/checks.mjs) skips a build dist/ already has — on a
// fresh clone `npm ci` has just built it through prepare — and vitest's global setup
// (suites/_support/build-dist.ts) builds when it is stale.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The newest change under a folder: of its files matching `files`, and of its folders (a file added or removed).
 * @param {string} dir
 * @param {RegExp} files
 * @returns {number}
 */
export function newest(dir, files) {
  let time = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    time = Math.max(
      time,
      entry.isDirectory() ? newest(path, files) : files.test(entry.name) ? statSync(path).mtimeMs : 0,
    );
  }
  return time;
}

/**
 * @param {string} root - the kit's folder
 * @returns {boolean} whether dist/ need not be built again
 */
export function distFresh(root) {
  const entry = join(root, 'dist', 'cli', 'main.js');
  const snapshot = join(root, 'dist', 'vectors', 'set-snapshot.json');
  // written as the build's last step (scripts/build-steps.mjs): tsc leaves an unchanged output as it was
  const stamp = join(root, 'dist', '.built');
  if (!existsSync(entry) || !existsSync(snapshot) || !existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  const settings = ['package.json', 'tsconfig.build.json'].map((f) => statSync(join(root, f)).mtimeMs);
  return built >= Math.max(newest(join(root, 'src'), /\.(ts|json)$/), ...settings);
}
