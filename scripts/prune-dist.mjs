#!/usr/bin/env node
// npm run build's first step, before tsc: makes dist/ hold nothing tsc would not write now, so that tsc can build
// incrementally (tsconfig.build.json is composite: dist/.tsbuildinfo keeps what each source compiled to, and tsc
// compiles again only what changed and what depends on it — a recipe's new role, 2.5 s of CPU instead of the 8 s
// of a whole build) without dist/ keeping what no source makes any more. The build emptied dist/ before; now:
// - the output of a source that is gone (dist/x.js and dist/x.d.ts without src/x.ts, dist/x.json without
//   src/x.json) is removed, so dist/ and the package hold no stale module (the layer rules read dist/);
// - when the output of a source is missing (a file of dist/ removed by hand), dist/.tsbuildinfo is removed too: tsc
//   then compiles everything again, as it would not re-write an output it believes written.
// Only dist/ is touched, and in it only tsc's outputs and its .tsbuildinfo; the snapshot step writes its own file.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');
const dist = join(root, 'dist');
/** Files of dist/ no source compiles to: tsc's record, and what `npm run snapshot` writes. */
const NOT_COMPILED = new Set(['.tsbuildinfo', 'vectors/set-snapshot.json']);

/** The files under a folder, as paths relative to it with `/`. */
function files(dir, prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

/** What tsc writes of each source of src/ (tsconfig.build.json: its .ts files and its .json files). */
function outputs() {
  const out = new Set();
  for (const f of files(src)) {
    if (f.endsWith('.ts') && !f.endsWith('.d.ts')) {
      out.add(`${f.slice(0, -3)}.js`);
      out.add(`${f.slice(0, -3)}.d.ts`);
    } else if (f.endsWith('.json')) out.add(f);
  }
  return out;
}

if (existsSync(dist)) {
  const expected = outputs();
  const present = files(dist);
  const have = new Set(present);
  for (const f of present) if (!expected.has(f) && !NOT_COMPILED.has(f)) rmSync(join(dist, f));
  if ([...expected].some((f) => !have.has(f))) rmSync(join(dist, '.tsbuildinfo'), { force: true });
}
