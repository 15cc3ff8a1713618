/**
 * npm run build's first step (scripts/prune-dist.mjs), run on a kit of a few files in a temporary folder: what
 * no source compiles to any more leaves dist/, what a source compiles to and what the build's other steps write
 * stay, and an output removed by hand makes tsc compile everything again (its .tsbuildinfo goes).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/docs/refs.js';
import { tempFolders } from '../_support.js';

const tmp = tempFolders('pgv2kit-prune-dist-');

/** A kit folder with the script, the sources and the dist/ files given, each file holding its name. */
function kit(src: readonly string[], dist: readonly string[]): string {
  const root = tmp();
  mkdirSync(join(root, 'scripts'));
  copyFileSync(join(PACKAGE_ROOT, 'scripts/prune-dist.mjs'), join(root, 'scripts/prune-dist.mjs'));
  for (const f of [...src.map((s) => `src/${s}`), ...dist.map((d) => `dist/${d}`)]) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), f);
  }
  return root;
}

function prune(root: string): void {
  execFileSync(process.execPath, [join(root, 'scripts/prune-dist.mjs')]);
}

const BUILT = ['a.js', 'a.d.ts', 'x/b.js', 'x/b.d.ts', 'x/s.json', '.tsbuildinfo', 'vectors/set-snapshot.json'];

describe('prune-dist', () => {
  it("removes the outputs of a source that is gone and nothing else; keeps tsc's record when every output is there", () => {
    const root = kit(['a.ts', 'x/b.ts', 'x/s.json', 'x/README.md'], [...BUILT, 'gone.js', 'gone.d.ts', 'x/old.json']);
    prune(root);
    for (const f of BUILT) expect(existsSync(join(root, 'dist', f)), f).toBe(true);
    for (const f of ['gone.js', 'gone.d.ts', 'x/old.json']) expect(existsSync(join(root, 'dist', f)), f).toBe(false);
    // the sources are never touched
    for (const f of ['a.ts', 'x/b.ts', 'x/s.json', 'x/README.md'])
      expect(existsSync(join(root, 'src', f)), f).toBe(true);
  });

  it('an output missing (removed by hand): .tsbuildinfo goes, so that tsc writes every output again', () => {
    const root = kit(
      ['a.ts', 'x/b.ts', 'x/s.json'],
      BUILT.filter((f) => f !== 'x/b.d.ts'),
    );
    prune(root);
    expect(existsSync(join(root, 'dist/.tsbuildinfo'))).toBe(false);
    expect(existsSync(join(root, 'dist/a.js'))).toBe(true);
  });

  it('no dist/ (a fresh clone): nothing to do, nothing made', () => {
    const root = kit(['a.ts'], []);
    prune(root);
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });
});
