/**
 * The loader refuses bad vector files with the file, the case id and the JSON
 * pointer of each problem; and a wrong hex or a wrong content in a file makes the
 * run fail (the same functions the suites use).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCase } from '../../src/roles/run-case.js';
import { createReferenceSubject } from '../../src/subjects/reference.js';
import {
  DEFAULT_VECTORS_DIR,
  formatProblem,
  liveCases,
  loadVectorSet,
  loadVectorSetInFull,
  VectorSetError,
} from '../../src/vectors/load.js';
import { contentKey, readSnapshot } from '../../src/vectors/snapshot.js';
import { expectationProblems, sha256Hex } from '../../suites/_support/expectations.js';
import { content, tinySets } from './_tiny-set.js';

const tinySet = tinySets();

function problemsOf(dir: string): string[] {
  try {
    loadVectorSet(dir);
  } catch (e) {
    expect(e).toBeInstanceOf(VectorSetError);
    return (e as VectorSetError).problems.map(formatProblem);
  }
  return [];
}

const firstCase = (f: Record<string, unknown>): Record<string, Record<string, unknown>> =>
  (f['cases'] as Array<Record<string, Record<string, unknown>>>)[0]!;

describe('loadVectorSet', () => {
  it('loads a good set, and its hash changes with a byte of a file', () => {
    const set = loadVectorSet(tinySet());
    expect(set.cases.map((c) => c.case.id)).toEqual(['signature.tiny']);
    expect(set.files).toEqual([{ file: 'signature/tiny.yaml', kind: 'signature', title: 'tiny', cases: 1 }]);
    const other = loadVectorSet(tinySet((f) => (f['title'] = 'tiny!')));
    expect(other.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(other.hash).not.toBe(set.hash);
  });

  it('refuses a schema violation with file, case id and JSON pointer', () => {
    const dir = tinySet((f) => (firstCase(f)['expected']!['sign'] = 'ABC'));
    expect(problemsOf(dir)).toContain(
      'signature/tiny.yaml: case signature.tiny at /cases/0/expected/sign: must match pattern "^[0-9a-f]{64}$"',
    );
  });

  it('names a missing field and an unknown one', () => {
    const dir = tinySet((f) => {
      delete (firstCase(f) as Record<string, unknown>)['comment'];
      firstCase(f)['inputs']!['extra'] = 1;
    });
    const problems = problemsOf(dir);
    expect(problems).toContain('signature/tiny.yaml: case signature.tiny at /cases/0: comment is required');
    expect(problems).toContain(
      'signature/tiny.yaml: case signature.tiny at /cases/0/inputs: extra is not allowed here',
    );
  });

  it('refuses an unknown result, an unexplained flag, a duplicate id and a dangling supersededBy', () => {
    const dir = tinySet((f) => {
      const c = firstCase(f) as Record<string, unknown>;
      c['flags'] = ['NoSuchFlag'];
      c['supersededBy'] = 'signature.nowhere';
      (f['cases'] as unknown[]).push({ ...c, result: 'maybe' }, { ...c });
    });
    const problems = problemsOf(dir);
    expect(problems).toContain(
      'signature/tiny.yaml: case signature.tiny at /cases/1/result: must be one of "valid", "invalid", "acceptable"',
    );
    // the schema refuses the file, so the set checks do not run on it; fix the result and look again
    const dir2 = tinySet((f) => {
      const c = firstCase(f) as Record<string, unknown>;
      c['flags'] = ['NoSuchFlag'];
      c['supersededBy'] = 'signature.nowhere';
      (f['cases'] as unknown[]).push({ ...c });
    });
    expect(problemsOf(dir2)).toEqual([
      'signature/tiny.yaml: case signature.tiny at /cases/0/flags/0: flag NoSuchFlag is not explained in notes.yaml',
      'signature/tiny.yaml: case signature.tiny at /cases/1/id: id signature.tiny is already used in signature/tiny.yaml',
      'signature/tiny.yaml: case signature.tiny at /cases/1/flags/0: flag NoSuchFlag is not explained in notes.yaml',
      'signature/tiny.yaml: case signature.tiny at /cases/0/supersededBy: supersededBy names signature.nowhere, which is not another case',
      'signature/tiny.yaml: case signature.tiny at /cases/1/supersededBy: supersededBy names signature.nowhere, which is not another case',
    ]);
  });

  it('refuses YAML that does not parse, with its line', () => {
    expect(problemsOf(tinySet(undefined, 'kind: signature\ncases: [\n  - x: 1\n'))[0]).toMatch(
      /^signature\/tiny\.yaml: at \/: is not valid YAML \(line \d+, column \d+\)/,
    );
  });

  it('refuses a file in the wrong folder and a kind that does not match its folder', () => {
    const dir = tinySet();
    writeFileSync(join(dir, 'stray.yaml'), 'kind: signature\n');
    mkdirSync(join(dir, 'response'));
    writeFileSync(join(dir, 'response', 'x.yaml'), readFileSync(join(dir, 'signature', 'tiny.yaml')));
    const problems = problemsOf(dir);
    expect(problems).toContain(
      'stray.yaml: at /: not in a vector kind folder (authorization, client, gateway, merchant, redirect, request, response, signature, upload, webhook)',
    );
    expect(problems).toContain(
      'response/x.yaml: at /kind: kind is "signature", but the file is in the response/ folder',
    );
  });

  it('warns about a flag no case uses, and skips superseded cases', () => {
    const dir = tinySet((f) => {
      const c = firstCase(f) as Record<string, unknown>;
      (f['cases'] as unknown[]).push({ ...c, id: 'signature.tiny-old', supersededBy: 'signature.tiny' });
    });
    writeFileSync(
      join(dir, 'notes.yaml'),
      `${readFileSync(join(dir, 'notes.yaml'), 'utf8')}  Unused:\n    bugType: BASIC\n    description: never used\n`,
    );
    const set = loadVectorSet(dir);
    expect(set.warnings).toEqual(['notes.yaml: flag Unused is explained but no case uses it']);
    expect(liveCases(set).map((c) => c.case.id)).toEqual(['signature.tiny']);
  });
});

describe('a broken vector file makes the run fail', () => {
  const subject = createReferenceSubject();

  it('the good file passes', async () => {
    const set = loadVectorSet(tinySet());
    const c = set.cases[0]!;
    expect(expectationProblems(c.case)).toEqual([]);
    expect((await runCase(c, subject)).status).toBe('pass');
  });

  it('a wrong hex fails both the independent check and the run', async () => {
    const set = loadVectorSet(
      tinySet((f) => (firstCase(f)['expected']!['sign'] = sha256Hex(new TextEncoder().encode(`${content}x`)))),
    );
    const c = set.cases[0]!;
    expect(expectationProblems(c.case)).toEqual(['expected.sign is not SHA-256 of expected.content']);
    const outcome = await runCase(c, subject);
    expect(outcome.status).toBe('fail');
    expect(outcome.ops.find((o) => o.op === 'signature.sign')?.status).toBe('fail');
  });

  it('a wrong content (and its matching hex) fails against the reference', async () => {
    const wrong = content.slice(0, -1);
    const set = loadVectorSet(
      tinySet((f) => {
        firstCase(f)['expected']!['content'] = wrong;
        firstCase(f)['expected']!['sign'] = sha256Hex(new TextEncoder().encode(wrong));
      }),
    );
    const c = set.cases[0]!;
    expect(expectationProblems(c.case)).toEqual(['the reference builds other content than expected.content']);
    const outcome = await runCase(c, subject);
    expect(outcome.status).toBe('fail');
    expect(outcome.ops.find((o) => o.op === 'signature.content')?.message).toBe(
      'content differs from the expected after the end of the expected content (part 7, body; expected 90 bytes, got 91)',
    );
  });

  it('the written file is what the loader reads, byte for byte', () => {
    const dir = tinySet();
    const text = readFileSync(join(dir, 'signature', 'tiny.yaml'), 'utf8');
    expect(text).toContain('content: "app_1\\n\\\n        sk_test_x\\n\\\n');
    expect((parse(text) as { cases: Array<{ expected: { content: string } }> }).cases[0]!.expected.content).toBe(
      content,
    );
  });
});

/** Runs `body` on a fresh copy of the kit's vectors, its first case comment changed by `comment` (none: unchanged), and removes the copy. */
function withCopy(comment: string | undefined, body: (copy: string) => void): void {
  const copy = mkdtempSync(join(tmpdir(), 'pgv2kit-copy-'));
  try {
    cpSync(DEFAULT_VECTORS_DIR, copy, { recursive: true });
    if (comment !== undefined) {
      const file = join(copy, 'signature', 'basics.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/comment: (\w)/, `comment: ${comment} $1`));
    }
    body(copy);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

describe("the build's snapshot of the kit's vectors", () => {
  it("gives exactly what loading the files in full gives, for the kit's folder and for any copy of it", () => {
    const snap = readSnapshot();
    expect(snap, 'dist/vectors/set-snapshot.json: npm run build writes it').toBeDefined();
    expect(contentKey(DEFAULT_VECTORS_DIR)).toBe(snap?.key);
    const full = loadVectorSetInFull(DEFAULT_VECTORS_DIR);
    expect(loadVectorSet()).toEqual(full);
    withCopy(undefined, (copy) => {
      expect(contentKey(copy)).toBe(snap?.key);
      expect(loadVectorSet(copy)).toEqual({ ...full, root: copy });
    });
  });

  it('is not used for a folder that differs by one byte, in a case or in a schema', () => {
    withCopy('Changed', (copy) => {
      expect(contentKey(copy)).not.toBe(readSnapshot()?.key);
      expect(loadVectorSet(copy).cases.some((c) => c.case.comment.startsWith('Changed '))).toBe(true);
      const before = contentKey(copy);
      const schema = join(copy, 'schema', 'common.schema.json');
      writeFileSync(schema, `${readFileSync(schema, 'utf8')}\n`);
      expect(contentKey(copy)).not.toBe(before);
    });
  });
});

describe('compiled schemas', () => {
  it('are reused by content, so a schema changed in the same folder is compiled again', () => {
    withCopy('Edited', (copy) => {
      expect(loadVectorSetInFull(copy).cases.length).toBeGreaterThan(0);
      writeFileSync(join(copy, 'schema', 'signature.schema.json'), '{ not json');
      expect(() => loadVectorSetInFull(copy)).toThrow(/schema\/signature\.schema\.json: at \/: is not JSON/);
    });
  });
});

describe('parsed files', () => {
  it('are reused by their bytes, and what a caller changes in a loaded set never reaches the next load', () => {
    withCopy('Parsed', (copy) => {
      const first = loadVectorSetInFull(copy);
      const again = loadVectorSetInFull(copy);
      expect(again.cases).toEqual(first.cases);
      // the second load came from the cache: change what it gave
      const c = again.cases.find((x) => x.case.kind === 'signature')?.case as { inputs: { appId: string } };
      const before = c.inputs.appId;
      c.inputs.appId = 'changed-by-a-caller';
      const third = loadVectorSetInFull(copy);
      expect(
        (third.cases.find((x) => x.case.kind === 'signature')?.case as { inputs: { appId: string } }).inputs.appId,
      ).toBe(before);
    });
  });
});
