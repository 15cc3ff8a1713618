/**
 * The Subject interface says all the run asks of a subject (issue 23): giving up, warnings,
 * closing and aborting are members, forwarded by combined subjects and implemented by the
 * testee's, so the CLI and the runner never cast a subject to reach what is inside it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { alive } from '../_support.js';
import { combineSubjects } from '../../src/subjects/combine.js';
import type { Subject } from '../../src/subjects/subject.js';
import { createTesteeSubject } from '../../src/subjects/testee-subject.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const fixture = fileURLToPath(new URL('../protocol/fixtures/misbehaving-testee.mjs', import.meta.url));

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the run reaches a subject through its interface only', () => {
  it('src/cli, src/runner and the library run neither cast a subject nor peek at a session', () => {
    const files = [
      ...tsFiles(join(SRC, 'cli')),
      ...tsFiles(join(SRC, 'runner')),
      join(SRC, 'conformance.ts'),
      join(SRC, 'run.ts'),
    ];
    const found: string[] = [];
    for (const file of files) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // `(subject as …)`, `subject as unknown as …`, `'session' in subject`, `x.session.kill()`
          if (/^\s*(\*|\/\/|\/\*)/.test(line)) return;
          if (
            /\b(subject|testee)\w*\)?\s+as\s/.test(line) ||
            /\bas\s+(unknown\s+as\s+)?\w*Subject\b/.test(line) ||
            /'session'\s+in\b/.test(line) ||
            /\.session\b/.test(line)
          )
            found.push(`${file.slice(SRC.length)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});

function fake(name: string, parts: Partial<Subject> = {}): Subject {
  return {
    implementation: { name, version: '1', language: 'test' },
    operations: [],
    call: async () => ({ result: {} }),
    ...parts,
  };
}

describe('combineSubjects forwards the members the run calls', () => {
  it('warnings of every part, in order; none when no part has any', () => {
    const s = combineSubjects(
      fake('a', { warnings: () => ['a broke'] }),
      fake('b'),
      fake('c', { warnings: () => ['c broke', 'c again'] }),
    );
    expect(s.warnings?.()).toEqual(['a broke', 'c broke', 'c again']);
    expect(combineSubjects(fake('a'), fake('b')).warnings?.() ?? []).toEqual([]);
  });

  it('gaveUp: the first part that gave up says why', () => {
    let why: string | undefined;
    const s = combineSubjects(fake('a'), fake('b', { gaveUp: () => why }));
    expect(s.gaveUp?.()).toBeUndefined();
    why = 'b is gone';
    expect(s.gaveUp?.()).toBe('b is gone');
  });

  it('abort reaches every part that has it (a part without it is left alone)', () => {
    const aborted: string[] = [];
    const s = combineSubjects(
      fake('a', { abort: () => void aborted.push('a') }),
      fake('b'),
      fake('c', { abort: () => void aborted.push('c') }),
    );
    s.abort?.();
    expect(aborted).toEqual(['a', 'c']);
  });
});

describe('the testee subject', () => {
  const options = (mode: string) => ({
    command: `"${process.execPath}" "${fixture}"`,
    env: { ...process.env, MODE: mode },
    timeoutMs: 1500,
    startTimeoutMs: 5000,
    log: () => undefined,
  });

  it('warns of lines that broke the protocol outside any case, once, with the first of them', async () => {
    const subject = await createTesteeSubject(options('twolines'));
    try {
      expect(subject.warnings()).toEqual([]);
      for (const id of ['c-1', 'c-2-bad', 'c-3']) await subject.call('signature.sign', {}, id);
      // the second answer may follow the first by a moment
      await subject.call('signature.sign', {}, 'c-4');
      expect(subject.warnings()).toEqual([
        expect.stringMatching(
          /^the testee broke the protocol 1 time outside any case \(run\.log has each\): a second answer for "c-2-bad"/,
        ),
      ]);
      expect(subject.gaveUp()).toBeUndefined();
    } finally {
      await subject.close();
    }
  });

  it('abort kills the testee at once, without waiting', async () => {
    const subject = await createTesteeSubject(options(''));
    const pid = (subject.session as unknown as { proc?: { pid?: number } }).proc?.pid;
    expect(typeof pid).toBe('number');
    subject.abort();
    for (let i = 0; i < 50 && alive(pid as number); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive(pid as number)).toBe(false);
    await subject.close();
  });
});
