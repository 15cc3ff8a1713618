/**
 * The wording of every diagnosis: "your … is/equals … in which …" (the description of a
 * mistake completes "in which") or "you accept …", with the spec section or reading as
 * `ref`, and fixed text (no value of a case can reach it).
 */
import { describe, expect, it } from 'vitest';
import { PARSER_MISTAKES } from '../../src/diagnosis/authorization.js';
import { MISTAKES } from '../../src/diagnosis/mistakes.js';
import { REDIRECT_MISTAKES } from '../../src/diagnosis/redirect.js';
import { REFUSALS } from '../../src/diagnosis/refusals.js';
import { FORM_MISTAKES } from '../../src/diagnosis/upload.js';
import { FORM_PROBLEMS } from '../../src/upload/index.js';

const REF = /^(§\d+(\.\d+)?|R\d+)(, (§\d+(\.\d+)?|R\d+))*$/;

describe('diagnosis wording', () => {
  it('every refusal reads "you accept …"', () => {
    for (const message of Object.values(REFUSALS)) expect(message).toMatch(/^you accept /);
  });

  it.each([
    ['content mistakes', MISTAKES],
    ['redirect mistakes', Object.entries(REDIRECT_MISTAKES).map(([id, m]) => ({ id, ...m }))],
    ['parser mistakes', PARSER_MISTAKES],
  ])('%s: a clause that completes "in which", a ref to the spec or a reading', (_, list) => {
    expect(list.length).toBeGreaterThan(0);
    for (const m of list) {
      expect(m.description, m.id).toMatch(/^[a-z"]/);
      expect(m.description, m.id).not.toMatch(/[.]$/);
      expect(m.ref, m.id).toMatch(REF);
    }
  });

  it('every problem the form check names has its clause', () => {
    expect(Object.keys(FORM_MISTAKES).sort()).toEqual(Object.keys(FORM_PROBLEMS).sort());
  });

  it('mistake ids are unique across the catalogues', () => {
    const ids = [
      ...MISTAKES.map((m) => m.id),
      ...Object.keys(REDIRECT_MISTAKES),
      ...PARSER_MISTAKES.map((m) => m.id),
      ...Object.keys(FORM_MISTAKES),
    ];
    expect(new Set(ids).size).toBe(ids.length);
  });
});
