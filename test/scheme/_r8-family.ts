/**
 * An independent model of reading R8's parser family, for tests: one configurable parser,
 * written the way SDKs write them (trim the header, split off the scheme word, split at
 * commas, trim each item, skip empty ones or not, split at the first "=", trim around it,
 * match names exactly or by a case fold), and every combination of
 * its configuration enumerated. It shares no code with src/scheme/header-answers.ts.
 */

/** The trim sets R8 names, each written out by hand. */
export const FAMILY_SETS: Record<string, (ch: string) => boolean> = {
  ows: (ch) => ch === ' ' || ch === '\t',
  ascii: (ch) => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\v' || ch === '\f' || ch === '\r',
  js: (ch) => ch.trim() === '' && ch.length === 1,
  python: (ch) =>
    '\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000'.includes(ch) ||
    (ch >= '\u2000' && ch <= '\u200a'),
  unicode: (ch) =>
    '\t\n\v\f\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000'.includes(ch) || (ch >= '\u2000' && ch <= '\u200a'),
  java: (ch) => ch.length === 1 && ch.charCodeAt(0) <= 32,
};

/**
 * The name comparisons of R8 (e), each written out by hand as the non-ASCII characters it
 * folds to ASCII letters (every other character compares as itself; ASCII letters without case).
 */
export const FAMILY_FOLDS: Record<string, Record<string, string>> = {
  ascii: {},
  upper: {
    '\u017f': 's',
    '\u0131': 'i',
    '\u00df': 'ss',
    '\ufb00': 'ff',
    '\ufb01': 'fi',
    '\ufb02': 'fl',
    '\ufb03': 'ffi',
    '\ufb04': 'ffl',
    '\ufb05': 'st',
    '\ufb06': 'st',
  },
  lower: { '\u212a': 'k' },
  java: { '\u017f': 's', '\u0131': 'i', '\u0130': 'i', '\u212a': 'k' },
  go: { '\u017f': 's', '\u212a': 'k' },
  casefold: {
    '\u017f': 's',
    '\u00df': 'ss',
    '\u212a': 'k',
    '\ufb00': 'ff',
    '\ufb01': 'fi',
    '\ufb02': 'fl',
    '\ufb03': 'ffi',
    '\ufb04': 'ffl',
    '\ufb05': 'st',
    '\ufb06': 'st',
  },
};

type Fold = undefined | Record<string, string>;

function folded(name: string, fold: Record<string, string>): string {
  let names = foldedNames.get(fold);
  if (!names) foldedNames.set(fold, (names = new Map()));
  const known = names.get(name);
  if (known !== undefined) return known;
  const out = name
    .split('')
    .map((ch) => fold[ch] ?? ch)
    .join('')
    .replace(/[A-Z]/g, (c) => c.toLowerCase());
  names.set(name, out);
  return out;
}
/** Each fold's folded names, as computed: familyAnswers asks for the same few names millions of times. */
const foldedNames = new WeakMap<Record<string, string>, Map<string, string>>();

type Trim = undefined | ((ch: string) => boolean);

export interface FamilyConfig {
  readonly header: Trim; // both ends of the whole header
  readonly schemeSplit: Trim; // undefined: at the first SP, one SP consumed (strict)
  readonly schemeRun: boolean; // with schemeSplit: the whole run of white space consumed
  readonly itemStart: Trim;
  readonly itemEnd: Trim;
  readonly beforeEq: Trim;
  readonly afterEq: Trim;
  readonly ignoreUnknown: boolean;
  readonly schemeAnyCase: boolean;
  readonly dropEmpty: boolean; // empty elements (after the item trims) skipped
  readonly nameFold: Fold; // undefined: names compared exactly
}

export type FamilyAnswer = { refused: true } | { items: Record<'appId' | 'sign' | 'timestamp' | 'nonce', string> };

const NAMES = ['appId', 'sign', 'timestamp', 'nonce'];

function ltrim(s: string, t: Trim): string {
  if (!t) return s;
  let i = 0;
  while (i < s.length && t(s.charAt(i))) i++;
  return s.substring(i);
}
function rtrim(s: string, t: Trim): string {
  if (!t) return s;
  let j = s.length;
  while (j > 0 && t(s.charAt(j - 1))) j--;
  return s.substring(0, j);
}

/** One parser of the family. */
export function familyParse(header: string, c: FamilyConfig): FamilyAnswer {
  const h = rtrim(ltrim(header, c.header), c.header);
  let cut = -1;
  if (c.schemeSplit === undefined) cut = h.indexOf(' ');
  else for (let i = 0; i < h.length && cut < 0; i++) if (c.schemeSplit(h.charAt(i))) cut = i;
  if (cut < 0) return { refused: true };
  const word = h.substring(0, cut);
  const okScheme =
    word === 'V2_SHA256' ||
    (c.schemeAnyCase && (word.toUpperCase() === 'V2_SHA256' || word.toLowerCase() === 'v2_sha256'));
  if (!okScheme) return { refused: true };
  let rest = h.substring(cut + 1);
  if (c.schemeSplit !== undefined && c.schemeRun) rest = ltrim(rest, c.schemeSplit);
  const got: Record<string, string> = {};
  for (const rawItem of rest.split(',')) {
    const item = rtrim(ltrim(rawItem, c.itemStart), c.itemEnd);
    if (item === '' && c.dropEmpty) continue;
    const eq = item.indexOf('=');
    if (eq < 0) return { refused: true };
    const written = rtrim(item.substring(0, eq), c.beforeEq);
    const fold = c.nameFold;
    const writtenFolded = fold === undefined ? '' : folded(written, fold);
    const name = fold === undefined ? written : (NAMES.find((n) => folded(n, fold) === writtenFolded) ?? written);
    const value = ltrim(item.substring(eq + 1), c.afterEq);
    if (!NAMES.includes(name)) {
      if (!c.ignoreUnknown) return { refused: true };
      continue;
    }
    if (value === '' || name in got) return { refused: true };
    got[name] = value;
  }
  if (!NAMES.every((n) => n in got)) return { refused: true };
  return { items: { appId: got['appId']!, sign: got['sign']!, timestamp: got['timestamp']!, nonce: got['nonce']! } };
}

