/**
 * A vectors folder is untrusted input (issue 12, item 4): the loader reads only regular files
 * inside it, within the size, string, nesting and alias limits, and refuses everything else
 * with the file (and the line where there is one) as a VectorInputError — never a hang, a
 * gigabyte read, a stack overflow or an "internal error".
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentKey, readFolderFile } from '../../src/vectors/files.js';
import { DEFAULT_VECTOR_LIMITS, vectorLimits } from '../../src/vectors/limits.js';
import {
  formatProblem,
  loadVectorSet,
  VectorInputError,
  VectorSetError,
  type VectorProblem,
} from '../../src/vectors/load.js';
import { tempFolders } from '../_support.js';
import { tinySets } from './_tiny-set.js';

const tinySet = tinySets();
const folder = tempFolders('pgv2kit-untrusted-');
const posix = process.platform !== 'win32';

/** The problems loading gives, which must all be refusals (a VectorInputError). */
function refusals(dir: string, limits = DEFAULT_VECTOR_LIMITS): readonly VectorProblem[] {
  let error: unknown;
  try {
    loadVectorSet(dir, { limits });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(VectorInputError);
  return (error as VectorInputError).problems;
}

const text = (problems: readonly VectorProblem[]): string[] => problems.map(formatProblem);

describe.runIf(posix)('only regular files inside the folder are read', () => {
  it('a symlink to /dev/zero is refused unread, at once', () => {
    const dir = tinySet();
    symlinkSync('/dev/zero', join(dir, 'signature', 'zero.yaml'));
    const started = Date.now();
    expect(text(refusals(dir))).toEqual([
      'signature/zero.yaml: at /: is a symlink to /dev/zero, outside the vectors folder',
    ]);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a FIFO named .yaml is refused without waiting for a writer', () => {
    const dir = tinySet();
    execFileSync('mkfifo', [join(dir, 'signature', 'pipe.yaml')]);
    expect(text(refusals(dir))).toEqual(['signature/pipe.yaml: at /: is a FIFO, not a regular file']);
  });

  it('the reader refuses a device by what it is, found by the open itself (a folder may hold one)', () => {
    expect(readFolderFile('/dev/zero', 1024)).toEqual({
      ok: false,
      message: 'is a character device, not a regular file',
    });
    expect(readFolderFile(folder(), 1024)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^is a folder|cannot be read/),
    });
  });

  it('symlinks out of the folder are refused, whether to a file or a folder', () => {
    const dir = tinySet();
    const outside = folder();
    writeFileSync(join(outside, 'x.yaml'), readFileSync(join(dir, 'signature', 'tiny.yaml')));
    symlinkSync(join(outside, 'x.yaml'), join(dir, 'signature', 'out.yaml'));
    symlinkSync(outside, join(dir, 'response'));
    const lines = text(refusals(dir));
    expect(lines).toContain(`response: at /: is a symlink to ${outside}, outside the vectors folder`);
    expect(lines).toContain(
      `signature/out.yaml: at /: is a symlink to ${join(outside, 'x.yaml')}, outside the vectors folder`,
    );
  });

  it('a symlink within the folder is followed: the set loads as if the file were there', () => {
    const dir = tinySet();
    mkdirSync(join(dir, 'store'));
    renameSync(join(dir, 'signature', 'tiny.yaml'), join(dir, 'store', 'tiny.txt'));
    symlinkSync(join('..', 'store', 'tiny.txt'), join(dir, 'signature', 'tiny.yaml'));
    expect(loadVectorSet(dir).cases.map((c) => c.case.id)).toEqual(['signature.tiny']);
  });

  it('symlink loops are refused: two links at each other, a folder leading back up', () => {
    const dir = tinySet();
    symlinkSync('b.yaml', join(dir, 'signature', 'a.yaml'));
    symlinkSync('a.yaml', join(dir, 'signature', 'b.yaml'));
    symlinkSync('..', join(dir, 'signature', 'up'));
    expect(text(refusals(dir))).toEqual([
      'signature/a.yaml: at /: is a symlink loop',
      'signature/b.yaml: at /: is a symlink loop',
      'signature/up: at /: leads back to a folder already read (a symlink loop)',
    ]);
  });

  it('a symlink to nothing named .yaml is refused; a folder nested past 8 levels is refused', () => {
    const dir = tinySet();
    symlinkSync('gone.txt', join(dir, 'signature', 'dangling.yaml'));
    mkdirSync(join(dir, 'signature', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), { recursive: true });
    expect(text(refusals(dir))).toEqual([
      'signature/a/b/c/d/e/f/g/h: at /: is nested more than 8 folders deep',
      'signature/dangling.yaml: at /: is a symlink to nothing',
    ]);
  });
});

