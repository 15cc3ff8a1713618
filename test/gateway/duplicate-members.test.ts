/**
 * duplicateMember: the first member name that appears twice in one object, with the pointer of
 * that object — held against objects JSON.parse reads (where it keeps the last value, the case
 * the gateway refuses), and never confused by names in other objects, in arrays or in strings.
 */
import { describe, expect, it } from 'vitest';
import { duplicateMember } from '../../src/gateway/_duplicate-members.js';

describe('duplicateMember', () => {
  it.each([
    ['{"amount":"1.00","amount":"999999.00"}', { name: 'amount', pointer: '' }],
    ['{"a":{"b":1,"c":{"d":1,"d":2}}}', { name: 'd', pointer: '/a/c' }],
    ['{"x":[{"k":1},{"k":1,"k":2}]}', { name: 'k', pointer: '/x/1' }],
    ['{"\\u0061":1,"a":2}', { name: 'a', pointer: '' }],
    ['{"a/b~":{"z":1,"z":1}}', { name: 'z', pointer: '/a~1b~0' }],
  ])('%s → %j', (text, found) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(duplicateMember(text)).toEqual(found);
  });

  it.each([
    '{"a":1,"b":{"a":1}}',
    '[{"a":1},{"a":2}]',
    '{"a":"{\\"a\\":1,\\"a\\":2}","b":"\\"a\\""}',
    '{"a":[1,"a",{"b":1}],"b":2}',
    '"just a string"',
    '{}',
  ])('%s: no duplicate', (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(duplicateMember(text)).toBeUndefined();
  });
});
