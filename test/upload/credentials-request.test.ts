import { describe, expect, it } from 'vitest';
import {
  validateCredentialsRequest,
  type CredentialsProblem,
  type CredentialsRequest,
} from '../../src/upload/credentials-request.js';
import {
  CREDENTIALS_LIMITS,
  SCENES,
  SCENE_NAMES,
  codePointLength,
  fileExtension,
  isSceneName,
} from '../../src/upload/scenes.js';

// Expected values are written from the spec (2.1, 2.2, 8) and reading R13, not from the code.
const TYPES = 'jpg, jpeg, png, pdf, xls, xlsx';
const MAX = 2_097_152; // R13: 2 MB = 2,097,152 bytes
const SCENE = 'DISPUTE_EVIDENCE';
const good = { filename: 'evidence.pdf', contentType: 'application/pdf', scene: SCENE, fileSize: 1024 } as const;

/** A filename of exactly n code points ending in ".pdf", built from `unit` (one code point). */
function nameOf(n: number, unit = 'a'): string {
  return unit.repeat(n - 4) + '.pdf';
}

function problemOf(request: CredentialsRequest): CredentialsProblem | undefined {
  const r = validateCredentialsRequest(request);
  return r.valid ? undefined : r.problem;
}

describe('scenes and limits (2.1, 2.2, 8, R13)', () => {
  it('lists DISPUTE_EVIDENCE with its types and 2 MB as 2,097,152 bytes', () => {
    expect(SCENE_NAMES).toEqual([SCENE]);
    expect(SCENES.DISPUTE_EVIDENCE.extensions).toEqual(['jpg', 'jpeg', 'png', 'pdf', 'xls', 'xlsx']);
    expect(SCENES.DISPUTE_EVIDENCE.maxFileSize).toBe(2 * 1024 * 1024);
    expect(CREDENTIALS_LIMITS).toEqual({ filename: 32, contentType: 32, scene: 50 });
    expect(Object.isFrozen(SCENES) && Object.isFrozen(SCENES.DISPUTE_EVIDENCE.extensions)).toBe(true);
  });

  it('matches scenes exactly and never through the prototype', () => {
    expect(isSceneName(SCENE)).toBe(true);
    expect(isSceneName('dispute_evidence')).toBe(false);
    expect(isSceneName('toString')).toBe(false);
    expect(isSceneName('__proto__')).toBe(false);
  });

  it.each([
    ['a.pdf', 'pdf'],
    ['scan.final.PDF', 'PDF'],
    ['.pdf', 'pdf'],
    ['a.', undefined],
    ['README', undefined],
    ['', undefined],
    ['dir.v2/file', 'v2/file'],
  ])('fileExtension(%j) is %j', (name, ext) => {
    expect(fileExtension(name)).toBe(ext);
  });

  it('counts code points, not UTF-16 units or bytes', () => {
    expect(codePointLength('😀'.repeat(32))).toBe(32);
    expect('😀'.repeat(32).length).toBe(64);
    expect(codePointLength('e\u0301')).toBe(2);
    expect(codePointLength('\uD800x')).toBe(2);
    expect(codePointLength('')).toBe(0);
  });
});

