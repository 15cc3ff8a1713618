#!/usr/bin/env node
// npm run build's first and last steps, around tsc and the vectors' snapshot:
//
//     node scripts/build-steps.mjs before && tsc -p tsconfig.build.json && npm run --silent snapshot
//     && node scripts/build-steps.mjs after
//
// `before` makes dist/ hold nothing tsc would not write now, so that tsc can build incrementally
// (tsconfig.build.json is composite: dist/.tsbuildinfo keeps what each source compiled to, and tsc compiles again
// only what changed and what depends on it — 3 s of CPU where a whole build is 8) without dist/ keeping what no
// source makes any more. The build emptied dist/ before; now:
// - the output of a source that is gone (dist/x.js and dist/x.d.ts without src/x.ts, dist/x.json without
//   src/x.json) is removed, so dist/ and the package hold no stale module (the layer rules read dist/);
// - when the output of a source tsc has compiled is missing (a file of dist/ removed by hand: the source is older
//   than dist/.tsbuildinfo), .tsbuildinfo is removed too: tsc then compiles everything again, as it would not
//   re-write an output it believes written. A source newer than it (added or changed since) tsc compiles anyway.
// Only dist/ is touched, and in it only tsc's outputs and its .tsbuildinfo; the snapshot step writes its own file.
//
// `after` writes dist/.built, whose time is when the build ended: tsc no longer rewrites an output whose source did
// not change, so an output's time no longer says when dist/ was built (scripts/dist-fresh.mjs reads this file).
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');
const dist = join(root, 'dist');
/** Files of dist/ no source compiles to: tsc's record, this script's stamp, and what `npm run snapshot` writes. */
const NOT_COMPILED = new Set(['.tsbuildinfo', '.built', 'vectors/set-snapshot.json']);
const step = process.argv[2];
if (step !== 'before' && step !== 'after') {
  process.stderr.write(`build-steps: say before or after, not ${JSON.stringify(step ?? '')}\n`);
  process.exit(2);
}

/** The files under a folder, as paths relative to it with `/`. */
function files(dir, prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

/** What tsc writes of each source of src/ (tsconfig.build.json: its .ts files and its .json files), by source. */
function outputs() {
  const out = new Map();
  for (const f of files(src)) {
    if (f.endsWith('.ts') && !f.endsWith('.d.ts')) out.set(f, [`${f.slice(0, -3)}.js`, `${f.slice(0, -3)}.d.ts`]);
    else if (f.endsWith('.json')) out.set(f, [f]);
  }
  return out;
}

if (step === 'after') writeFileSync(join(dist, '.built'), `${new Date().toISOString()}\n`);
else if (existsSync(dist)) {
  rmSync(join(dist, '.built'), { force: true });
  const bySource = outputs();
  const expected = new Set([...bySource.values()].flat());
  const present = files(dist);
  const have = new Set(present);
  for (const f of present) if (!expected.has(f) && !NOT_COMPILED.has(f)) rmSync(join(dist, f));
  const record = join(dist, '.tsbuildinfo');
  const recorded = existsSync(record) ? statSync(record).mtimeMs : 0;
  const lost = [...bySource].some(
    ([source, outs]) => outs.some((o) => !have.has(o)) && statSync(join(src, source)).mtimeMs < recorded,
  );
  if (lost) rmSync(record, { force: true });
}
