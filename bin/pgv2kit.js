#!/usr/bin/env node
// The pgv2kit command: runs the compiled CLI in dist/ and exits with its exit code
// (0 success, 1 nonconformance, 2 usage, 3 failure: src/cli/exit-codes.ts).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/main.js', import.meta.url);

// `pgv2kit … | head` closes the pipe early: stop quietly instead of crashing on EPIPE.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

if (!existsSync(entry)) {
  // A clone builds dist/ through npm's `prepare` (npm ci, npm install, an install from a git URL);
  // one installed with --ignore-scripts has none: `npm run build` in the kit's folder makes it.
  // A packed kit ships dist/: there the fix is installing it again.
  const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
  const sh = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  process.stderr.write(
    `pgv2kit: the compiled CLI (dist/) is missing in ${root}\n` +
      `build it: cd ${sh(root)} && npm run build\n` +
      '(npm ci and npm install build it in a clone, unless scripts are ignored; an installed kit ships it: install it again)\n',
  );
  process.exitCode = 3;
} else {
  // The last safety net behind "every wait settles": if the command's promise is still
  // pending when the event loop empties, Node would end with 13 (unsettled top-level
  // await) and no word. Say so and exit 3, the tool's failure, instead.
  let settled = false;
  process.once('exit', (code) => {
    // the loop emptied with the command's promise pending (Node says 0 here, then 13); any other
    // code was chosen (process.exit(130) when a signal stops a run or a fuzz at once)
    if (settled || (code !== 0 && code !== 13)) return;
    process.stderr.write(
      'pgv2kit: internal error: the command stopped before it finished (a wait was left pending); please report it\n',
    );
    process.exitCode = 3;
  });
  try {
    const { main, processIo } = await import(entry.href);
    process.exitCode = await main(process.argv.slice(2), processIo());
  } catch (e) {
    process.stderr.write(`pgv2kit: cannot start: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 3;
  } finally {
    settled = true;
  }
}