describe('validateCredentialsRequest: valid requests', () => {
  it.each<[string, CredentialsRequest]>([
    ['all four fields', good],
    ['no contentType, no fileSize', { filename: 'a.pdf', scene: SCENE }],
    ['null contentType and fileSize', { filename: 'a.pdf', contentType: null, scene: SCENE, fileSize: null }],
    ['empty contentType', { ...good, contentType: '' }],
    ['filename of 32 code points', { ...good, filename: nameOf(32) }],
    [
      'filename of 32 code points, 28 of them emoji (60 UTF-16 units, 116 bytes)',
      { ...good, filename: nameOf(32, '😀') },
    ],
    ['filename of 32 code points with combining marks', { ...good, filename: 'e\u0301'.repeat(14) + '.pdf' }],
    ['filename of 32 two-byte characters', { ...good, filename: nameOf(32, 'é') }],
    ['contentType of 32 code points', { ...good, contentType: 'x'.repeat(32) }],
    ['contentType of 32 emoji', { ...good, contentType: '😀'.repeat(32) }],
    ['a leading-dot filename', { ...good, filename: '.pdf' }],
    ['several dots', { ...good, filename: 'a.b.c.pdf' }],
    ['fileSize 0', { ...good, fileSize: 0 }],
    ['fileSize 2,000,000 (2 MB read as decimal)', { ...good, fileSize: 2_000_000 }],
    ['fileSize 2,000,001 (R13: acceptable; the reference accepts)', { ...good, fileSize: 2_000_001 }],
    ['fileSize 2,097,152 (the limit, inclusive)', { ...good, fileSize: MAX }],
    ['extra fields', { ...good, note: 'x' } as CredentialsRequest],
  ])('accepts %s', (_, request) => {
    expect(validateCredentialsRequest(request)).toEqual({ valid: true });
  });

  it.each(['jpg', 'jpeg', 'png', 'pdf', 'xls', 'xlsx'])('accepts the type %s', (ext) => {
    expect(validateCredentialsRequest({ ...good, filename: `a.${ext}` })).toEqual({ valid: true });
  });

  it.each(['PDF', 'Jpeg', 'XLSX', 'pNg'])(
    'accepts the upper-case extension %s (R13 leaves it open; the reference accepts)',
    (ext) => {
      expect(validateCredentialsRequest({ ...good, filename: `scan.${ext}` })).toEqual({ valid: true });
    },
  );
});

