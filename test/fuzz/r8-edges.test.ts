/**
 * The edges of the R8 answers where they meet their users: a finding saved as a vector
 * (result, flags and expectation from every allowed answer), the HTTP fuzzer's expectation of a
 * genuinely signed request, the parse diagnosis, values shown in messages, a certification call
 * without a payment parameter.
 */
import { describe, expect, it } from 'vitest';
import { readingsExpectation } from '../../src/roles/merchant/as-gateway/expectation.js';
import { diagnoseAuthorization } from '../../src/diagnosis/authorization.js';
import { httpExpectation } from '../../src/fuzz/http.js';
import { oracle } from '../../src/fuzz/oracle.js';
import type { FuzzFinding } from '../../src/fuzz/run.js';
import { findingCase } from '../../src/fuzz/save.js';
import { showItems } from '../../src/scheme/header-answers.js';
import type { AuthorizationCase } from '../../src/vectors/types.js';

const S = '0123456789abcdef'.repeat(4);
const items = { appId: 'app_1', sign: S, timestamp: '1700000000000', nonce: 'n1' };
const finding = (header: string): FuzzFinding => ({
  header,
  reason: 'r',
  oracle: oracle(header),
  seed: 1,
  path: '0',
  replay: '1:0',
  shrinks: 0,
});

describe('a finding saved as a vector', () => {
  it.each([
    [
      'must-accept',
      `V2_SHA256 appId=app_1,sign=${S},timestamp=1,nonce=n`,
      'valid',
      ['FuzzFinding'],
      { items: { appId: 'app_1', sign: S, timestamp: '1', nonce: 'n' } },
    ],
    [
      'must-refuse',
      `V2_SHA256 appId=app_1,sign=${S},timestamp=1`,
      'invalid',
      ['FuzzFinding', 'MissingItem'],
      { problem: { kind: 'missing-item', item: 'nonce' } },
    ],
    [
      'either, white space',
      `V2_SHA256 appId= app_1,sign=${S},timestamp=1,nonce=n`,
      'acceptable',
      ['FuzzFinding', 'HeaderWhitespace'],
      {
        answers: [
          { appId: ' app_1', sign: S, timestamp: '1', nonce: 'n' },
          { appId: 'app_1', sign: S, timestamp: '1', nonce: 'n' },
        ],
      },
    ],
    [
      'either, unknown item and scheme case',
      `v2_sha256 appId=app_1,sign=${S},timestamp=1,nonce=n,v=2`,
      'acceptable',
      ['FuzzFinding', 'HeaderExtraItem', 'SchemeCase'],
      { answers: [{ appId: 'app_1', sign: S, timestamp: '1', nonce: 'n' }] },
    ],
  ])('%s', (_name, header, result, flags, expected) => {
    const c = findingCase(finding(header), 'authorization.fuzz-9', new Date('2026-01-01T00:00:00Z'));
    expect(c).toMatchObject({ result, flags, inputs: { header } });
    expect(c['expected']).toEqual(expected);
  });
});

describe('an HTTP finding saved as a vector', () => {
  it('is the value the endpoint received: without the SP/HTAB around it (RFC 9110 §5.5), judged as the oracle judged it', () => {
    const sent = ` V2_SHA256 appId=app_1,sign=${S},timestamp=1,nonce=n\t`;
    const received = sent.trim();
    const c = findingCase(
      { ...finding(received), header: sent, received },
      'authorization.fuzz-10',
      new Date('2026-01-01T00:00:00Z'),
    );
    expect(c).toMatchObject({ result: 'valid', inputs: { header: received } });
  });
});

