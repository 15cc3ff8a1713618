/**
 * The vectors without the kit (issue 13, item 1): `pgv2kit vectors export --format json` writes one
 * self-describing JSON file per vector file, each valid against the JSON Schema of its kind; a
 * Python unittest and a node:test file (examples/consumers/, no kit code imported) check every
 * signature case of it with their own SHA-256 — and fail when a sign in it is wrong. The package
 * ships the same export, prebuilt.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/docs/refs.js';
import { withHex } from '../../src/vectors/export.js';
import { tempFolders } from '../_support.js';
import { run } from '../cli/_run.js';

const exec = promisify(execFile);
const tmp = tempFolders('pgv2kit-export-');
const PYTHON = join(PACKAGE_ROOT, 'examples/consumers/python/test_signature_vectors.py');
const NODE = join(PACKAGE_ROOT, 'examples/consumers/node/signature-vectors.test.mjs');
let out = '';

/** The vector files of the repository, listed by the file system (not by the kit). */
function yamlFiles(dir: string, base = ''): string[] {
  return readdirSync(join(dir, base), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? e.name === 'schema'
        ? []
        : yamlFiles(dir, join(base, e.name))
      : e.name.endsWith('.yaml') && e.name !== 'notes.yaml'
        ? [join(base, e.name)]
        : [],
  );
}

type Exported = {
  schema: string;
  kind: string;
  numberOfTests: number;
  tests: Array<{
    id: string;
    flags: string[];
    readings: string[];
    inputs: Record<string, string>;
    expected: { sign: string };
  }>;
  notes: Record<string, unknown>;
  readings: Record<string, { point: string; reading: string }>;
};

async function consumers(
  dir: string,
): Promise<{ python: { code: number; out: string }; node: { code: number; out: string } }> {
  const env = { ...process.env, PGV2KIT_VECTORS_JSON: dir };
  const settle = (p: Promise<{ stdout: string; stderr: string }>): Promise<{ code: number; out: string }> =>
    p.then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
    );
  const [python, node] = await Promise.all([
    settle(exec('python3', [PYTHON], { env, cwd: dir, timeout: 60_000 })),
    settle(exec(process.execPath, ['--test', NODE], { env, cwd: dir, timeout: 60_000 })),
  ]);
  return { python, node };
}