describe('validateCredentialsRequest: each rule', () => {
  it.each<[string, CredentialsRequest, CredentialsProblem]>([
    // filename
    ['filename absent', { scene: SCENE }, { field: 'filename', rule: 'required' }],
    ['filename null', { ...good, filename: null }, { field: 'filename', rule: 'required' }],
    ['filename ""', { ...good, filename: '' }, { field: 'filename', rule: 'required' }],
    ['filename a number', { ...good, filename: 12 }, { field: 'filename', rule: 'type' }],
    ['filename an array', { ...good, filename: ['a.pdf'] }, { field: 'filename', rule: 'type' }],
    ['filename an object', { ...good, filename: { name: 'a.pdf' } }, { field: 'filename', rule: 'type' }],
    ['filename a boolean', { ...good, filename: true }, { field: 'filename', rule: 'type' }],
    [
      'filename of 33 code points',
      { ...good, filename: nameOf(33) },
      { field: 'filename', rule: 'maxLength', limit: 32 },
    ],
    [
      'filename of 33 code points, 29 of them emoji',
      { ...good, filename: nameOf(33, '😀') },
      { field: 'filename', rule: 'maxLength', limit: 32 },
    ],
    [
      'filename of 33 two-byte characters',
      { ...good, filename: nameOf(33, 'é') },
      { field: 'filename', rule: 'maxLength', limit: 32 },
    ],
    [
      'filename of exactly 32 emoji, so past length to the type check',
      { ...good, filename: `${'😀'.repeat(30)}.😀` },
      { field: 'filename', rule: 'fileType', limit: TYPES },
    ],
    [
      'filename of 33 emoji',
      { ...good, filename: `${'😀'.repeat(31)}.😀` },
      { field: 'filename', rule: 'maxLength', limit: 32 },
    ],
    ['filename without a dot', { ...good, filename: 'evidence' }, { field: 'filename', rule: 'extension' }],
    ['filename ending in a dot', { ...good, filename: 'evidence.' }, { field: 'filename', rule: 'extension' }],
    ['filename "."', { ...good, filename: '.' }, { field: 'filename', rule: 'extension' }],
    // contentType
    ['contentType a number', { ...good, contentType: 5 }, { field: 'contentType', rule: 'type' }],
    ['contentType an object', { ...good, contentType: {} }, { field: 'contentType', rule: 'type' }],
    [
      'contentType of 33 code points',
      { ...good, contentType: 'x'.repeat(33) },
      { field: 'contentType', rule: 'maxLength', limit: 32 },
    ],
    [
      'contentType of 33 emoji',
      { ...good, contentType: '😀'.repeat(33) },
      { field: 'contentType', rule: 'maxLength', limit: 32 },
    ],
    // scene
    ['scene absent', { filename: 'a.pdf' }, { field: 'scene', rule: 'required' }],
    ['scene null', { ...good, scene: null }, { field: 'scene', rule: 'required' }],
    ['scene ""', { ...good, scene: '' }, { field: 'scene', rule: 'required' }],
    ['scene a number', { ...good, scene: 1 }, { field: 'scene', rule: 'type' }],
    ['scene of 51 code points', { ...good, scene: 'A'.repeat(51) }, { field: 'scene', rule: 'maxLength', limit: 50 }],
    ['scene of 51 emoji', { ...good, scene: '😀'.repeat(51) }, { field: 'scene', rule: 'maxLength', limit: 50 }],
    ['scene in lower case', { ...good, scene: 'dispute_evidence' }, { field: 'scene', rule: 'uppercase' }],
    ['scene in mixed case', { ...good, scene: 'Dispute_Evidence' }, { field: 'scene', rule: 'uppercase' }],
    [
      'scene of 50 code points, not listed',
      { ...good, scene: 'A'.repeat(50) },
      { field: 'scene', rule: 'allowedValue', limit: SCENE },
    ],
    [
      'scene of 50 emoji (upper case by definition)',
      { ...good, scene: '😀'.repeat(50) },
      { field: 'scene', rule: 'allowedValue', limit: SCENE },
    ],
    [
      'scene with a trailing space',
      { ...good, scene: `${SCENE} ` },
      { field: 'scene', rule: 'allowedValue', limit: SCENE },
    ],
    [
      'scene with another separator',
      { ...good, scene: 'DISPUTE-EVIDENCE' },
      { field: 'scene', rule: 'allowedValue', limit: SCENE },
    ],
    // file type
    ['a .gif', { ...good, filename: 'a.gif' }, { field: 'filename', rule: 'fileType', limit: TYPES }],
    ['a .pdf.exe', { ...good, filename: 'a.pdf.exe' }, { field: 'filename', rule: 'fileType', limit: TYPES }],
    ['a .pd', { ...good, filename: 'a.pd' }, { field: 'filename', rule: 'fileType', limit: TYPES }],
    ['a .pdfx', { ...good, filename: 'a.pdfx' }, { field: 'filename', rule: 'fileType', limit: TYPES }],
    [
      'an extension with a space',
      { ...good, filename: 'a.pdf ' },
      { field: 'filename', rule: 'fileType', limit: TYPES },
    ],
    ['a fullwidth ｐｄｆ', { ...good, filename: 'a.ｐｄｆ' }, { field: 'filename', rule: 'fileType', limit: TYPES }],
    [
      'a Kelvin-sign extension that lower-cases to ASCII',
      { ...good, filename: 'a.\u212Apg' },
      { field: 'filename', rule: 'fileType', limit: TYPES },
    ],
    // fileSize
    ['fileSize 2,097,153', { ...good, fileSize: MAX + 1 }, { field: 'fileSize', rule: 'maxSize', limit: MAX }],
    ['fileSize 3 MB', { ...good, fileSize: 3 * 1024 * 1024 }, { field: 'fileSize', rule: 'maxSize', limit: MAX }],
    ['fileSize 1e20', { ...good, fileSize: 1e20 }, { field: 'fileSize', rule: 'maxSize', limit: MAX }],
    ['fileSize -1', { ...good, fileSize: -1 }, { field: 'fileSize', rule: 'type' }],
    ['fileSize 1.5', { ...good, fileSize: 1.5 }, { field: 'fileSize', rule: 'type' }],
    ['fileSize "100"', { ...good, fileSize: '100' }, { field: 'fileSize', rule: 'type' }],
    ['fileSize NaN', { ...good, fileSize: Number.NaN }, { field: 'fileSize', rule: 'type' }],
    ['fileSize Infinity', { ...good, fileSize: Number.POSITIVE_INFINITY }, { field: 'fileSize', rule: 'type' }],
    ['fileSize a bigint', { ...good, fileSize: 10n }, { field: 'fileSize', rule: 'type' }],
  ])('refuses %s', (_, request, problem) => {
    expect(problemOf(request)).toEqual(problem);
  });
});

