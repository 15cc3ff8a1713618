import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from './_run.js';
import { loadVectorSet } from '../../src/vectors/load.js';

const SCHEMA_DIR = new URL('../../vectors/schema/', import.meta.url);

const NOTES = `kind: notes
title: Flags of the test set
flags:
  Baseline:
    bugType: BASIC
    description: A plain case.
  EmptyBody:
    bugType: READING
    description: The body is empty (R2).
    readings: [R2]
  HeaderWhitespace:
    bugType: AMBIGUOUS
    description: White space around items (R8).
  Unused:
    bugType: EDGE_CASE
    description: No case uses this flag.
`;

const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
const BASELINE_CONTENT = 'app_1\nsk_test_aaaaaaaa\nPOST\nhttps://pg.example.com/pg/v2/x\n1717171717000\nn-1\n{}\n';
const EMPTY_CONTENT = 'app_1\nsk_test_aaaaaaaa\nGET\nhttps://pg.example.com/pg/v2/x\n1717171717000\nn-2\n\n';

function signatureCase(
  id: string,
  method: string,
  nonce: string,
  body: string,
  content: string,
  flag: string,
  extra = '',
): string {
  return `  - id: ${id}
    comment: A case of the test set.
    spec: ["5.1"]
    readings: []
    flags: [${flag}]
    result: valid
${extra}    inputs:
      appId: app_1
      appSecret: sk_test_aaaaaaaa
      method: ${method}
      url: https://pg.example.com/pg/v2/x
      timestamp: "1717171717000"
      nonce: ${nonce}
      body: ${JSON.stringify(body)}
    expected:
      content: ${JSON.stringify(content)}
      sign: ${sha256(content)}
`;
}

const SIGNATURE_FILE = `kind: signature
title: A small valid signature file
cases:
${signatureCase('signature.baseline', 'POST', 'n-1', '{}', BASELINE_CONTENT, 'Baseline')}${signatureCase('signature.empty-old', 'GET', 'n-2', '', EMPTY_CONTENT, 'EmptyBody', '    supersededBy: signature.empty\n')}${signatureCase('signature.empty', 'GET', 'n-2', '', EMPTY_CONTENT, 'EmptyBody')}`;

const AUTHORIZATION_FILE = `kind: authorization
title: Two parse cases
cases:
  - id: authorization.fixture-missing-nonce
    comment: The nonce item is missing.
    spec: ["5.3"]
    readings: [R8]
    flags: [Baseline]
    result: invalid
    op: authorization.parse
    inputs:
      header: V2_SHA256 appId=a,sign=b,timestamp=1
    expected:
      problem: { kind: missing-item, item: nonce }
  - id: authorization.whitespace
    comment: White space around the items.
    spec: ["5.3"]
    readings: [R8]
    flags: [HeaderWhitespace]
    result: acceptable
    op: authorization.parse
    inputs:
      header: "V2_SHA256 appId=a, sign=b, timestamp=1, nonce=n"
    expected:
      items: { appId: a, sign: b, timestamp: "1", nonce: n }
`;

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgv2kit-vectors-'));
  cpSync(SCHEMA_DIR, join(dir, 'schema'), { recursive: true });
  writeFileSync(join(dir, 'notes.yaml'), NOTES);
  mkdirSync(join(dir, 'signature'));
  mkdirSync(join(dir, 'authorization'));
  writeFileSync(join(dir, 'signature', 'basics.yaml'), SIGNATURE_FILE);
  writeFileSync(join(dir, 'authorization', 'parse.yaml'), AUTHORIZATION_FILE);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The set's hash as loader documents it: SHA-256 over each file's path, NUL, bytes, NUL — notes.yaml first, then the files in path order. */
function expectedHash(): string {
  const h = createHash('sha256');
  for (const [file, text] of [
    ['notes.yaml', NOTES],
    ['authorization/parse.yaml', AUTHORIZATION_FILE],
    ['signature/basics.yaml', SIGNATURE_FILE],
  ] as const) {
    h.update(`${file}\0`).update(text).update('\0');
  }
  return h.digest('hex');
}

/** The kit's flags and the four of the folder's notes.yaml, each once (a folder of one's own has both). */
function mergedFlags(): number {
  const own = [...NOTES.matchAll(/^ {2}(\w+):$/gm)].map((m) => m[1]);
  expect(own).toHaveLength(4);
  return new Set([...Object.keys(loadVectorSet().notes), ...own]).size;
}

