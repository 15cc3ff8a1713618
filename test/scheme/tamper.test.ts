import { describe, expect, it } from 'vitest';
import { changeLastDigit } from '../../src/scheme/tamper.js';

describe('changeLastDigit', () => {
  it.each([
    ['{"amount":"12.50"}', '{"amount":"12.51"}'],
    ['a9b', 'a0b'],
    ['no digits', 'no digits '],
    ['', ' '],
  ])('%j → %j: one place differs, the length kept or one space added', (text, changed) => {
    expect(changeLastDigit(text)).toBe(changed);
    expect(changeLastDigit(text)).not.toBe(text);
  });
});
