/**
 * The replay line a failing property prints in the vitest suites (suites/properties) carries the
 * suite's subject: pasted into a shell as it is, it replays the failure against the same subject
 * (without PGV2KIT_SUBJECT it would run against the reference, which passes). Real vitest runs:
 * a zoo member whose signer writes upper-case hex, named by a path with a space (a folder linked
 * under such a name), so the line's quoting is exercised too.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/**
 * npx as it resolves a name in the kit's folder, its node_modules/.bin, without npx's own start (half a
 * second; test/docs/recipes.test.ts does the same): what is checked is the line, not npx.
 */
const shims = join(dir, 'bin');
mkdirSync(shims);
writeFileSync(
  join(shims, 'npx'),
  [
    '#!/bin/sh',
    'name=$1; shift',
    '[ -x "node_modules/.bin/$name" ] && exec "node_modules/.bin/$name" "$@"',
    'echo "npx $name: not in node_modules/.bin" >&2',
    'exit 127',
    '',
  ].join('\n'),
);
chmodSync(join(shims, 'npx'), 0o755);

/** Runs a command line in a shell in the kit's folder, with a bare environment (no PGV2KIT_SUBJECT unless the line sets it). */
async function shell(line: string, env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  try {
    const r = await promisify(execFile)('sh', ['-c', line], {
      cwd: ROOT,
      env: {
        PATH: `${shims}${delimiter}${process.env['PATH'] ?? ''}`,
        HOME: process.env['HOME'] ?? '',
        NO_COLOR: '1',
        ...env,
      },
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : -1, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

/** The replay line a failure printed (vitest shows the message in double quotes). */
function replayLine(out: string): string {
  return /^\s*replay: (.*?)"?$/m.exec(out)?.[1] ?? '';
}

describe('the replay line of a failing property in the vitest suites', () => {
  it('names the subject, quoted, and pasted as it is replays the failure against it', async () => {
    symlinkSync(join(ROOT, 'test/zoo/members'), join(dir, 'my zoo'));
    const subject = join(dir, 'my zoo', 'uppercase-hex.ts');
    const first = await shell('node node_modules/vitest/vitest.mjs run suites/properties -t property.hex.lowercase', {
      PGV2KIT_SUBJECT: subject,
      FC_NUM_RUNS: '10',
    });
    expect(first.code, first.out).toBe(1);
    expect(first.out).toContain('signature.sign: the sign has upper-case hex digits');
    const line = replayLine(first.out);
    expect(line).toMatch(
      new RegExp(
        `^PGV2KIT_SUBJECT='${subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}' FC_SEED=\\d+ FC_PATH=[\\d:]+ npx vitest run suites/properties -t property\\.hex\\.lowercase$`,
      ),
    );

    const again = await shell(line);
    expect(again.code, again.out).toBe(1);
    expect(again.out).toContain('signature.sign: the sign has upper-case hex digits');
    expect(replayLine(again.out)).toBe(line);
  }, 120_000);
});
