/**
 * writeCases never leaves a half-written vector set: a case the set refuses undoes the new
 * file (or the appended block) and the folders and notes.yaml it made; an existing file is never
 * replaced.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FUZZ_FLAG } from '../../src/fuzz/save.js';
import { GENERATED_FLAG, GENERATOR, signatureCase, type GeneratedCase } from '../../src/generate/generate.js';
import { TargetExistsError, writeCases } from '../../src/generate/write.js';
import { DEFAULT_VECTORS_DIR, VectorSetError, loadVectorSet } from '../../src/vectors/load.js';
import { OWN_NOTES, VectorTargetError, vectorTargetProblem } from '../../src/vectors/target.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function copy(): string {
  const d = mkdtempSync(join(tmpdir(), 'pgv2kit-undo-'));
  dirs.push(d);
  cpSync(DEFAULT_VECTORS_DIR, join(d, 'v'), { recursive: true });
  return join(d, 'v');
}
const parts = {
  appId: 'app_undo',
  appSecret: 'sk_test_undo_0001',
  method: 'POST',
  url: 'https://pg.example.com/x',
  timestamp: '1700000000000',
  nonce: 'n-undo',
  body: Buffer.from('{}'),
};
const provenance = { generator: GENERATOR, kitVersion: '0', date: '2026-01-01' };
const good = (id: string): GeneratedCase => signatureCase(parts, id, provenance);
const bad = (id: string): GeneratedCase => ({ ...good(id), comment: 'x'.repeat(300) }) as GeneratedCase;

describe('writeCases', () => {
  it('a new file whose case the set refuses is removed, and notes.yaml is as it was', () => {
    const root = copy();
    const notes = readFileSync(join(root, 'notes.yaml'), 'utf8');
    const file = join(root, 'signature', 'undo.yaml');
    expect(() =>
      writeCases({ root, file, area: 'signature', title: 't', cases: [bad('signature.gen-undo-1')] }),
    ).toThrow(VectorSetError);
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(join(root, 'notes.yaml'), 'utf8')).toBe(notes);
  });

  it('an appended block the set refuses leaves the file as it was', () => {
    const root = copy();
    const file = join(root, 'signature', 'undo.yaml');
    writeCases({ root, file, area: 'signature', title: 't', cases: [good('signature.gen-undo-1')] });
    const before = readFileSync(file, 'utf8');
    expect(() =>
      writeCases({ root, file, area: 'signature', title: 't', cases: [bad('signature.gen-undo-2')], append: true }),
    ).toThrow(VectorSetError);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const appended = writeCases({
      root,
      file,
      area: 'signature',
      title: 't',
      cases: [good('signature.gen-undo-3')],
      append: true,
    });
    expect(appended).toMatchObject({ appended: true, ids: ['signature.gen-undo-3'], made: [] });
  });

  it('makes the vectors folder, its area folder and notes.yaml when missing, and takes them back when the set refuses the case', () => {
    const parent = mkdtempSync(join(tmpdir(), 'pgv2kit-undo-'));
    dirs.push(parent);
    const root = join(parent, 'vectors');
    const file = join(root, 'signature', 'mine.yaml');
    expect(() =>
      writeCases({ root, file, area: 'signature', title: 't', cases: [bad('signature.gen-undo-1')] }),
    ).toThrow(VectorSetError);
    expect(readdirSync(parent)).toEqual([]);
    const written = writeCases({ root, file, area: 'signature', title: 't', cases: [good('signature.gen-undo-1')] });
    expect(written.made).toEqual([root, join(root, 'signature'), join(root, 'notes.yaml')]);
    expect(readFileSync(join(root, 'notes.yaml'), 'utf8')).toBe(OWN_NOTES);
    expect(written.set.cases.map((c) => c.case.id)).toEqual(['signature.gen-undo-1']);
    // a folder with no folder above it is not made: the path is likely a mistake
    const deep = join(parent, 'no', 'such', 'vectors');
    expect(() =>
      writeCases({
        root: deep,
        file: join(deep, 'signature', 'x.yaml'),
        area: 'signature',
        title: 't',
        cases: [good('signature.gen-undo-2')],
      }),
    ).toThrow(`the folder the vectors folder goes in, ${join(parent, 'no', 'such')}, does not exist`);
    expect(existsSync(join(parent, 'no'))).toBe(false);
  });

  it("never edits a file of the kit's own vectors, and writes nothing trying", () => {
    const file = join(DEFAULT_VECTORS_DIR, 'signature', 'basics.yaml');
    const before = readFileSync(file, 'utf8');
    const notes = readFileSync(join(DEFAULT_VECTORS_DIR, 'notes.yaml'), 'utf8');
    expect(() =>
      writeCases({
        root: DEFAULT_VECTORS_DIR,
        file,
        area: 'signature',
        title: 't',
        cases: [good('signature.gen-undo-1')],
        append: true,
      }),
    ).toThrow(VectorTargetError);
    expect(() =>
      writeCases({
        root: DEFAULT_VECTORS_DIR,
        file,
        area: 'signature',
        title: 't',
        cases: [good('signature.gen-undo-1')],
        append: true,
      }),
    ).toThrow(/is a file of the kit's own vectors: a command never edits one/);
    expect([readFileSync(file, 'utf8'), readFileSync(join(DEFAULT_VECTORS_DIR, 'notes.yaml'), 'utf8')]).toEqual([
      before,
      notes,
    ]);
    // a copy of the kit's vectors is a folder of one's own: appending there is allowed
    const own = copy();
    expect(vectorTargetProblem(own, 'signature', join(own, 'signature', 'basics.yaml'))).toBeUndefined();
  });

  it("the flags the commands write are explained in the kit's notes.yaml with writtenBy, and no other flag is", () => {
    const notes = loadVectorSet().notes;
    expect(
      Object.keys(notes)
        .filter((flag) => notes[flag]?.writtenBy !== undefined)
        .sort(),
    ).toEqual([FUZZ_FLAG, GENERATED_FLAG].sort());
  });

  it('never replaces an existing file', () => {
    const root = copy();
    const file = join(root, 'signature', 'basics.yaml');
    const before = readFileSync(file, 'utf8');
    expect(() =>
      writeCases({ root, file, area: 'signature', title: 't', cases: [good('signature.gen-undo-1')] }),
    ).toThrow(TargetExistsError);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});
