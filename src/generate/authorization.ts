/**
 * Random authorization.parse cases: valid headers in every order, and headers R8 refuses for one problem each.
 * @module
 */
import {
  ITEM_NAMES,
  formatAuthorization,
  parseAuthorization,
  type AuthorizationItems,
  type ItemName,
} from '../scheme/authorization.js';
import { headerAnswers } from '../scheme/header-answers.js';
import type { AuthorizationCase, Provenance } from '../vectors/types.js';
import { B64, GENERATED_FLAG, GenerateCheckError, HEX, IdAllocator, chars, handHeader, pick, uuid } from './_common.js';

function randomItems(rnd: () => number): AuthorizationItems {
  return {
    appId: `app_${chars(rnd, HEX, 6)}`,
    sign: chars(rnd, HEX, 64),
    timestamp: String(1_600_000_000_000 + Math.floor(rnd() * 300_000_000_000)),
    nonce: pick(rnd, [chars(rnd, HEX, 32), uuid(rnd), `${chars(rnd, B64, 22)}==`]),
  };
}

function shuffle<T>(rnd: () => number, xs: readonly T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/**
 * A random authorization.parse case: a valid header in some order, or one R8 refuses for one problem.
 * @param rnd - the seeded random numbers
 * @param ids - gives the id
 * @param provenance - where the case came from
 * @returns the case
 */
export function randomAuthorizationCase(
  rnd: () => number,
  ids: IdAllocator,
  provenance: Provenance,
): Omit<AuthorizationCase, 'kind'> {
  const items = randomItems(rnd);
  const r = rnd();
  const equalsFlag = items.nonce.includes('=') ? ['EqualsInValue'] : [];
  const base = { spec: ['5.3'], readings: ['R8'], provenance };
  if (r < 0.2) {
    const header = formatAuthorization(items);
    const mine = handHeader(
      'V2_SHA256',
      ITEM_NAMES.map((n) => [n, items[n]] as const),
    );
    if (header !== mine)
      throw new GenerateCheckError(`formatAuthorization gave ${header}, the independent header is ${mine}`);
    return {
      id: ids.next(),
      comment: 'Generated: the four items formatted in the order of the spec example (5.3).',
      op: 'authorization.format',
      ...base,
      flags: [GENERATED_FLAG, ...equalsFlag],
      result: 'valid',
      inputs: { items },
      expected: { header },
    } as Omit<AuthorizationCase, 'kind'>;
  }
  if (r < 0.65) {
    const order = shuffle(rnd, ITEM_NAMES);
    const header = handHeader(
      'V2_SHA256',
      order.map((n) => [n, items[n]] as const),
    );
    const answers = headerAnswers(header);
    if (
      answers.refusable ||
      answers.accepted.length !== 1 ||
      ITEM_NAMES.some((n) => answers.accepted[0]?.[n] !== items[n])
    )
      throw new GenerateCheckError(`R8 does not require every parser to return the items of ${header}`);
    const inSpecOrder = order.every((n, i) => n === ITEM_NAMES[i]);
    return {
      id: ids.next(),
      comment:
        `Generated: the four items in the order ${order.join(', ')}; ` + 'the parser returns each value verbatim (R8).',
      op: 'authorization.parse',
      ...base,
      flags: [GENERATED_FLAG, ...(inSpecOrder ? [] : ['HeaderOrder']), ...equalsFlag],
      result: 'valid',
      inputs: { header },
      expected: { items: { appId: items.appId, sign: items.sign, timestamp: items.timestamp, nonce: items.nonce } },
    } as Omit<AuthorizationCase, 'kind'>;
  }
  // One defect: an item missing, an item twice, or another scheme.
  const defect = pick(rnd, ['missing', 'duplicate', 'scheme'] as const);
  const order = shuffle(rnd, ITEM_NAMES);
  const target: ItemName = pick(rnd, ITEM_NAMES);
  let pairs: Array<readonly [string, string]> = order.map((n) => [n, items[n]] as const);
  let scheme = 'V2_SHA256';
  let intended: { kind: string; item?: string; scheme?: string };
  let flag: string;
  if (defect === 'missing') {
    pairs = pairs.filter(([n]) => n !== target);
    intended = { kind: 'missing-item', item: target };
    flag = 'MissingItem';
  } else if (defect === 'duplicate') {
    const other = randomItems(rnd)[target];
    pairs.splice(Math.floor(rnd() * (pairs.length + 1)), 0, [target, other]);
    intended = { kind: 'duplicate-item', item: target };
    flag = 'DuplicateItem';
  } else {
    scheme = pick(rnd, ['V1_SHA256', 'V2_SHA1', 'Bearer', 'V2-SHA256', 'HMAC_SHA256']);
    intended = { kind: 'wrong-scheme', scheme };
    flag = 'WrongScheme';
  }
  const header = handHeader(scheme, pairs);
  const parsed = parseAuthorization(header);
  if (
    parsed.ok ||
    JSON.stringify(parsed.problem) !== JSON.stringify(intended) ||
    headerAnswers(header).accepted.length > 0
  ) {
    throw new GenerateCheckError(
      `the reference parser's answer to a header with one defect (${intended.kind}) is not that defect`,
    );
  }
  return {
    id: ids.next(),
    comment:
      `Generated: a header with one defect (${intended.kind}${intended.item ? ` ${intended.item}` : ''}); ` +
      'it must be refused (5.3).',
    op: 'authorization.parse',
    ...base,
    flags: [GENERATED_FLAG, flag],
    result: 'invalid',
    inputs: { header },
    expected: { problem: intended },
  } as Omit<AuthorizationCase, 'kind'>;
}