describe('sizes: a file, a string, the number of files', () => {
  it('a 50 MB file is refused by its size, unread', () => {
    const dir = tinySet();
    const big = join(dir, 'signature', 'big.yaml');
    writeFileSync(big, 'kind: signature\n');
    truncateSync(big, 50 * 1024 * 1024); // sparse: nothing is written, and nothing may be read
    const before = process.memoryUsage().rss;
    expect(text(refusals(dir))).toEqual([
      'signature/big.yaml: at /: is 50 MiB, over the limit of 16 MiB per file (--max-vector-file)',
    ]);
    expect(process.memoryUsage().rss - before).toBeLessThan(40 * 1024 * 1024);
  });

  it('the file limit is the one given (schemas and notes.yaml under it too): a file one byte over it refused, one at it loaded', () => {
    // padded past the largest schema (12 KB), which the limit holds too
    const dir = tinySet((f) => (f['description'] = 'y'.repeat(64 * 1024)));
    const size = readFileSync(join(dir, 'signature', 'tiny.yaml')).length;
    expect(text(refusals(dir, vectorLimits({ fileBytes: size - 1 })))).toEqual([
      `signature/tiny.yaml: at /: is ${(size / 1024).toFixed(1)} KiB, over the limit of ${((size - 1) / 1024).toFixed(1)} KiB per file (--max-vector-file)`,
    ]);
    expect(loadVectorSet(dir, { limits: vectorLimits({ fileBytes: size }) }).cases).toHaveLength(1);
  });

  it('a 10 MB string is refused with its line; a higher string limit lets it be judged', () => {
    const dir = tinySet((f) => (f['description'] = 'x'.repeat(10 * 1024 * 1024)));
    const line =
      readFileSync(join(dir, 'signature', 'tiny.yaml'), 'utf8')
        .split('\n')
        .findIndex((l) => l.startsWith('description: ')) + 1;
    const problems = refusals(dir);
    expect(text(problems)).toEqual([
      `signature/tiny.yaml: at /: is refused (line ${line}, column 14): holds a string of 10 MiB, over the limit of 1 MiB per string (--max-vector-string)`,
    ]);
    expect(problems[0]?.line).toBe(line);
    expect(loadVectorSet(dir, { limits: vectorLimits({ stringBytes: 11 * 1024 * 1024 }) }).cases).toHaveLength(1);
  });

  it('more YAML files than the limit: the folder is refused, saying how many were left unread', () => {
    const dir = tinySet();
    for (const n of [1, 2, 3])
      writeFileSync(join(dir, 'signature', `extra-${n}.yaml`), 'kind: signature\ntitle: t\ncases: []\n');
    expect(text(refusals(dir, { ...DEFAULT_VECTOR_LIMITS, files: 3 }))).toContain(
      '.: at /: holds more than 3 YAML files (2 more were not read)',
    );
  });
});

describe('YAML structure: nesting and aliases', () => {
  const deepFlow = `kind: signature\ntitle: t\ncases: ${'['.repeat(3000)}${']'.repeat(3000)}\n`;
  const deepBlock = `kind: signature\ntitle: t\ncases:\n${Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i)}- `).join('\n')}x\n`;

  it.each([
    ['flow', deepFlow, 3],
    // the top mapping is level 1: level 65 is on line 3 of the flow, line 67 of the block (line k holds level k - 2)
    ['block', deepBlock, 67],
  ])('3,000 levels of %s nesting are refused before they are built, with the line', (_, raw, line) => {
    const problems = refusals(tinySet(undefined, raw));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(
      new RegExp(`^is refused \\(line ${line}, column \\d+\\): nests collections more than 64 deep$`),
    );
  });

  it('one deep file after another in the same process: no crash (the yaml composer recursing on each used to abort Node)', () => {
    for (const raw of [deepFlow, deepBlock, deepFlow, deepBlock])
      expect(refusals(tinySet(undefined, raw))).toHaveLength(1);
  });

  it('an alias bomb is refused; a few aliases are read', () => {
    let bomb = 'kind: signature\ntitle: t\na0: &a0 [x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 10; i++)
      bomb += `a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(', ')}]\n`;
    expect(text(refusals(tinySet(undefined, `${bomb}cases: []\n`)))).toEqual([
      'signature/tiny.yaml: at /: is refused: its aliases expand past the limit of 100 expansions',
    ]);
    // an anchor used again is YAML's own way to repeat: such a file loads
    const plain = readFileSync(join(tinySet(), 'signature', 'tiny.yaml'), 'utf8');
    const few = plain.replace('title: tiny\n', 'title: &t tiny\ndescription: *t\n');
    expect(few).not.toBe(plain);
    expect(loadVectorSet(tinySet(undefined, few)).files[0]?.title).toBe('tiny');
  });
});

describe('what the refusals lead to', () => {
  it('a refused file still lets every other problem be listed, and the error is a VectorSetError too', () => {
    const dir = tinySet((f) => (f['title'] = 42));
    writeFileSync(join(dir, 'signature', 'big.yaml'), 'x'.repeat(40_000));
    const problems = refusals(dir, vectorLimits({ fileBytes: 20_000 }));
    expect(problems.filter((p) => p.refused).map((p) => p.file)).toEqual(['signature/big.yaml']);
    expect(problems.filter((p) => !p.refused).map((p) => p.pointer)).toEqual(['/title']);
    expect(() => loadVectorSet(dir, { limits: vectorLimits({ fileBytes: 20_000 }) })).toThrow(VectorSetError);
  });

  it('the content key of a folder holding a refused file is undefined (the full load then names it)', () => {
    const dir = tinySet();
    expect(contentKey(dir)).toMatch(/^[0-9a-f]{64}$/);
    writeFileSync(join(dir, 'signature', 'big.yaml'), 'x'.repeat(40_000));
    expect(contentKey(dir, vectorLimits({ fileBytes: 20_000 }))).toBeUndefined();
    expect(contentKey(dir)).toMatch(/^[0-9a-f]{64}$/);
  });
});
