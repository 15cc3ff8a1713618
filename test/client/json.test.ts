/**
 * The client's source-order JSON reader agrees with JSON.parse on every text (values
 * and refusals), keeps the text's key order where JSON.parse does not, and refuses a
 * key repeated in one object.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOrderedObject, parseOrderedJson, type OrderedJson } from '../../src/client/ordered-json.js';

const plain = (v: OrderedJson): unknown =>
  isOrderedObject(v) ? Object.fromEntries([...v].map(([k, x]) => [k, plain(x)])) : Array.isArray(v) ? v.map(plain) : v;
const accepts = (parse: (t: string) => unknown, text: string): boolean => {
  try {
    parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('parseOrderedJson', () => {
  it('reads every JSON text as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'medium' }), fc.constantFrom('', ' ', '\n\t '), (text, space) => {
        expect(plain(parseOrderedJson(`${space}${text}${space}`))).toEqual(JSON.parse(text));
      }),
    );
  });

  it('refuses exactly what JSON.parse refuses (texts without repeated keys)', () => {
    const pieces = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"',
      '\\',
      'a',
      '"a"',
      '1',
      '-',
      '.',
      'e',
      '0',
      'true',
      'nul',
      'null',
      ' ',
      '\n',
      '\u0001',
      'é',
      '\\u00',
      '\\u00e9',
      '+1',
      '01',
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 12 }).map((a) => a.join('')),
        (text) => {
          const duplicate = /"a"\s*:.*"a"\s*:/.test(text);
          fc.pre(!duplicate);
          expect(accepts(parseOrderedJson, text)).toBe(accepts(JSON.parse, text));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('keeps the text order of every key, integer-like ones included', () => {
    const v = parseOrderedJson('{"b":1,"10":2,"a":{"2":3,"1":4},"0":5}');
    expect(isOrderedObject(v) && [...v.keys()]).toEqual(['b', '10', 'a', '0']);
    const inner = isOrderedObject(v) ? v.get('a') : undefined;
    expect(isOrderedObject(inner) && [...inner.keys()]).toEqual(['2', '1']);
  });

  it.each([
    ['{"a":1,"a":2}', /key "a" appears twice in one object at offset 7/],
    ['{"x":{"k":"1","k":"1"}}', /key "k" appears twice/],
    ['[1,]', /unexpected "]" at offset 3/],
    ['"\\x"', /malformed string at offset 0/],
    ['1 2', /text after the value at offset 2/],
    ['['.repeat(300) + ']'.repeat(300), /nesting deeper than 256/],
  ])('refuses %s', (text, message) => {
    expect(() => parseOrderedJson(text)).toThrow(SyntaxError);
    expect(() => parseOrderedJson(text)).toThrow(message);
  });
});