describe('validateCredentialsRequest: order of checks', () => {
  it.each<[string, CredentialsRequest, CredentialsProblem]>([
    [
      'filename before contentType',
      { ...good, filename: nameOf(33), contentType: 5 },
      { field: 'filename', rule: 'maxLength', limit: 32 },
    ],
    [
      'filename extension before contentType',
      { ...good, filename: 'a', contentType: 5 },
      { field: 'filename', rule: 'extension' },
    ],
    [
      'contentType before scene',
      { filename: 'a.pdf', contentType: 'x'.repeat(33), scene: 'bad' },
      { field: 'contentType', rule: 'maxLength', limit: 32 },
    ],
    ['scene before file type', { filename: 'a.gif', scene: 'bad' }, { field: 'scene', rule: 'uppercase' }],
    [
      'scene length before case',
      { filename: 'a.pdf', scene: 'a'.repeat(51) },
      { field: 'scene', rule: 'maxLength', limit: 50 },
    ],
    [
      'file type before fileSize',
      { filename: 'a.gif', scene: SCENE, fileSize: MAX + 1 },
      { field: 'filename', rule: 'fileType', limit: TYPES },
    ],
    [
      'filename required before everything',
      { contentType: 5, scene: 1, fileSize: -1 },
      { field: 'filename', rule: 'required' },
    ],
  ])('%s', (_, request, problem) => {
    expect(problemOf(request)).toEqual(problem);
  });
});

describe('validateCredentialsRequest: messages name field, rule and limit', () => {
  it.each<[CredentialsRequest, string]>([
    [{ ...good, filename: nameOf(33) }, 'filename is 33 characters long; the limit is 32 (2.1, 8)'],
    [{ ...good, scene: 'A'.repeat(51) }, 'scene is 51 characters long; the limit is 50 (2.1, 8)'],
    [{ ...good, contentType: 'x'.repeat(40) }, 'contentType is 40 characters long; the limit is 32 (2.1, 8)'],
    [{ scene: SCENE }, 'filename is required (2.1)'],
    [{ ...good, filename: 7 }, 'filename must be a string; got the number 7 (2.1)'],
    [
      { ...good, filename: 'evidence' },
      'filename "evidence" has no extension: it must end in "." and at least one character (2.1)',
    ],
    [{ ...good, scene: 'dispute_evidence' }, 'scene "dispute_evidence" is not upper case (2.1)'],
    [{ ...good, scene: 'REFUND' }, 'scene "REFUND" is not an allowed value; allowed: DISPUTE_EVIDENCE (2.1, 2.2)'],
    [
      { ...good, filename: 'a.gif' },
      `filename extension "gif" is not accepted for scene DISPUTE_EVIDENCE; accepted: ${TYPES} (2.2, 8)`,
    ],
    [
      { ...good, fileSize: MAX + 1 },
      'fileSize is 2097153 bytes; the limit for scene DISPUTE_EVIDENCE is 2097152 (2 MB read as 2,097,152 bytes) (2.2, 8, R13)',
    ],
    [{ ...good, fileSize: '1' }, 'fileSize must be a non-negative integer number of bytes; got the string "1" (2.2)'],
  ])('%j', (request, message) => {
    const r = validateCredentialsRequest(request);
    expect(r.valid).toBe(false);
    expect(!r.valid && r.message).toBe(message);
  });

  it('describes every kind of wrong value and clips long ones', () => {
    const message = (filename: unknown): string => {
      const r = validateCredentialsRequest({ filename, scene: SCENE });
      return r.valid ? '' : r.message;
    };
    expect(message([1])).toContain('got an array');
    expect(message({})).toContain('got an object');
    expect(message(false)).toContain('got a boolean');
    expect(message(1n)).toContain('got a bigint');
    const long = validateCredentialsRequest({ ...good, scene: 'a'.repeat(50) });
    expect(!long.valid && long.message).toBe(`scene "${'a'.repeat(50)}" is not upper case (2.1)`);
    const longFile = validateCredentialsRequest({ ...good, fileSize: 'y'.repeat(70) });
    expect(!longFile.valid && longFile.message).toContain(`"${'y'.repeat(60)}…"`);
  });
});
