import { describe, expect, it } from 'vitest';
import {
  describeHeaderProblem,
  formatAuthorization,
  isItemName,
  parseAuthorization,
  type HeaderProblem,
} from '../../src/scheme/authorization.js';

const items = { appId: 'app_1', sign: 'ab'.repeat(32), timestamp: '1717171717000', nonce: 'n==' };
const good = `V2_SHA256 appId=app_1,sign=${'ab'.repeat(32)},timestamp=1717171717000,nonce=n==`;

describe('parseAuthorization (5.3, R8)', () => {
  it('splits values at the first "=" and tolerates nothing when nothing deviates', () => {
    expect(parseAuthorization(good)).toEqual({ ok: true, items, tolerated: [], extra: {} });
  });

  it.each([
    ['', { kind: 'empty-header' }],
    ['   ', { kind: 'empty-header' }],
    ['Bearer abc', { kind: 'wrong-scheme', scheme: 'Bearer' }],
    ['V2_SHA256', { kind: 'no-items' }],
    ['V2_SHA256 appId=a,,sign=b', { kind: 'malformed-item', item: '' }],
    ['V2_SHA256 appId', { kind: 'malformed-item', item: 'appId' }],
    ['V2_SHA256 appId=,sign=b', { kind: 'empty-value', item: 'appId' }],
    ['V2_SHA256 appId=a,appId=a,sign=b,timestamp=1,nonce=n', { kind: 'duplicate-item', item: 'appId' }],
    ['V2_SHA256 appId=a,sign=b,timestamp=1', { kind: 'missing-item', item: 'nonce' }],
  ] as Array<[string, HeaderProblem]>)('refuses %j', (header, problem) => {
    const r = parseAuthorization(header);
    expect(r).toEqual({ ok: false, problem, message: describeHeaderProblem(problem) });
  });

  it('tolerates white space, extra items and scheme case, and says so; strict refuses them', () => {
    const r = parseAuthorization(` v2_sha256\tappId=app_1 , sign=${items.sign},timestamp=1717171717000,nonce=n==,v=2 `);
    expect(r).toEqual({ ok: true, items, tolerated: ['whitespace', 'scheme-case', 'extra-item'], extra: { v: '2' } });
    expect(parseAuthorization(`${good},v=2`, { strict: true })).toMatchObject({
      ok: false,
      problem: { kind: 'not-strict', tolerance: 'extra-item' },
    });
  });

  it('names the problem in its message', () => {
    expect(describeHeaderProblem({ kind: 'missing-item', item: 'nonce' })).toBe('item nonce is missing');
    expect(describeHeaderProblem({ kind: 'duplicate-item', item: 'sign' })).toBe('item sign appears more than once');
    expect(describeHeaderProblem({ kind: 'wrong-scheme', scheme: 'V1_SHA256' })).toBe(
      'scheme "V1_SHA256" is not V2_SHA256',
    );
    expect(describeHeaderProblem({ kind: 'wrong-scheme', scheme: 'x'.repeat(50) })).toBe(
      `scheme "${'x'.repeat(40)}…" is not V2_SHA256`,
    );
    expect(describeHeaderProblem({ kind: 'empty-value', item: 'nonce' })).toBe('item nonce has an empty value');
    expect(describeHeaderProblem({ kind: 'malformed-item', item: 'x' })).toBe('item "x" is not name=value');
    expect(describeHeaderProblem({ kind: 'no-items' })).toBe('no items follow V2_SHA256');
    expect(describeHeaderProblem({ kind: 'empty-header' })).toBe('the Authorization header is empty');
    expect(describeHeaderProblem({ kind: 'not-strict', tolerance: 'whitespace' })).toBe(
      'strict parsing refuses whitespace (R8 leaves it open)',
    );
  });
});

describe('parseAuthorization with the R8 (d), (e) choices', () => {
  const S = 'ab'.repeat(32);
  const items = { appId: 'a', sign: S, timestamp: '1', nonce: 'n' };
  it.each([
    [
      'a trailing comma',
      `V2_SHA256 appId=a,sign=${S},timestamp=1,nonce=n,`,
      { ignoreEmpty: true },
      items,
      ['empty-element'],
    ],
    [
      'two commas and one first',
      `V2_SHA256 ,appId=a,,sign=${S},timestamp=1,nonce=n`,
      { ignoreEmpty: true },
      items,
      ['empty-element'],
    ],
    [
      'an element of one space, trimmed first',
      `V2_SHA256 appId=a, ,sign=${S},timestamp=1,nonce=n`,
      { ignoreEmpty: true },
      items,
      ['whitespace', 'empty-element'],
    ],
    ['AppId and NONCE', `V2_SHA256 AppId=a,sign=${S},timestamp=1,NONCE=n`, { foldNames: true }, items, ['name-case']],
  ])('%s', (_name, header, options, want, tolerated) => {
    const r = parseAuthorization(header, options);
    expect(r).toMatchObject({ ok: true, items: want });
    expect(r.ok && [...r.tolerated].sort()).toEqual([...tolerated].sort());
    expect(parseAuthorization(header).ok).toBe(false); // the defaults refuse it
    expect(parseAuthorization(header, { ...options, strict: true })).toMatchObject({
      ok: false,
      problem: { kind: 'not-strict' },
    });
  });

  it.each([
    [
      'a duplicate that folding makes',
      `V2_SHA256 appid=x,appId=a,sign=${S},timestamp=1,nonce=n`,
      { kind: 'duplicate-item', item: 'appId' },
    ],
    [
      'an element of text without "=" is not empty',
      `V2_SHA256 appId=a,x,sign=${S},timestamp=1,nonce=n`,
      { kind: 'malformed-item', item: 'x' },
    ],
    [
      'app_id folds to nothing',
      `V2_SHA256 app_id=a,sign=${S},timestamp=1,nonce=n`,
      { kind: 'missing-item', item: 'appId' },
    ],
  ])('still refuses %s', (_name, header, problem) => {
    expect(parseAuthorization(header, { ignoreEmpty: true, foldNames: true })).toMatchObject({ ok: false, problem });
  });
});

describe('formatAuthorization (5.3)', () => {
  it('writes the spec order by default, or the order given', () => {
    expect(formatAuthorization(items)).toBe(good);
    expect(formatAuthorization(items, ['nonce', 'timestamp', 'sign', 'appId'])).toBe(
      `V2_SHA256 nonce=n==,timestamp=1717171717000,sign=${items.sign},appId=app_1`,
    );
  });
  it('refuses values it could not parse back, and bad orders', () => {
    expect(() => formatAuthorization({ ...items, nonce: 'a,b' })).toThrow(RangeError);
    expect(() => formatAuthorization({ ...items, appId: '' })).toThrow(/appId must be a non-empty string/);
    expect(() => formatAuthorization(items, ['appId', 'appId', 'sign', 'nonce'])).toThrow(/order must name each/);
  });
  it('knows the item names, case-sensitively', () => {
    expect(isItemName('appId')).toBe(true);
    expect(isItemName('AppId')).toBe(false);
  });
});