/**
 * Every answer of the family for a header: refusal allowed when some parser refuses, or when
 * white space stands at one of R8's places (a parser may refuse it there); every accepted answer.
 * Trim sets that act alike on this header's characters are tried once (a plain reduction).
 */
export function familyAnswers(header: string): { refusable: boolean; accepted: string[] } {
  const present = [...new Set(header.split(''))];
  const sets: Array<(ch: string) => boolean> = [];
  const keys = new Set<string>();
  for (const t of Object.values(FAMILY_SETS)) {
    const key = present.filter(t).join('');
    if (key !== '' && !keys.has(key)) {
      keys.add(key);
      sets.push(t);
    }
  }
  const trims: Trim[] = [undefined, ...sets];
  const splits: Array<[Trim, boolean]> = [[undefined, false]];
  for (const t of sets) splits.push([t, false], [t, true]);
  // folds that act alike on this header's characters are tried once; none when no name could be
  // another case of an item name (each name written exactly wherever it appears in any case)
  const lower = header.toLowerCase();
  const occurrences = (text: string, word: string): number => text.split(word).length - 1;
  const recased = NAMES.some((n) => occurrences(lower, n.toLowerCase()) > occurrences(header, n));
  const folds: Fold[] = recased ? [undefined, FAMILY_FOLDS['ascii']] : [undefined];
  const foldKeys = new Set<string>(['']);
  for (const f of Object.values(FAMILY_FOLDS)) {
    const key = present
      .filter((ch) => ch in f)
      .map((ch) => `${ch}${f[ch]}`)
      .join('');
    if (!foldKeys.has(key)) {
      foldKeys.add(key);
      folds.push(f);
    }
  }
  // skipping empty elements changes nothing when no element can be empty once trimmed
  const isSpace = (ch: string): boolean => ch === ' ' || sets.some((t) => t(ch));
  const elements = header.split(',');
  const first = (elements[0] ?? '').split('');
  while (first.length > 0 && isSpace(first[0] ?? '')) first.shift();
  while (first.length > 0 && isSpace(first[first.length - 1] ?? '')) first.pop();
  // an empty element: one of white space only after a comma, or nothing but the scheme word before the first comma
  const mayBeEmpty =
    elements.slice(1).some((e) => e.split('').every(isSpace)) || (elements.length > 1 && !first.some(isSpace));
  const drops = mayBeEmpty ? [false, true] : [false];
  let refusable = false;
  const accepted = new Set<string>();
  for (const hd of trims)
    for (const [schemeSplit, schemeRun] of splits)
      for (const itemStart of trims)
        for (const itemEnd of trims)
          for (const beforeEq of trims)
            for (const afterEq of trims)
              for (const ignoreUnknown of [false, true])
                for (const schemeAnyCase of [false, true])
                  for (const dropEmpty of drops)
                    for (const nameFold of folds) {
                      const c = {
                        header: hd,
                        schemeSplit,
                        schemeRun,
                        itemStart,
                        itemEnd,
                        beforeEq,
                        afterEq,
                        ignoreUnknown,
                        schemeAnyCase,
                        dropEmpty,
                        nameFold,
                      };
                      const a = familyParse(header, c);
                      if ('refused' in a) refusable = true;
                      else accepted.add(JSON.stringify(a.items));
                    }
  // a parser may refuse white space wherever it stands at one of R8's places
  if (hasWhiteSpaceAtPlaces(header, sets)) refusable = true;
  return { refusable, accepted: [...accepted].sort() };
}

/** White space (of any set) at an end of an item or beside its first "=", for a header with the plain shape. */
function hasWhiteSpaceAtPlaces(header: string, sets: Array<(ch: string) => boolean>): boolean {
  const ws = (ch: string | undefined): boolean => ch !== undefined && ch !== '' && sets.some((t) => t(ch));
  if (ws(header.charAt(0)) || ws(header.charAt(header.length - 1))) return true;
  const sp = header.indexOf(' ');
  if (sp < 0) return false;
  for (const item of header.substring(sp + 1).split(',')) {
    const eq = item.indexOf('=');
    if (
      ws(item.charAt(0)) ||
      ws(item.charAt(item.length - 1)) ||
      (eq > 0 && ws(item.charAt(eq - 1))) ||
      (eq >= 0 && ws(item.charAt(eq + 1)))
    )
      return true;
  }
  return false;
}
