import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadVectorSet } from '../../src/vectors/load.js';
import { run } from '../cli/_run.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const BUGGY = 'node test/fuzz/fixtures/positional-testee.mjs';
const env = { ...process.env };
const temps: string[] = [];
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('pgv2kit fuzz', () => {
  it('finds nothing in the reference (exit 0)', async () => {
    const r = await run(['fuzz', '--seed', '3', '--runs', '300'], { env, cwd: ROOT });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('seed 3, 300 runs');
    expect(r.stdout).toContain('no finding: 300 headers tried, seed 3');
  });

  it('finds nothing in the node adapter (exit 0)', async () => {
    const r = await run(
      ['fuzz', '--testee', 'node examples/node-adapter/adapter.mjs', '--seed', '4', '--runs', '200'],
      { env, cwd: ROOT },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no finding: 200 headers tried');
  });

  it('prints a finding with escapes and a replay command, replays it, and saves it (exit 1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-fuzz-cli-'));
    temps.push(dir);
    // a new project: the vectors folder and its authorization/ folder are made, with a notes.yaml
    const file = join(dir, 'vectors', 'authorization', 'found.yaml');
    const r = await run(['fuzz', '--testee', BUGGY, '--seed', '9', '--save', file], { env, cwd: ROOT });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FINDING after \d+ headers/);
    expect(r.stdout).toMatch(/ {2}header: {2}"V2_SHA256 [^\n]*"\n/);
    expect(r.stdout).toMatch(/ {2}reason: {2}[^\n]*must be accepted with appId=/);
    const replay = /--replay (\S+)/.exec(r.stdout)?.[1];
    expect(replay).toMatch(/^9:[\d:]+$/);
    // the replay command quoted for sh, as every printed command (issue 25, item 2): in JSON's double quotes, a
    // testee command holding $(…) or backquotes would run when pasted
    expect(r.stdout).toContain(`pgv2kit fuzz --testee '${BUGGY}' --replay ${replay}\n`);
    expect(r.stdout).toContain(
      `made ${join(dir, 'vectors')}/, ${join(dir, 'vectors', 'authorization')}/ and ${join(dir, 'vectors', 'notes.yaml')}\nsaved as authorization.fuzz-1 in ${file} (new file)`,
    );
    expect(loadVectorSet(join(dir, 'vectors')).warnings).toEqual([]);
    const saved = parse(readFileSync(file, 'utf8')) as { cases: Array<{ id: string; inputs: { header: string } }> };
    expect(saved.cases.map((c) => c.id)).toEqual(['authorization.fuzz-1']);

    const again = await run(['fuzz', '--testee', BUGGY, '--replay', replay ?? ''], { env, cwd: ROOT });
    expect(again.code).toBe(1);
    expect(again.stdout).toContain(`replaying ${replay}`);
    expect(again.stdout.split('\n').find((l) => l.startsWith('  header:'))).toBe(
      r.stdout.split('\n').find((l) => l.startsWith('  header:')),
    );
  });

  it('usage errors exit 2', async () => {
    expect((await run(['fuzz', '--runs', '0'], { env })).code).toBe(2);
    // --save is checked before fuzzing: a file outside an authorization/ folder, an existing file of the kit's own vectors
    const outside = await run(['fuzz', '--runs', '10', '--save', 'found.yaml'], { env, cwd: tmpdir() });
    expect([outside.code, outside.stdout, outside.stderr]).toEqual([
      2,
      '',
      expect.stringContaining('--save takes a .yaml file in the authorization/ folder of a vectors folder'),
    ]);
    const kit = await run(['fuzz', '--runs', '10', '--save', 'vectors/authorization/items.yaml'], { env, cwd: ROOT });
    expect([kit.code, kit.stderr]).toEqual([
      2,
      expect.stringContaining("items.yaml is a file of the kit's own vectors: a command never edits one"),
    ]);
    expect((await run(['fuzz', '--seed', 'x'], { env })).code).toBe(2);
    expect((await run(['fuzz', '--replay', 'nope'], { env })).code).toBe(2);
    expect((await run(['fuzz', '--replay', '1:0', '--seed', '1'], { env })).code).toBe(2);
  });

  it('a testee that does not start exits 3', async () => {
    const r = await run(['fuzz', '--testee', 'node -e "process.exit(1)"', '--runs', '10'], { env, cwd: ROOT });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^pgv2kit fuzz: the testee could not start: the testee exited with code 1 before it was ready\n/,
    );
    expect(r.stderr).toContain(
      '\n  command: node -e "process.exit(1)"\n  ended:   exited with code 1\n  stderr:  (nothing)\n',
    );
    expect(r.stdout).toBe('');
  });

  it('a testee that never answers start fails within --timeout (exit 3)', async () => {
    const r = await run(
      ['fuzz', '--testee', 'node -e "setInterval(() => {}, 1000)"', '--runs', '10', '--timeout', '0.5'],
      { env, cwd: ROOT },
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^pgv2kit fuzz: the testee could not start: the testee did not answer start within 500 ms\n/,
    );
    expect(r.stderr).toContain('  ended:   killed by pgv2kit (SIGKILL): it was still running\n');
  });
});