describe('the HTTP fuzzer: what a genuinely signed request with this header must get', () => {
  it.each([
    ['the header as signed', `V2_SHA256 appId=app_1,sign=${S},timestamp=1700000000000,nonce=n1`, 'accept'],
    [
      'white space a trimming endpoint removes',
      `V2_SHA256 appId=app_1,sign=${S},timestamp=1700000000000,nonce=\u00a0n1`,
      'either',
    ],
    [
      'the sign in upper-case hex (R7)',
      `V2_SHA256 appId=app_1,sign=${S.toUpperCase()},timestamp=1700000000000,nonce=n1`,
      'either',
    ],
    ['another nonce than was signed', `V2_SHA256 appId=app_1,sign=${S},timestamp=1700000000000,nonce=n2`, 'refuse'],
    ['a header R8 refuses', `V2_SHA256 appId=app_1,sign=${S},timestamp=1700000000000`, 'refuse'],
  ])('%s', (_name, header, want) => {
    expect(httpExpectation(header, items)).toBe(want);
  });
});

describe('messages and diagnoses', () => {
  it('shows values escaped, clipped, and missing or not text', () => {
    expect(showItems({ appId: 'a\u3000', sign: 'x'.repeat(80), timestamp: 7 })).toBe(
      `appId="a\\u3000", sign="${'x'.repeat(70)}\\u2026", timestamp=7, nonce=(missing)`,
    );
    expect(showItems(undefined)).toBe('appId=(missing), sign=(missing), timestamp=(missing), nonce=(missing)');
  });

  it('names the item a parser had to refuse for, read with white space kept or trimmed', () => {
    const c = {
      id: 'authorization.x',
      kind: 'authorization',
      op: 'authorization.parse',
      spec: ['5.3'],
      readings: ['R8'],
      flags: [],
      result: 'acceptable',
      inputs: { header: `V2_SHA256 appId=a,sign=${S},timestamp=1,nonce =n` },
      expected: { answers: [{ appId: 'a', sign: S, timestamp: '1', nonce: 'n' }] },
    } as unknown as AuthorizationCase;
    const got = { result: { appId: 'a', sign: S, timestamp: '1', nonce: '' } };
    expect(
      diagnoseAuthorization(c, { op: 'authorization.parse', status: 'fail', expected: null, got, message: '' }).map(
        (d) => d.mistake,
      ),
    ).toEqual(['accepts-missing-item']);
    const noScheme = { ...c, inputs: { header: 'garbage' } } as AuthorizationCase;
    expect(
      diagnoseAuthorization(noScheme, {
        op: 'authorization.parse',
        status: 'fail',
        expected: null,
        got,
        message: '',
      }).map((d) => d.mistake),
    ).toEqual(['accepts-wrong-scheme']);
  });

  it('names the duplicate a folding parser had to refuse (R8 (e)) when it kept one copy', () => {
    const header = `V2_SHA256 appid=evil,appId=a,sign=${S},timestamp=1,nonce=n`;
    const c = {
      id: 'authorization.x',
      kind: 'authorization',
      op: 'authorization.parse',
      spec: ['5.3'],
      readings: ['R8'],
      flags: [],
      result: 'acceptable',
      inputs: { header },
      expected: { answers: [{ appId: 'a', sign: S, timestamp: '1', nonce: 'n' }] },
    } as unknown as AuthorizationCase;
    const got = { result: { appId: 'evil', sign: S, timestamp: '1', nonce: 'n' } };
    expect(
      diagnoseAuthorization(c, { op: 'authorization.parse', status: 'fail', expected: null, got, message: '' }).map(
        (d) => d.mistake,
      ),
    ).toEqual(['accepts-duplicate-item']);
  });

  it('a return redirect without its payment parameter must be refused', () => {
    const options = {
      appId: 'app_1',
      appSecret: 'sk_test_x',
      notifyUrl: 'https://m.example/n',
      returnUrl: 'https://m.example/r',
    };
    expect(
      readingsExpectation(
        {
          method: 'GET',
          url: `https://m.example/r?authorization=${encodeURIComponent(`V2_SHA256 appId=app_1,sign=${S},timestamp=1,nonce=n`)}`,
          headers: [],
        },
        options,
      ),
    ).toBe('refuse');
    expect(readingsExpectation({ method: 'POST', url: 'https://m.example/n', headers: [] }, options)).toBe('refuse');
  });
});
