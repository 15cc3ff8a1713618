/** Text for messages: clipped, marked, never cut inside a character. */
import { describe, expect, it } from 'vitest';
import { clip, clipQuoted } from '../../src/scheme/text.js';

describe('clip', () => {
  it('keeps short text, cuts long text at the limit and marks the cut', () => {
    expect(clip('abc', 3)).toBe('abc');
    expect(clip('abcdef', 3)).toBe('abc…');
    expect(clipQuoted('a"c', 3)).toBe('"a\\"c"');
    expect(clipQuoted('a\nbcdef', 3)).toBe('"a\\nb"…');
  });

  it('never splits a character outside the BMP', () => {
    expect(clip('ab😀cd', 3)).toBe('ab…');
    expect(clip('ab😀cd', 4)).toBe('ab😀…');
  });
});
