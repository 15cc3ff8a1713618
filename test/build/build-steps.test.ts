/**
 * npm run build's first and last steps (scripts/build-steps.mjs) and what reads the last (scripts/dist-fresh.mjs),
 * run on a kit of a few files in a temporary folder: what no source compiles to any more leaves dist/; what a source
 * compiles to and what the build's other steps write stay; an output removed by hand makes tsc compile everything
 * again (its .tsbuildinfo goes), a source added since does not; and dist/ is fresh only once the build has ended.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/docs/refs.js';
import { distFresh } from '../../scripts/dist-fresh.mjs';
import { tempFolders } from '../_support.js';

const tmp = tempFolders('pgv2kit-build-steps-');
const HOUR_AGO = new Date(Date.now() - 3_600_000);

/** A kit folder with the scripts, the sources and the dist/ files given; the sources an hour older than dist/. */
function kit(src: readonly string[], dist: readonly string[]): string {
  const root = tmp();
  for (const s of ['build-steps.mjs', 'dist-fresh.mjs']) {
    mkdirSync(join(root, 'scripts'), { recursive: true });
    copyFileSync(join(PACKAGE_ROOT, 'scripts', s), join(root, 'scripts', s));
  }
  for (const f of ['package.json', 'tsconfig.build.json', ...src.map((s) => `src/${s}`)]) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), f);
    utimesSync(join(root, f), HOUR_AGO, HOUR_AGO);
  }
  for (const f of dist.map((d) => `dist/${d}`)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), f);
  }
  return root;
}

function step(root: string, which: string): void {
  execFileSync(process.execPath, [join(root, 'scripts/build-steps.mjs'), which], { stdio: 'pipe' });
}

const BUILT = ['a.js', 'a.d.ts', 'x/b.js', 'x/b.d.ts', 'x/s.json', '.tsbuildinfo', 'vectors/set-snapshot.json'];
const at = (root: string, f: string): boolean => existsSync(join(root, 'dist', f));

describe('build-steps before', () => {
  it("removes the outputs of a source that is gone and nothing else; keeps tsc's record when every output is there", () => {
    const root = kit(['a.ts', 'x/b.ts', 'x/s.json', 'x/README.md'], [...BUILT, 'gone.js', 'gone.d.ts', 'x/old.json']);
    step(root, 'before');
    for (const f of BUILT) expect(at(root, f), f).toBe(true);
    for (const f of ['gone.js', 'gone.d.ts', 'x/old.json']) expect(at(root, f), f).toBe(false);
    for (const f of ['a.ts', 'x/b.ts', 'x/s.json', 'x/README.md'])
      expect(existsSync(join(root, 'src', f)), f).toBe(true);
  });

  it('an output removed by hand: .tsbuildinfo goes, so that tsc writes every output again', () => {
    const root = kit(
      ['a.ts', 'x/b.ts', 'x/s.json'],
      BUILT.filter((f) => f !== 'x/b.d.ts'),
    );
    step(root, 'before');
    expect(at(root, '.tsbuildinfo')).toBe(false);
    expect(at(root, 'a.js')).toBe(true);
  });

  it('a source added since the last build: no output yet, and tsc compiles it anyway (its record kept)', () => {
    const root = kit(['a.ts', 'x/b.ts', 'x/s.json'], BUILT);
    writeFileSync(join(root, 'src/new.ts'), 'export {};');
    step(root, 'before');
    expect(at(root, '.tsbuildinfo')).toBe(true);
  });

  it('no dist/ (a fresh clone): nothing to do, nothing made', () => {
    const root = kit(['a.ts'], []);
    step(root, 'before');
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });

  it('a step that is neither before nor after: exit 2, naming it', () => {
    const root = kit(['a.ts'], []);
    expect(() => step(root, 'later')).toThrow(/build-steps: say before or after, not "later"/);
  });
});

describe('build-steps after, and dist-fresh', () => {
  it('dist/ is fresh once the build has ended, and stale again when a source changes', () => {
    const root = kit(['a.ts', 'cli/main.ts'], [...BUILT, 'cli/main.js']);
    expect(distFresh(root), 'no .built yet').toBe(false);
    step(root, 'after');
    expect(distFresh(root)).toBe(true);
    step(root, 'before');
    expect(distFresh(root), 'a build begun and not ended').toBe(false);
    step(root, 'after');
    writeFileSync(join(root, 'src/a.ts'), 'changed');
    utimesSync(join(root, 'src/a.ts'), new Date(Date.now() + 5_000), new Date(Date.now() + 5_000));
    expect(distFresh(root)).toBe(false);
  });
});
