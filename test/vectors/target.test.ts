/**
 * Where commands write cases (src/vectors/target.ts): what stops a file from being written, said
 * before anything is; what a vectors folder lacks is made, and only that is taken back; the ids a
 * new case may not take.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VECTORS_DIR, loadVectorSet } from '../../src/vectors/load.js';
import {
  isKitVectorsFolder,
  makeVectorFolder,
  takenIds,
  vectorTargetProblem,
  vectorsRootOf,
} from '../../src/vectors/target.js';
import { tempFolders } from '../_support.js';

const tmp = tempFolders('pgv2kit-target-');

describe('vectorTargetProblem', () => {
  it.each([
    [
      'the vectors folder is a file',
      (d: string) => writeFileSync(join(d, 'v'), 'x'),
      (d: string) => `the vectors folder ${join(d, 'v')} is a file, not a folder`,
    ],
    [
      'the area folder is a file',
      (d: string) => (mkdirSync(join(d, 'v')), writeFileSync(join(d, 'v', 'signature'), 'x')),
      (d: string) => `the signature folder ${join(d, 'v', 'signature')} is a file, not a folder`,
    ],
    [
      'the file is a folder',
      (d: string) => mkdirSync(join(d, 'v', 'signature', 'a.yaml'), { recursive: true }),
      (d: string) => `${join(d, 'v', 'signature', 'a.yaml')} is a folder`,
    ],
    [
      'the folder above is a file',
      (d: string) => writeFileSync(join(d, 'up'), 'x'),
      (d: string) => `the folder the vectors folder goes in, ${join(d, 'up')}, is a file`,
    ],
  ])('%s: named, and nothing is made', (_, arrange, message) => {
    const d = tmp();
    arrange(d);
    const root = message(d).includes(join(d, 'up')) ? join(d, 'up', 'v') : join(d, 'v');
    const before = readdirSync(d, { recursive: true }).sort();
    expect(vectorTargetProblem(root, 'signature', join(root, 'signature', 'a.yaml'))).toBe(message(d));
    // a problem of the folders stops the folders from being made too
    if (!message(d).endsWith(' is a folder')) expect(() => makeVectorFolder(root, 'signature')).toThrow(message(d));
    expect(readdirSync(d, { recursive: true }).sort()).toEqual(before);
  });

  it("a new file, and an existing one of a folder of one's own, can be written", () => {
    const d = tmp();
    const root = join(d, 'v');
    expect(vectorTargetProblem(root, 'webhook', join(root, 'webhook', 'a.yaml'))).toBeUndefined();
    mkdirSync(join(root, 'webhook'), { recursive: true });
    writeFileSync(join(root, 'webhook', 'a.yaml'), 'kind: webhook\n');
    expect(vectorTargetProblem(root, 'webhook', join(root, 'webhook', 'a.yaml'))).toBeUndefined();
    expect(
      vectorTargetProblem(DEFAULT_VECTORS_DIR, 'webhook', join(DEFAULT_VECTORS_DIR, 'webhook', 'a-new-file.yaml')),
    ).toBeUndefined();
  });
});

describe('makeVectorFolder', () => {
  it('makes only what is missing, and undo takes back only that', () => {
    const d = tmp();
    const root = join(d, 'v');
    mkdirSync(join(root, 'redirect'), { recursive: true });
    writeFileSync(join(root, 'redirect', 'mine.yaml'), 'x');
    const made = makeVectorFolder(root, 'upload');
    expect(made.made).toEqual([join(root, 'upload'), join(root, 'notes.yaml')]);
    expect(makeVectorFolder(root, 'upload').made).toEqual([]);
    made.undo();
    expect(readdirSync(root, { recursive: true }).sort()).toEqual(['redirect', join('redirect', 'mine.yaml')]);
  });
});

describe('takenIds and the folders', () => {
  it("are the kit's ids for a folder not made yet, and the folder's with them once it is", () => {
    const kit = loadVectorSet().cases.map((c) => c.case.id);
    const d = tmp();
    expect(takenIds(join(d, 'v'))).toEqual(kit);
    expect(takenIds(DEFAULT_VECTORS_DIR)).toEqual(kit);
    expect([
      isKitVectorsFolder(DEFAULT_VECTORS_DIR),
      isKitVectorsFolder(join(DEFAULT_VECTORS_DIR, '..', 'vectors')),
      isKitVectorsFolder(d),
    ]).toEqual([true, true, false]);
    expect([
      vectorsRootOf('/p/mine/signature/a.yaml', 'signature'),
      vectorsRootOf('/p/mine/a.yaml', 'signature'),
    ]).toEqual(['/p/mine', undefined]);
  });
});
