/**
 * The Authorization header's items (spec §5.3, reading R8), as properties of the
 * subject's authorization.parse and authorization.format: any order of the four items
 * gives the same values; format then parse is the identity; a duplicated or missing
 * item is refused. Headers are written here, not by src/scheme.
 *
 * Replay a failure (fast-check prints seed and path):
 *   FC_SEED=<seed> FC_PATH=<path> npx vitest run suites/properties/header-order.test.ts -t '<words of the property name>'
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ITEM_NAMES, itemOrderArb, itemsArb, type Items } from '../_support/arbitraries.js';
import { loadSubject } from '../_support/subject.js';
import { header, headerOf, offers, parseHeader, stringResult } from './_helpers.js';

const subject = await loadSubject();

describe('Authorization items (5.3, R8)', () => {
  it.skipIf(!offers(subject, 'authorization.parse'))('every order of the four items parses to the same values', async () => {
    await fc.assert(
      fc.asyncProperty(itemsArb, itemOrderArb, async (items, order) => {
        const text = header(items, order);
        expect(await parseHeader(subject, text, 'property.header-order.any-order'), text).toEqual(items);
      }),
    );
  });

  it.skipIf(!offers(subject, 'authorization.format', 'authorization.parse'))('format then parse is the identity', async () => {
    await fc.assert(
      fc.asyncProperty(itemsArb, async (items) => {
        const text = await stringResult(subject, 'authorization.format', { ...items }, 'header', 'property.header-order.format-parse');
        expect(readStrictly(text), `formatted header ${JSON.stringify(text)} read by the test`).toEqual(items);
        expect(await parseHeader(subject, text, 'property.header-order.format-parse'), text).toEqual(items);
      }),
    );
  });

  it.skipIf(!offers(subject, 'authorization.parse'))('a header with one item duplicated is refused (any item, any position, same or other value)', async () => {
    await fc.assert(
      fc.asyncProperty(
        itemsArb,
        itemOrderArb,
        fc.constantFrom(...ITEM_NAMES),
        fc.oneof(fc.constant(undefined), itemsArb),
        fc.nat(),
        async (items, order, name, others, at) => {
          const pairs: (readonly [string, string])[] = order.map((n) => [n, items[n]] as const);
          pairs.splice(at % (pairs.length + 1), 0, [name, others ? others[name] : items[name]]);
          const text = headerOf(pairs);
          expect(await parseHeader(subject, text, 'property.header-order.duplicate'), `accepted ${text}`).toBeUndefined();
        },
      ),
    );
  });

  it.skipIf(!offers(subject, 'authorization.parse'))('a header with one item missing is refused', async () => {
    await fc.assert(
      fc.asyncProperty(itemsArb, itemOrderArb, fc.constantFrom(...ITEM_NAMES), async (items, order, missing) => {
        const text = headerOf(order.filter((n) => n !== missing).map((n) => [n, items[n]] as const));
        expect(await parseHeader(subject, text, 'property.header-order.missing'), `accepted ${text}`).toBeUndefined();
      }),
    );
  });
});

// --- internal ---

/**
 * The test's own strict reading of a formatted header (5.3): `V2_SHA256`, one space,
 * four comma-separated items, each name=value split at the first "=", each item once.
 * @returns the items, or a string saying what is wrong (so toEqual shows it)
 */
function readStrictly(text: string): Items | string {
  if (!text.startsWith('V2_SHA256 ')) return 'does not start with "V2_SHA256 "';
  const found = new Map<string, string>();
  for (const item of text.slice('V2_SHA256 '.length).split(',')) {
    const eq = item.indexOf('=');
    if (eq <= 0) return `item ${JSON.stringify(item)} is not name=value`;
    const name = item.slice(0, eq);
    if (found.has(name)) return `item ${name} appears twice`;
    found.set(name, item.slice(eq + 1));
  }
  if (found.size !== 4 || !ITEM_NAMES.every((n) => found.has(n))) return `items are ${[...found.keys()].join(', ')}`;
  return { appId: found.get('appId') ?? '', sign: found.get('sign') ?? '', timestamp: found.get('timestamp') ?? '', nonce: found.get('nonce') ?? '' };
}
