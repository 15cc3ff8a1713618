/**
 * Header parsers that accept a good header but answer wrong values (§5.3, R8): the
 * answer is compared with what a parser that reads by position (the spec's order
 * assumed) and one that takes each value after the last "=" return for the header.
 */
import { describe, expect, it } from 'vitest';
import { itemsByPosition, itemsSplitAtLastEquals } from '../../src/diagnosis/authorization.js';
import { diagnose } from '../../src/roles/run-case.js';
import type { AuthorizationCase, ItemsField } from '../../src/vectors/types.js';
import { BASE, failed } from './_support.js';

function parseCase(header: string, items: ItemsField, result: 'valid' | 'acceptable' = 'valid'): AuthorizationCase {
  return {
    ...BASE,
    id: 'authorization.t',
    kind: 'authorization',
    op: 'authorization.parse',
    result,
    inputs: { header },
    expected: { items },
  };
}

const answered = (items: { [key: string]: string }) => failed('authorization.parse', { result: items });

describe('the wrong parsers, read from a header', () => {
  it('by position: the first four values as appId, sign, timestamp, nonce', () => {
    expect(itemsByPosition('V2_SHA256 nonce=n1, appId=a1,sign=s1,timestamp=t1')).toEqual({
      appId: 'n1',
      sign: 'a1',
      timestamp: 's1',
      nonce: 't1',
    });
    expect(itemsByPosition('V2_SHA256 appId=a1,x=y=z,sign=s1,timestamp=t1,nonce=n1')).toEqual({
      appId: 'a1',
      sign: 'y=z',
      timestamp: 's1',
      nonce: 't1',
    });
    expect(itemsByPosition('V2_SHA256 appId=a1,sign=s1,timestamp=t1')).toBeUndefined();
  });

  it('after the last "=": the name still ends at the first', () => {
    expect(itemsSplitAtLastEquals('V2_SHA256 appId=a1,sign=s1,timestamp=t1,nonce=Zm9v=YmFy')).toEqual({
      appId: 'a1',
      sign: 's1',
      timestamp: 't1',
      nonce: 'YmFy',
    });
    expect(itemsSplitAtLastEquals('V2_SHA256 appId=a1,sign=s1,timestamp=t1')).toBeUndefined();
    expect(itemsSplitAtLastEquals('V2_SHA256 appId=a1,sign=s1,timestamp=t1,nonce')).toBeUndefined();
  });
});

describe('authorization.parse answering wrong values', () => {
  it('values by position: items-by-position', async () => {
    const c = parseCase('V2_SHA256 nonce=n1,appId=a1,sign=s1,timestamp=t1', {
      appId: 'a1',
      sign: 's1',
      timestamp: 't1',
      nonce: 'n1',
    });
    expect(await diagnose(c, answered({ appId: 'n1', sign: 'a1', timestamp: 's1', nonce: 't1' }))).toEqual([
      {
        mistake: 'items-by-position',
        message:
          "your items equal the items of a parser in which the values are read by position, the spec's order (appId, sign, timestamp, nonce) assumed, not by name",
        ref: '§5.3, R8',
      },
    ]);
  });

  it('a value cut after its last "=": value-split-at-last-equals (acceptable cases too)', async () => {
    const c = parseCase(
      'V2_SHA256  appId=a1,sign=s1,timestamp=t1,nonce=Zm9v=YmFy',
      { appId: 'a1', sign: 's1', timestamp: 't1', nonce: 'Zm9v=YmFy' },
      'acceptable',
    );
    expect(await diagnose(c, answered({ appId: 'a1', sign: 's1', timestamp: 't1', nonce: 'YmFy' }))).toEqual([
      {
        mistake: 'value-split-at-last-equals',
        message:
          'your items equal the items of a parser in which each value starts after the last "=" of its item, not the first',
        ref: 'R8',
      },
    ]);
  });

  it('other wrong values: no diagnosis', async () => {
    const c = parseCase('V2_SHA256 nonce=n1,appId=a1,sign=s1,timestamp=t1', {
      appId: 'a1',
      sign: 's1',
      timestamp: 't1',
      nonce: 'n1',
    });
    expect(await diagnose(c, answered({ appId: 'a1', sign: 's1', timestamp: 't1', nonce: 'n2' }))).toEqual([]);
  });

  it('a header in the spec order read by position gives the right values: nothing to name', async () => {
    const c = parseCase('V2_SHA256 appId=a1,sign=s1,timestamp=t1,nonce=n1', {
      appId: 'a1',
      sign: 's1',
      timestamp: 't1',
      nonce: 'n1',
    });
    expect(await diagnose(c, answered({ appId: 'a1', sign: 's1', timestamp: 't1', nonce: 'n1' }))).toEqual([]);
  });

  it('a refusal is one bit: not diagnosed', async () => {
    const c = parseCase('V2_SHA256 nonce=n1,appId=a1,sign=s1,timestamp=t1', {
      appId: 'a1',
      sign: 's1',
      timestamp: 't1',
      nonce: 'n1',
    });
    expect(await diagnose(c, failed('authorization.parse', { rejected: { reason: 'no' } }))).toEqual([]);
  });
});

describe('authorization.parse accepting a header R8 refuses', () => {
  const invalid = (problem?: { kind: string }): AuthorizationCase => ({
    ...BASE,
    id: 'authorization.t',
    kind: 'authorization',
    op: 'authorization.parse',
    result: 'invalid',
    inputs: { header: 'V2_SHA256 appId=a1,appId=a1,sign=s1,timestamp=t1,nonce=n1' },
    expected: problem ? { problem } : {},
  });

  it('names the refusal', async () => {
    expect(
      await diagnose(
        invalid({ kind: 'duplicate-item' }),
        answered({ appId: 'a1', sign: 's1', timestamp: 't1', nonce: 'n1' }),
      ),
    ).toEqual([
      {
        mistake: 'accepts-duplicate-item',
        message: 'you accept a header with a duplicated item (R8)',
        ref: '§5.3, R8',
      },
    ]);
  });

  it('without a problem kind, the refusal in general', async () => {
    expect(await diagnose(invalid(), answered({}))).toEqual([
      { mistake: 'accepts-refuse', message: 'you accept what must be refused (refuse)', ref: '§5.3, R8' },
    ]);
  });

  it('format cases are not diagnosed', async () => {
    const c: AuthorizationCase = {
      ...BASE,
      id: 'authorization.f',
      kind: 'authorization',
      op: 'authorization.format',
      result: 'valid',
      inputs: { items: { appId: 'a', sign: 's', timestamp: 't', nonce: 'n' } },
      expected: { header: 'V2_SHA256 appId=a,sign=s,timestamp=t,nonce=n' },
    };
    expect(await diagnose(c, failed('authorization.format', { result: { header: 'x' } }))).toEqual([]);
  });
});