beforeAll(async () => {
  out = join(tmp(), 'export');
  const r = await run(['vectors', 'export', '--format', 'json', '--out', out]);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

describe('pgv2kit vectors export --format json', () => {
  it('one JSON file per vector file, each valid against the schema of its kind, self-describing', () => {
    const yaml = yamlFiles(join(PACKAGE_ROOT, 'vectors'))
      .map((f) => f.replace(/\.yaml$/, '.json'))
      .sort();
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as {
      numberOfTests: number;
      files: Array<{ file: string; numberOfTests: number }>;
    };
    expect(index.files.map((f) => f.file).sort()).toEqual(yaml);
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const validators = new Map<string, ReturnType<typeof ajv.compile>>();
    let total = 0;
    for (const f of index.files) {
      const doc = JSON.parse(readFileSync(join(out, f.file), 'utf8')) as Exported;
      const validate =
        validators.get(doc.schema) ?? ajv.compile(JSON.parse(readFileSync(join(out, doc.schema), 'utf8')) as object);
      validators.set(doc.schema, validate);
      expect(validate(doc), `${f.file}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(doc.numberOfTests).toBe(doc.tests.length);
      // every flag used has its note, every reading cited its text
      for (const t of doc.tests) {
        for (const flag of t.flags) expect(doc.notes, `${f.file}: ${flag}`).toHaveProperty(flag);
        for (const r of t.readings) expect(doc.readings[r]?.reading, `${f.file}: ${r}`).toMatch(/\S/);
      }
      total += doc.numberOfTests;
    }
    expect(index.numberOfTests).toBe(total);
    const basics = JSON.parse(readFileSync(join(out, 'signature/basics.json'), 'utf8')) as Exported;
    expect(basics.readings['R1']?.point).toBe('body ending in LF (5.1)');
  });

  it('byte strings as hex, with the text where the bytes are valid UTF-8', () => {
    expect(withHex({ inputs: { body: 'é\n', nonce: 'n' } })).toEqual({
      inputs: { body: 'é\n', bodyHex: 'c3a90a', nonce: 'n' },
    });
    expect(
      withHex({
        bodyB64: Buffer.from([0xe7, 0x61]).toString('base64'),
        contentB64: Buffer.from('ok').toString('base64'),
      }),
    ).toEqual({ bodyHex: 'e761', content: 'ok', contentHex: '6f6b' });
  });

  it('the Python unittest and the node:test consumer pass on it, with no kit code', async () => {
    const signatureCases = readdirSync(join(out, 'signature')).reduce(
      (n, f) => n + (JSON.parse(readFileSync(join(out, 'signature', f), 'utf8')) as Exported).numberOfTests,
      0,
    );
    const { python, node } = await consumers(out);
    expect(python.code, python.out).toBe(0);
    expect(python.out).toContain(`checked ${signatureCases} signature cases`);
    expect(node.code, node.out).toBe(0);
    expect(node.out).toContain(`# pass ${signatureCases}\n`);
    for (const f of [PYTHON, NODE])
      expect(readFileSync(f, 'utf8')).not.toMatch(/pgv2kit\/|from '\.\.\/\.\.\/\.\.\/(src|dist)/);
  }, 60_000);

  it('and both fail on an export whose sign is wrong', async () => {
    const bad = join(tmp(), 'bad');
    cpSync(out, bad, { recursive: true });
    const file = join(bad, 'signature/basics.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Exported;
    const first = doc.tests[0];
    if (!first) throw new Error('no test');
    first.expected.sign = `${first.expected.sign.slice(0, -1)}${first.expected.sign.endsWith('0') ? '1' : '0'}`;
    writeFileSync(file, JSON.stringify(doc));
    const { python, node } = await consumers(bad);
    expect(python.code).not.toBe(0);
    expect(python.out).toContain(first.id);
    expect(node.code).not.toBe(0);
    expect(node.out).toContain(`not ok 1 - ${first.id}`);
  }, 60_000);

  it('the package ships the same export, prebuilt (vectors-json/)', () => {
    const prebuilt = join(PACKAGE_ROOT, 'vectors-json');
    const files = (dir: string): string[] =>
      (readdirSync(dir, { recursive: true }) as string[]).filter((p) => p.endsWith('.json')).sort();
    expect(files(prebuilt)).toEqual(files(out));
    for (const f of files(out))
      expect(readFileSync(join(prebuilt, f), 'utf8'), f).toBe(readFileSync(join(out, f), 'utf8'));
  });

  it.each([
    [['vectors', 'export'], 'vectors export needs --format json and --out <dir>'],
    [['vectors', 'export', '--format', 'xml', '--out', 'x'], '--format must be json, not "xml"'],
    [['vectors', 'imprt'], 'unknown action "imprt": vectors takes export, init <dir>, or nothing'],
    [['vectors', '--out', 'x'], '--format and --out go with vectors export'],
  ])('%j → exit 2', async (argv, message) => {
    const r = await run(argv, { cwd: tmp() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('never replaces a folder that is not an earlier export; replaces an earlier one whole, never a file added to it', async () => {
    const cwd = tmp();
    mkdirSync(join(cwd, 'mine'));
    writeFileSync(join(cwd, 'mine', 'notes.txt'), 'keep me');
    const refused = await run(['vectors', 'export', '--format', 'json', '--out', 'mine'], { cwd });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('it is not empty and holds no earlier export');
    expect(readFileSync(join(cwd, 'mine', 'notes.txt'), 'utf8')).toBe('keep me');
    expect((await run(['vectors', 'export', '--format', 'json', '--out', 'e'], { cwd })).code).toBe(0);
    // an earlier export as it was written: replaced whole
    const again = await run(['vectors', 'export', '--format', 'json', '--out', 'e'], { cwd });
    expect(again.code).toBe(0);
    // a file the user added to it since (issue 25, item 3): never removed, the export refused, exit 2
    writeFileSync(join(cwd, 'e', 'mine.json'), '{"keep":true}');
    mkdirSync(join(cwd, 'e', 'notes'));
    writeFileSync(join(cwd, 'e', 'notes', 'a.md'), 'keep');
    const kept = await run(['vectors', 'export', '--format', 'json', '--out', 'e'], { cwd });
    expect(kept.code).toBe(2);
    expect(kept.stderr).toContain('it holds files the earlier export did not write (mine.json, notes/a.md)');
    expect(readFileSync(join(cwd, 'e', 'mine.json'), 'utf8')).toBe('{"keep":true}');
    expect(readFileSync(join(cwd, 'e', 'notes', 'a.md'), 'utf8')).toBe('keep');
  });
});