describe('pgv2kit vectors', () => {
  it('counts files and cases per area and result, superseded apart, with the hash and warnings', async () => {
    const r = await run(['vectors', '--dir', dir]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        `vector set ${dir}`,
        `hash (SHA-256 of the files) ${expectedHash()}`,
        '',
        '  kind           files  cases  valid  invalid  acceptable  superseded',
        '  signature          1      2      2        0           0           1',
        '  authorization      1      2      0        1           1           0',
        '  request            0      0      0        0           0           0',
        '  response           0      0      0        0           0           0',
        '  webhook            0      0      0        0           0           0',
        '  redirect           0      0      0        0           0           0',
        '  upload             0      0      0        0           0           0',
        '  client             0      0      0        0           0           0',
        '  gateway            0      0      0        0           0           0',
        '  merchant           0      0      0        0           0           0',
        '  total              2      4      2        1           1           1',
        '',
        '5 cases, 1 of them superseded: 4 live (the cases column: valid + invalid + acceptable, the cases that run; superseded cases stay in their files and never run)',
        `flags explained (the kit's and this folder's notes.yaml): ${mergedFlags()}`,
        'warnings (1):',
        '  notes.yaml: flag Unused is explained but no case uses it',
        'OK: 2 vector files and notes.yaml are valid',
        '',
      ].join('\n'),
    );
  });

  it('--json prints the same as one JSON object', async () => {
    const r = await run(['vectors', '--dir', dir, '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      ok: true,
      dir,
      hash: expectedHash(),
      total: { files: 2, cases: 4, valid: 2, invalid: 1, acceptable: 1, superseded: 1 },
      flags: mergedFlags(),
      warnings: ['notes.yaml: flag Unused is explained but no case uses it'],
    });
    expect((report['areas'] as Record<string, unknown>)['signature']).toEqual({
      files: 1,
      cases: 2,
      valid: 2,
      invalid: 0,
      acceptable: 0,
      superseded: 1,
    });
    expect((report['areas'] as Record<string, unknown>)['upload']).toEqual({
      files: 0,
      cases: 0,
      valid: 0,
      invalid: 0,
      acceptable: 0,
      superseded: 0,
    });
    expect(report['files']).toEqual([
      { file: 'authorization/parse.yaml', kind: 'authorization', title: 'Two parse cases', cases: 2 },
      { file: 'signature/basics.yaml', kind: 'signature', title: 'A small valid signature file', cases: 3 },
    ]);
  });

  it('resolves a relative --dir against the working folder', async () => {
    const r = await run(['vectors', '--dir', 'vectors-here'], { cwd: join(dir, '..') });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `pgv2kit vectors: cannot read the vectors folder ${join(dir, '..', 'vectors-here')}: no such file or folder\nsee pgv2kit vectors --help\n`,
    );
    const ok = await run(['vectors', '--dir', '.'], { cwd: dir });
    expect(ok.code).toBe(0);
  });

  it('prints every problem with file, case id and JSON pointer, and exits 1', async () => {
    writeFileSync(
      join(dir, 'signature', 'broken.yaml'),
      SIGNATURE_FILE.replace('title: A small valid signature file', 'title: Broken').replace(
        /sign: [0-9a-f]{64}/,
        'sign: NOT-A-SIGN',
      ),
    );
    writeFileSync(
      join(dir, 'signature', 'copy.yaml'),
      SIGNATURE_FILE.replace('id: signature.baseline', 'id: signature.baseline-2'),
    );
    const r = await run(['vectors', '--dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`vector set ${dir}`);
    expect(lines[1]).toMatch(/^INVALID: \d+ problems? in the vector files/);
    expect(r.stdout).toContain(
      '  signature/broken.yaml: case signature.baseline at /cases/0/expected/sign: must match pattern',
    );
    expect(r.stdout).toContain(
      '  signature/copy.yaml: case signature.empty-old at /cases/1/id: id signature.empty-old is already used in signature/basics.yaml\n',
    );
  });

  it('--json on a bad set gives ok false and the problems', async () => {
    writeFileSync(join(dir, 'signature', 'broken.yaml'), 'kind: signature\ntitle: [unclosed\n');
    const r = await run(['vectors', '--dir', dir, '--json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { ok: boolean; problems: Array<Record<string, unknown>> };
    expect(report.ok).toBe(false);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ file: 'signature/broken.yaml', pointer: '' });
    expect(String(report.problems[0]?.['message'])).toMatch(/^is not valid YAML \(line \d+, column \d+\)/);
  });

  it('a file in the wrong folder, a wrong kind and a flag without a note are problems', async () => {
    writeFileSync(join(dir, 'stray.yaml'), 'kind: signature\n');
    writeFileSync(join(dir, 'authorization', 'wrong-kind.yaml'), SIGNATURE_FILE);
    // a flag neither this folder's notes.yaml nor the kit's explains
    writeFileSync(
      join(dir, 'authorization', 'parse.yaml'),
      AUTHORIZATION_FILE.replace('flags: [HeaderWhitespace]', 'flags: [OwnFlagWithoutNote]'),
    );
    const r = await run(['vectors', '--dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  stray.yaml: at /: not in a vector kind folder');
    expect(r.stdout).toContain(
      '  authorization/wrong-kind.yaml: at /kind: kind is "signature", but the file is in the authorization/ folder',
    );
    expect(r.stdout).toContain(
      '  authorization/parse.yaml: case authorization.whitespace at /cases/1/flags/0: flag OwnFlagWithoutNote is not explained in notes.yaml',
    );
  });

  it('a schema/ folder missing one of its schemas is a configuration error (exit 2)', async () => {
    rmSync(join(dir, 'schema', 'common.schema.json'));
    const r = await run(['vectors', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      new RegExp(
        `^pgv2kit vectors: cannot load the vector set in ${dir}: schema/common\\.schema\\.json: at /: is missing\nsee pgv2kit vectors --help\n$`,
      ),
    );
  });

  it("a folder without schema/ or notes.yaml is checked with the kit's (a folder of one's own)", async () => {
    rmSync(join(dir, 'schema'), { recursive: true });
    rmSync(join(dir, 'notes.yaml'));
    const r = await run(['vectors', '--dir', dir, '--json']);
    expect(r.code, r.stdout).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: true,
      flags: Object.keys(loadVectorSet().notes).length,
      warnings: [],
    });
    // and the kit's schemas judge it: a case without its expected result is still a problem
    writeFileSync(join(dir, 'signature', 'basics.yaml'), SIGNATURE_FILE.replace(/ {4}result: valid\n/, ''));
    expect((await run(['vectors', '--dir', dir])).code).toBe(1);
  });

  it('--dir naming a file is a configuration error (exit 2)', async () => {
    const r = await run(['vectors', '--dir', join(dir, 'notes.yaml')]);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: `pgv2kit vectors: cannot read the vectors folder ${join(dir, 'notes.yaml')}: not a folder\nsee pgv2kit vectors --help\n`,
    });
  });

  it("without --dir, loads the kit's own vectors folder, which warns nothing (a fresh clone)", async () => {
    const r = await run(['vectors']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`vector set ${new URL('../../vectors', import.meta.url).pathname}`);
    expect(r.stdout).toContain('\nwarnings: none\n');
  });

  it('a flag explained for the cases a command writes (writtenBy) warns nothing while no case uses it; any other unused flag does', async () => {
    writeFileSync(
      join(dir, 'notes.yaml'),
      `${NOTES}  Saved:\n    bugType: BASIC\n    description: Written by a tool.\n    writtenBy: a tool of ours\n`,
    );
    const r = await run(['vectors', '--dir', dir, '--json']);
    expect(r.code, r.stdout).toBe(0);
    expect((JSON.parse(r.stdout) as { warnings: string[] }).warnings).toEqual([
      'notes.yaml: flag Unused is explained but no case uses it',
    ]);
  });
});

describe('pgv2kit vectors with broken schemas', () => {
  it.each([
    ['not JSON', '{ "$id": ', /cannot load the vector set in .*: schema\/.*\.schema\.json: at \/: is not JSON/],
    [
      'not a schema',
      JSON.stringify({ $id: 'https://pgv2kit.dev/schema/common.schema.json', type: 5 }),
      /cannot load the vector set in .*: schema is invalid/,
    ],
  ])('a schema that is %s is a configuration error (exit 2)', async (_, text, message) => {
    writeFileSync(join(dir, 'schema', 'common.schema.json'), text);
    const r = await run(['vectors', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(message);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});
