import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExpectFailuresError, readExpectFailures, writeExpectFailures } from '../../src/runner/expect-failures.js';

const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-xfail-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('expected-failure lists', () => {
  it.each([
    ['not a list', 'id: x\n', 'must be a YAML list of {id, reason} entries'],
    ['not YAML', '- [unclosed\n', 'is not valid YAML'],
    ['an entry without id', '- reason: r\n', 'entry 1 has no id'],
    ['an unknown field', '- id: a\n  reason: r\n  owner: me\n', 'entry 1 (a) has unknown field owner'],
    ['a duplicate', '- id: a\n  reason: r\n- id: a\n  reason: s\n', 'a is listed twice'],
    // the list is level 1, so level 65 is the 64th "[", after "- ": column 66
    [
      '3,000 levels of nesting',
      `- ${'['.repeat(3000)}${']'.repeat(3000)}\n`,
      'is refused (line 1, column 66): nests collections more than 64 deep',
    ],
    [
      'an alias bomb',
      `- &a0 [x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 9 }, (_, i) => `- &a${i + 1} [${Array(9).fill(`*a${i}`).join(', ')}]\n`).join('')}`,
      'is refused: its aliases expand past the limit of 100 expansions',
    ],
  ])('refuses %s, naming the file', (name, text, message) => {
    const p = file(`${name.replace(/ /g, '-')}.yaml`, text);
    expect(() => readExpectFailures(p)).toThrow(ExpectFailuresError);
    expect(() => readExpectFailures(p)).toThrow(message);
  });

  it('reads an empty file as an empty list, and a missing one only when asked', () => {
    expect(readExpectFailures(file('empty.yaml', '')).size).toBe(0);
    expect(readExpectFailures(join(dir, 'nope.yaml'), { missingOk: true }).size).toBe(0);
    expect(() => readExpectFailures(join(dir, 'nope.yaml'))).toThrow('no such file');
  });

  it('writes sorted entries, and an empty list as []', () => {
    const p = join(dir, 'out.yaml');
    writeExpectFailures(p, [
      { id: 'b', reason: 'two' },
      { id: 'a', reason: 'one' },
    ]);
    expect([...readExpectFailures(p).keys()]).toEqual(['a', 'b']);
    writeExpectFailures(p, []);
    expect(readFileSync(p, 'utf8')).toMatch(/\n\[\]\n$/);
    expect(readExpectFailures(p).size).toBe(0);
  });
});
