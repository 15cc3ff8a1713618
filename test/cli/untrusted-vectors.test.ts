/**
 * Every command that reads a vectors folder refuses an unsafe one the same way (issue 12,
 * item 4): exit 2, each refused file named (with its line where it has one), before any case
 * runs, never an "internal error"; the size limits are overridable by option and by
 * environment variable; and what the kit writes into a folder (generate) never needs YAML
 * aliases to be read back.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlias, parseDocument, visit } from 'yaml';
import { saveFinding } from '../../src/fuzz/save.js';
import type { FuzzFinding } from '../../src/fuzz/run.js';
import { DEFAULT_VECTORS_DIR } from '../../src/vectors/load.js';
import { tempFolders } from '../_support.js';
import { run } from './_run.js';

const folder = tempFolders('pgv2kit-untrusted-cli-');

/** A copy of the kit's vectors folder, changed by `change`. */
function vectorsCopy(change: (dir: string) => void = () => {}): string {
  const dir = join(folder(), 'v');
  cpSync(DEFAULT_VECTORS_DIR, dir, { recursive: true });
  change(dir);
  return dir;
}

const posix = process.platform !== 'win32';

describe.runIf(posix)('a folder holding a FIFO and a symlink to /dev/zero', () => {
  const unsafe = (dir: string): void => {
    execFileSync('mkfifo', [join(dir, 'signature', 'pipe.yaml')]);
    symlinkSync('/dev/zero', join(dir, 'redirect', 'zero.yaml'));
  };

  it('vectors: exit 2, both named under REFUSED, nothing hangs', async () => {
    const dir = vectorsCopy(unsafe);
    const r = await run(['vectors', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('REFUSED: 2 of the 2 problems below are files the kit does not read');
    expect(r.stdout).toContain('  redirect/zero.yaml: at /: is a symlink to /dev/zero, outside the vectors folder\n');
    expect(r.stdout).toContain('  signature/pipe.yaml: at /: is a FIFO, not a regular file\n');
    const json = await run(['vectors', '--dir', dir, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      refused: true,
      problems: [
        { file: 'redirect/zero.yaml', refused: true },
        { file: 'signature/pipe.yaml', refused: true },
      ],
    });
  });

  it('run --vectors: exit 2 before any case, the files named', async () => {
    const dir = vectorsCopy(unsafe);
    const reports = folder();
    const r = await run(['run', '--vectors', dir, '--report-dir', reports]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('signature/pipe.yaml: at /: is a FIFO, not a regular file');
    expect(r.stderr).not.toContain('internal error');
    expect(readdirSync(reports)).toEqual([]);
  });

  it('generate --dir: exit 2, the files named', async () => {
    const dir = vectorsCopy(unsafe);
    const r = await run(['generate', '--seed', '1', '--count', '1', '--area', 'signature', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('redirect/zero.yaml: at /: is a symlink to /dev/zero, outside the vectors folder');
  });

  it('fuzz --save: a FIFO beside the file is refused by name, not waited on', () => {
    const dir = folder();
    mkdirSync(join(dir, 'authorization'));
    execFileSync('mkfifo', [join(dir, 'authorization', 'pipe.yaml')]);
    const finding = {
      header: 'V2_SHA256 appId=a',
      reason: 'r',
      replay: '1:0',
      oracle: { answers: { accepted: [], refusable: true } },
    } as unknown as FuzzFinding;
    // the folder's ids are read by the loader, which refuses the FIFO by name (and writes nothing)
    expect(() => saveFinding(finding, join(dir, 'authorization', 'found.yaml'))).toThrow(
      'authorization/pipe.yaml: at /: is a FIFO, not a regular file',
    );
    expect(existsSync(join(dir, 'authorization', 'found.yaml'))).toBe(false);
  });
});

describe('the size limits, by option and by environment', () => {
  it("--max-vector-file below the kit's largest file refuses it by name; the default loads it", async () => {
    const r = await run(['vectors', '--max-vector-file', '64K']);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(
      / {2}signature\/known-mistakes\.yaml: at \/: is \d+\.\d KiB, over the limit of 64 KiB per file \(--max-vector-file\)\n/,
    );
    expect((await run(['vectors'])).code).toBe(0);
  });

  it('PGV2KIT_MAX_VECTOR_STRING stands in for --max-vector-string; the option wins', async () => {
    const dir = vectorsCopy((d) =>
      writeFileSync(join(d, 'signature', 'long.yaml'), `kind: signature\ntitle: ${'t'.repeat(5000)}\ncases: []\n`),
    );
    const byEnv = await run(['vectors', '--dir', dir], { env: { PGV2KIT_MAX_VECTOR_STRING: '4K' } });
    expect(byEnv.code).toBe(2);
    expect(byEnv.stdout).toContain(
      '  signature/long.yaml: at /: is refused (line 2, column 8): holds a string of 4.9 KiB, over the limit of 4 KiB per string (--max-vector-string)\n',
    );
    // over the limit raised by the option, the file is judged: its empty cases list is a problem of the set (exit 1)
    const byOption = await run(['vectors', '--dir', dir, '--max-vector-string', '8KiB'], {
      env: { PGV2KIT_MAX_VECTOR_STRING: '4K' },
    });
    expect(byOption.code).toBe(1);
    expect(byOption.stdout).toContain('signature/long.yaml: at /cases: must NOT have fewer than 1 items');
  });

  it.each([
    [
      ['--max-vector-file', 'lots'],
      {},
      '--max-vector-file must be a byte count such as 1048576, 512K or 16MiB, not "lots"',
    ],
    [
      ['--max-vector-string', '0'],
      {},
      '--max-vector-string must be a byte count such as 1048576, 512K or 16MiB, not "0"',
    ],
    [
      [],
      { PGV2KIT_MAX_VECTOR_FILE: '12 parsecs' },
      'PGV2KIT_MAX_VECTOR_FILE must be a byte count such as 1048576, 512K or 16MiB, not "12 parsecs"',
    ],
  ])('%j %j: a usage error naming where the value came from', async (args, env, message) => {
    const r = await run(['vectors', ...args], { env });
    expect(r).toEqual({ code: 2, stdout: '', stderr: `pgv2kit vectors: ${message}\nsee pgv2kit vectors --help\n` });
  });
});

describe('what generate writes', () => {
  it('has no YAML anchors or aliases, though every case of a run shares one provenance', async () => {
    const dir = vectorsCopy();
    const r = await run(['generate', '--seed', '3', '--count', '40', '--area', 'webhook', '--dir', dir]);
    expect(r.code).toBe(0);
    const text = readFileSync(join(dir, 'webhook', 'generated-3.yaml'), 'utf8');
    const doc = parseDocument(text);
    let aliases = 0;
    let anchors = 0;
    visit(doc, (_, node) => {
      if (isAlias(node)) aliases += 1;
      else if (node !== null && typeof node === 'object' && 'anchor' in node && node.anchor) anchors += 1;
    });
    expect({ aliases, anchors }).toEqual({ aliases: 0, anchors: 0 });
    expect(text.match(/^ {4}provenance:$/gm)).toHaveLength(40);
  });
});

describe('PGV2KIT_SEED and PGV2KIT_PROPERTIES stand in for --seed and --properties, as --help says', () => {
  it("the property runs from the environment's seed and count; the options win", async () => {
    const dir = folder();
    const byEnv = await run(['run', '--only', 'property.lf.sign', '--report-dir', join(dir, 'a')], {
      env: { PGV2KIT_SEED: '77', PGV2KIT_PROPERTIES: '3' },
    });
    expect(byEnv.code).toBe(0);
    expect(readFileSync(join(dir, 'a', 'results.json'), 'utf8')).toContain('held for 3 inputs (seed 77)');
    const byOption = await run(
      ['run', '--only', 'property.lf.sign', '--seed', '78', '--properties', '4', '--report-dir', join(dir, 'b')],
      { env: { PGV2KIT_SEED: '77', PGV2KIT_PROPERTIES: '3' } },
    );
    expect(byOption.code).toBe(0);
    expect(readFileSync(join(dir, 'b', 'results.json'), 'utf8')).toContain('held for 4 inputs (seed 78)');
  });

  it('a bad value in the environment is a usage error naming the variable', async () => {
    const r = await run(['run', '--only', 'property.lf.sign', '--no-reports'], { env: { PGV2KIT_SEED: 'x' } });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'pgv2kit run: PGV2KIT_SEED must be an integer, not "x"\nsee pgv2kit run --help\n',
    });
  });
});
