/**
 * The one catalogue of known signer mistakes (KNOWN_MISTAKES, keyed by flag) against the
 * vectors: every key is a KNOWN_MISTAKE flag of vectors/notes.yaml; every KNOWN_MISTAKE flag
 * of notes.yaml is a key, or a mistake of another party diagnosed by its own table (named
 * here); and every signature case flagged with a key has a candidate that one of that key's
 * forms reproduces — the flags the vectors carry and the mistakes diagnosis names agree.
 */
import { describe, expect, it } from 'vitest';
import { findMistakes, KNOWN_MISTAKES, MISTAKES, type MistakeFlag } from '../../src/diagnosis/mistakes.js';
import { bodyBytes } from '../../src/vectors/fields.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import type { SignatureCase } from '../../src/vectors/types.js';

const set = loadVectorSet();

/** KNOWN_MISTAKE flags of other parties: diagnosed by their own tables, not by the signer catalogue. */
const OTHER_PARTIES: Record<string, string> = {
  ItemNameSpelling: 'header parsers (src/diagnosis/authorization.ts)',
  ItemSeparator: 'header parsers (src/diagnosis/authorization.ts)',
  FieldNameCase: 'upload forms (src/diagnosis/upload.ts)',
  FieldEncoded: 'upload forms (src/diagnosis/upload.ts)',
  FileNotLast: 'upload forms (src/diagnosis/upload.ts)',
  HmacInsteadOfHash: 'a signer using HMAC: no content of the seven parts reproduces its sign',
  RedirectLandedUrl: 'redirect verifiers (src/diagnosis/redirect.ts)',
  RedirectEncodedPayment: 'redirect verifiers (src/diagnosis/redirect.ts)',
  RedirectQueryDecodedWhole: 'redirect verifiers (src/diagnosis/redirect.ts)',
  RedirectDecodedTwice: 'redirect verifiers (src/diagnosis/redirect.ts)',
  RedirectMethodNotGet: 'redirect verifiers (src/diagnosis/redirect.ts)',
  RedirectPart7Shape: 'redirect verifiers (src/diagnosis/redirect.ts)',
  FuzzFinding: 'header parsers, found by pgv2kit fuzz',
};

/**
 * Cases whose candidate is a form of their flag the catalogue does not build (yet): diagnosis
 * names no mistake for them, or a neighbour. Listed, so a new case that disagrees fails, and a
 * form added to the catalogue takes its case off the list (the test says so).
 */
const FORMS_NOT_BUILT: Record<string, string> = {
  'signature.body-lf-dropped.two-lfs':
    'one of two trailing LFs dropped: the catalogue strips them all (the content equals no-final-lf)',
  'signature.body-reserialized.key-order': 'keys sorted while re-serializing',
  'signature.url-normalized.percent-decoded': 'percent-encoding decoded',
  'signature.url-normalized.query-sorted': 'query parameters sorted',
  'signature.url-normalized.query-reencoded': 'query re-encoded',
  'signature.crlf-converted.lone-cr': 'a lone CR converted',
  'signature.url-normalized.percent-case-verifier-either': 'percent-encoding case changed',
};

describe('the catalogue of known mistakes', () => {
  it("is keyed by the KNOWN_MISTAKE flags of notes.yaml: each key a flag, each flag a key or another party's", () => {
    const known = Object.entries(set.notes)
      .filter(([, n]) => n.bugType === 'KNOWN_MISTAKE')
      .map(([flag]) => flag);
    for (const key of Object.keys(KNOWN_MISTAKES))
      expect([key, set.notes[key]?.bugType]).toEqual([key, 'KNOWN_MISTAKE']);
    expect(known.filter((f) => !(f in KNOWN_MISTAKES) && !(f in OTHER_PARTIES))).toEqual([]);
    expect(Object.keys(OTHER_PARTIES).filter((f) => f in KNOWN_MISTAKES || !known.includes(f))).toEqual([]);
  });

  it('gives every form one flag, and every form an id of its own', () => {
    const ids = MISTAKES.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const m of MISTAKES) expect(KNOWN_MISTAKES[m.flag].forms.some((f) => f.id === m.id)).toBe(true);
  });

  it('every signature case flagged with a key has a candidate one of its forms reproduces', () => {
    const flagged = liveCases(set)
      .map((l) => l.case)
      .filter(
        (c): c is SignatureCase =>
          c.kind === 'signature' && c.candidate !== undefined && c.flags.some((f) => f in KNOWN_MISTAKES),
      );
    expect(flagged.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    for (const c of flagged) {
      const named = findMistakes({ ...c.inputs, body: bodyBytes(c.inputs) }, c.candidate?.sign ?? '').map(
        (m) => m.flag,
      );
      const flags = c.flags.filter((f): f is MistakeFlag => f in KNOWN_MISTAKES);
      const agrees = flags.some((f) => named.includes(f));
      if (agrees === c.id in FORMS_NOT_BUILT)
        wrong.push(
          agrees
            ? `${c.id}: its form is built now: take it off FORMS_NOT_BUILT`
            : `${c.id}: flagged ${flags.join(', ')}, its candidate is ${named.join(', ') || 'no known mistake'}`,
        );
    }
    expect(wrong).toEqual([]);
  });

  it('every key is carried by some case', () => {
    const used = new Set(liveCases(set).flatMap((l) => l.case.flags));
    expect(Object.keys(KNOWN_MISTAKES).filter((f) => !used.has(f))).toEqual([]);
  });
});
