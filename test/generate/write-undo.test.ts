/**
 * writeCases never leaves a half-written vector set: a case the set refuses undoes the new
 * file (or the appended block) and the notes it added; an existing file is never replaced.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GENERATOR, signatureCase, type GeneratedCase } from '../../src/generate/generate.js';
import { TargetExistsError, writeCases } from '../../src/generate/write.js';
import { DEFAULT_VECTORS_DIR, VectorSetError } from '../../src/vectors/load.js';

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
const parts = { appId: 'app_undo', appSecret: 'sk_test_undo_0001', method: 'POST', url: 'https://pg.example.com/x', timestamp: '1700000000000', nonce: 'n-undo', body: Buffer.from('{}') };
const provenance = { generator: GENERATOR, kitVersion: '0', date: '2026-01-01' };
const good = (id: string): GeneratedCase => signatureCase(parts, id, provenance);
const bad = (id: string): GeneratedCase => ({ ...good(id), comment: 'x'.repeat(300) }) as GeneratedCase;

describe('writeCases', () => {
  it('a new file whose case the set refuses is removed, and notes.yaml is as it was', () => {
    const root = copy();
    const notes = readFileSync(join(root, 'notes.yaml'), 'utf8');
    const file = join(root, 'signature', 'undo.yaml');
    expect(() => writeCases({ root, file, area: 'signature', title: 't', cases: [bad('signature.gen-undo-1')] })).toThrow(VectorSetError);
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(join(root, 'notes.yaml'), 'utf8')).toBe(notes);
  });

  it('an appended block the set refuses leaves the file as it was', () => {
    const root = copy();
    const file = join(root, 'signature', 'undo.yaml');
    writeCases({ root, file, area: 'signature', title: 't', cases: [good('signature.gen-undo-1')] });
    const before = readFileSync(file, 'utf8');
    expect(() => writeCases({ root, file, area: 'signature', title: 't', cases: [bad('signature.gen-undo-2')], append: true })).toThrow(VectorSetError);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const appended = writeCases({ root, file, area: 'signature', title: 't', cases: [good('signature.gen-undo-3')], append: true });
    expect(appended).toMatchObject({ appended: true, ids: ['signature.gen-undo-3'], notesUpdated: false });
  });

  it('never replaces an existing file', () => {
    const root = copy();
    const file = join(root, 'signature', 'basics.yaml');
    const before = readFileSync(file, 'utf8');
    expect(() => writeCases({ root, file, area: 'signature', title: 't', cases: [good('signature.gen-undo-1')] })).toThrow(TargetExistsError);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});
