/**
 * Every answer reading R8 allows a parser to give for an Authorization header (spec §5.3).
 *
 * R8 defines a strict parser and its defensible variants; a parser passes a header when
 * its answer — a refusal, or the four values — equals the answer of at least one
 * combination of the variants' choices:
 *
 * - white space, place by place — around the whole header, after the scheme word, at the
 *   start and at the end of an item, before and after "=" — kept, removed, or refused, each
 *   place chosen independently, "white space" being what one common trim removes
 *   ({@link TRIM_SETS});
 * - unknown items ignored (an empty name included) or refused;
 * - the scheme word compared exactly or without regard to letter case;
 * - empty list elements (nothing, or only white space a parser trimmed, between two commas,
 *   before the first item or after the last) ignored or refused (RFC 9110 §5.6.1);
 * - item names compared exactly or without regard to letter case, by one of the common
 *   comparisons ({@link NAME_FOLDS}; RFC 9110 §11.2), a duplicate that only appears after
 *   folding refused by a folding parser.
 *
 * {@link headerAnswers} computes that set once; every judgement of a parse outcome (the
 * authorization vectors, verification, `fuzz`, certification) goes through it.
 * @module
 */
import {
  AUTH_SCHEME,
  isItemName,
  ITEM_NAMES,
  parseAuthorization,
  strictItems,
  type AuthorizationItems,
  type ItemName,
  type ParseOutcome,
} from './authorization.js';
import { NAME_FOLDS, type NameFold } from './name-folds.js';
import { quotedAscii } from './text.js';

export { NAME_FOLDS, type NameFold } from './name-folds.js';

/** A set of characters one common trim removes (R8 (a)). */
export type TrimSet = 'ows' | 'ascii' | 'js' | 'python' | 'unicode' | 'java';

/** What each trim set removes, and which languages' trims remove exactly that. */
export const TRIM_SETS: Readonly<Record<TrimSet, { readonly title: string; readonly has: (ch: string) => boolean }>> = {
  ows: { title: 'SP and HTAB (RFC 9110 OWS)', has: (ch) => ch === ' ' || ch === '\t' },
  ascii: {
    title: 'ASCII white space (C isspace, Java and .NET regex \\s without flags)',
    has: (ch) => ' \t\n\v\f\r'.includes(ch),
  },
  js: {
    title: 'JavaScript String#trim and regex \\s (WhiteSpace, LineTerminator, U+FEFF)',
    has: (ch) => /^\s$/.test(ch),
  },
  python: {
    title: 'Python str.strip() (str.isspace: U+001C–U+001F, U+0085 and Unicode spaces)',
    has: (ch) => PYTHON_SPACE.test(ch),
  },
  unicode: {
    title: 'Unicode White_Space (Go strings.TrimSpace, .NET String.Trim)',
    has: (ch) => /^\p{White_Space}$/u.test(ch),
  },
  java: {
    title: 'Java String#trim (every char up to U+0020)',
    has: (ch) => ch.length === 1 && ch.charCodeAt(0) <= 0x20,
  },
};

/** Every answer R8 allows for one header. */
export interface HeaderAnswers {
  /** A parser may refuse the header (the strict parser does, or some variant does). */
  readonly refusable: boolean;
  /** Every four values a parser may return when it accepts the header, without repeats. */
  readonly accepted: readonly AuthorizationItems[];
  /** R8's strict parser on the header: its refusal names the problem in messages. */
  readonly strict: ParseOutcome;
}

/** What R8 requires of a parser given a header, in one word. */
export type HeaderVerdict = 'must-accept' | 'must-refuse' | 'either';

/**
 * Computes every answer reading R8 allows for a header.
 * @param header - the Authorization header value
 * @returns whether a refusal is allowed and every accepted answer allowed
 * @example
 * headerAnswers(
 *   'V2_SHA256 appId=a, sign=00,timestamp=1,nonce=n',
 * ).accepted.length // 1 — the trimmed values; refusable: true
 */
export function headerAnswers(header: string): HeaderAnswers {
  const strict = parseAuthorization(header, { strict: true });
  if (strict.ok && !hasWhiteSpaceAtPlaces(header)) return { refusable: false, accepted: [strict.items], strict };
  const sets = effectiveSets(header);
  const accepted: AuthorizationItems[] = [];
  for (const rest of itemLists(header, sets)) {
    // a handful of distinct answers at most: compared value by value, not keyed by long text
    for (const items of acceptedItems(rest, sets))
      if (!accepted.some((a) => ITEM_NAMES.every((n) => a[n] === items[n]))) accepted.push(items);
  }
  return { refusable: true, accepted, strict };
}

/**
 * The one-word verdict of a set of answers.
 * @param answers - from {@link headerAnswers}
 * @returns must-accept (one answer, no refusal), must-refuse (no answer), or either
 * @example headerVerdict(headerAnswers('Bearer x')) // 'must-refuse'
 */
export function headerVerdict(answers: HeaderAnswers): HeaderVerdict {
  if (answers.accepted.length === 0) return 'must-refuse';
  return answers.refusable ? 'either' : 'must-accept';
}

/** A parser's answer to a header, as protocol v1 carries it. */
export type ParserAnswer =
  { readonly refused: true; readonly reason?: string } | { readonly items: Readonly<Record<string, unknown>> };

/**
 * A parser's answer from protocol v1's answer shape (`rejected` or `result`).
 * @param answer - the answer
 * @returns the refusal with its reason, or the values
 * @example parserAnswer({ rejected: { reason: 'no' } }) // { refused: true, reason: 'no' }
 */
export function parserAnswer(
  answer: { readonly rejected: { readonly reason: string } } | { readonly result: Readonly<Record<string, unknown>> },
): ParserAnswer {
  return 'rejected' in answer ? { refused: true, reason: answer.rejected.reason } : { items: answer.result };
}

/** The judgement of one parser answer against R8. */
export type AnswerJudgement =
  { readonly ok: true; readonly choice: 'accepted' | 'refused' } | { readonly ok: false; readonly reason: string };

/**
 * Judges a parser's answer: a refusal passes when R8 allows one; accepted values pass when
 * they equal one of R8's accepted answers.
 * @param answers - from {@link headerAnswers}
 * @param answer - what the parser did
 * @returns ok with the choice, or why the answer breaks R8
 * @example judgeParserAnswer(headerAnswers('Bearer x'), { items: { appId: 'x' } }).ok // false
 */
export function judgeParserAnswer(answers: HeaderAnswers, answer: ParserAnswer): AnswerJudgement {
  if ('refused' in answer) {
    if (answers.refusable) return { ok: true, choice: 'refused' };
    const why = answer.reason ? `: ${answer.reason}` : '';
    return {
      ok: false,
      reason:
        'must be accepted (R8: every reading accepts it, with ' +
        `${showItems(answers.accepted[0])}), but was refused${why}`,
    };
  }
  if (answers.accepted.some((a) => ITEM_NAMES.every((n) => answer.items[n] === a[n])))
    return { ok: true, choice: 'accepted' };
  if (answers.accepted.length === 0) {
    const why = answers.strict.ok ? 'no reading accepts it' : answers.strict.message;
    return { ok: false, reason: `must be refused (R8: ${why}), but was accepted` };
  }
  const allowed = answers.accepted.slice(0, 3).map(showItems).join(' or ');
  const more = answers.accepted.length > 3 ? ` (or ${answers.accepted.length - 3} more)` : '';
  const how = answers.refusable ? 'may be refused, or accepted with' : 'must be accepted with';
  return {
    ok: false,
    reason: `accepted with ${showItems(answer.items)}, but R8 allows no such values: it ${how} ${allowed}${more}`,
  };
}

/**
 * Judges a parser's answer to a header, as {@link judgeParserAnswer} does, computing every
 * answer R8 allows only when the strict parser alone does not settle it: a refusal of a
 * header the strict parser refuses (or that holds white space at R8's places) is allowed, and
 * the strict parser's own values are always allowed. Fuzzing judges most headers this way.
 * @param header - the header value
 * @param answer - what the parser did
 * @returns ok with the choice, or why the answer breaks R8
 * @example judgeHeader('Bearer x', { refused: true }) // { ok: true, choice: 'refused' }
 */
export function judgeHeader(header: string, answer: ParserAnswer): AnswerJudgement {
  const strict = strictItems(header);
  if ('refused' in answer) {
    if (strict === undefined || hasWhiteSpaceAtPlaces(header)) return { ok: true, choice: 'refused' };
  } else if (strict !== undefined && ITEM_NAMES.every((n) => answer.items[n] === strict[n]))
    return { ok: true, choice: 'accepted' };
  return judgeParserAnswer(headerAnswers(header), answer);
}

/**
 * Shows four item values on one line, every character outside printable ASCII escaped.
 * @param items - the values (unknown fields are ignored)
 * @returns e.g. `appId="a", sign="00…", timestamp="1", nonce="n"`
 * @example
 * showItems({
 *   appId: 'a',
 *   sign: 'ff',
 *   timestamp: '1',
 *   nonce: 'n\u00a0',
 * }) // 'appId="a", sign="ff", timestamp="1", nonce="n\\u00a0"'
 */
export function showItems(items: Readonly<Record<string, unknown>> | undefined): string {
  return ITEM_NAMES.map((n) => `${n}=${showValue(items?.[n])}`).join(', ');
}

/**
 * Whether white space (of any trim set R8 names) stands at one of R8's places: an end of the
 * header, in place of (or beside) the one SP after the scheme word, an end of an item, either
 * side of its first "=". White space inside a value is at no place.
 * @param header - the header value
 * @returns true when some parser may trim or refuse white space in it
 * @example hasWhiteSpaceAtPlaces('V2_SHA256 appId= a,sign=00,timestamp=1,nonce=n') // true
 */
export function hasWhiteSpaceAtPlaces(header: string): boolean {
  const ws = (ch: string | undefined): boolean => ch !== undefined && isAnyWhiteSpace(ch);
  if (ws(header[0]) || ws(header[header.length - 1])) return true;
  const sp = header.indexOf(' ');
  if (sp < 0) return [...header].some(ws); // another white space where the one SP should be
  return header
    .slice(sp + 1)
    .split(',')
    .some((item) => {
      const eq = item.indexOf('=');
      return ws(item[0]) || ws(item[item.length - 1]) || (eq >= 0 && (ws(item[eq - 1]) || ws(item[eq + 1])));
    });
}

// --- internal ---

const PYTHON_SPACE = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/;
const SET_NAMES = Object.keys(TRIM_SETS) as TrimSet[];

type Has = (ch: string) => boolean;

function isAnyWhiteSpace(ch: string): boolean {
  return ANY_WHITE_SPACE.test(ch);
}

/**
 * Every character some trim set removes, as one class (a test holds it equal to the union
 * of {@link TRIM_SETS} over every UTF-16 unit): one native scan finds the white space a long
 * header holds.
 */
const ANY_WHITE_SPACE_CLASS = '[\\x00-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]';
const ANY_WHITE_SPACE = new RegExp(`^${ANY_WHITE_SPACE_CLASS}$`);
const ANY_WHITE_SPACE_ALL = new RegExp(ANY_WHITE_SPACE_CLASS, 'g');

/** The trim sets that differ on the white space this header holds (one of each kind). */
function effectiveSets(header: string): Has[] {
  const found = header.match(ANY_WHITE_SPACE_ALL);
  if (found === null) return [];
  const present = [...new Set(found)];
  const seen = new Set<string>();
  const out: Has[] = [];
  for (const name of SET_NAMES) {
    const has = TRIM_SETS[name].has;
    const key = present.filter(has).join('');
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(has);
  }
  return out;
}

/**
 * The first index of a character of a trim set (white space is always one UTF-16 unit): a native scan for any white
 * space, then the set's test on what it finds.
 */
function firstIndex(text: string, has: Has): number {
  ANY_WHITE_SPACE_ALL.lastIndex = 0;
  for (let m = ANY_WHITE_SPACE_ALL.exec(text); m !== null; m = ANY_WHITE_SPACE_ALL.exec(text))
    if (has(m[0])) return m.index;
  return -1;
}

function trimStart(text: string, has: Has): string {
  let i = 0;
  while (i < text.length && has(text[i] ?? '')) i++;
  return text.slice(i);
}

function trimEnd(text: string, has: Has): string {
  let i = text.length;
  while (i > 0 && has(text[i - 1] ?? '')) i--;
  return text.slice(0, i);
}

function schemeMatches(word: string): boolean {
  return word === AUTH_SCHEME || word.toUpperCase() === AUTH_SCHEME || word.toLowerCase() === AUTH_SCHEME.toLowerCase();
}

/**
 * The item lists (the text after the scheme word) a parser may go on with: the whole
 * header trimmed or not, the scheme word split at the first SP (strict) or at the first
 * white space of a trim set, the white space after it kept or removed, the word compared
 * exactly or without regard to case.
 */
function itemLists(header: string, sets: readonly Has[]): Set<string> {
  const lists = new Set<string>();
  const heads = new Set([header, ...sets.map((has) => trimEnd(trimStart(header, has), has))]);
  for (const h of heads) {
    const splits: Array<[number, Has | undefined]> = [[h.indexOf(' '), undefined]];
    for (const has of sets) splits.push([firstIndex(h, has), has]);
    for (const [at, has] of splits) {
      if (at < 0 || !schemeMatches(h.slice(0, at))) continue;
      const after = h.slice(at + 1);
      lists.add(after);
      if (has) lists.add(trimStart(after, has));
    }
  }
  return lists;
}

/**
 * The accepted answers for one item list, over every choice at the four item places, empty
 * elements ignored (R8 (d): refusing them is the strict parser's answer, always allowed) and
 * names compared exactly or by each fold that reads them differently (R8 (e)).
 */
function acceptedItems(rest: string, sets: readonly Has[]): AuthorizationItems[] {
  const raw = rest.split(',');
  // an element without "=" can only be ignored, as empty after its trims (R8 (d))
  if (raw.some((item) => !item.includes('=') && !onlyWhiteSpace(item))) return [];
  const bare = raw.map((item) => !item.includes('='));
  const names = raw.map((item, i) => (bare[i] ? item : item.slice(0, item.indexOf('='))));
  const values = raw.map((item, i) => (bare[i] ? '' : item.slice(item.indexOf('=') + 1)));
  const ends = raw.map((item, i) => (bare[i] ? item : (values[i] ?? '')));
  const nameStart = choices(names, sets, trimStart);
  const nameEnd = choices(names, sets, trimEnd);
  const valueStart = choices(values, sets, trimStart);
  const valueEnd = choices(ends, sets, trimEnd);
  const out: AuthorizationItems[] = [];
  for (const ns of nameStart) {
    for (const ne of nameEnd) {
      for (const vs of valueStart) {
        for (const ve of valueEnd) {
          const kept: Array<[string, string]> = [];
          let ok = true;
          for (let i = 0; i < raw.length && ok; i++) {
            if (bare[i]) ok = ve(ns(names[i] ?? '')) === '';
            else kept.push([ne(ns(names[i] ?? '')), ve(vs(values[i] ?? ''))]);
          }
          if (!ok) continue;
          const keptValues = kept.map(([, v]) => v);
          for (const resolved of nameReadings(kept.map(([n]) => n))) {
            const items = collect(resolved, keptValues);
            if (items) out.push(items);
          }
        }
      }
    }
  }
  return out;
}

/** The distinct ways of treating one place: kept, or removed with each trim set that changes something. */
function choices(
  texts: readonly string[],
  sets: readonly Has[],
  trim: (t: string, has: Has) => string,
): Array<(t: string) => string> {
  const out: Array<(t: string) => string> = [(t) => t];
  const seen: Array<readonly string[]> = [texts];
  for (const has of sets) {
    const trimmed = texts.map((t) => trim(t, has));
    if (seen.some((other) => other.every((t, i) => t === trimmed[i]))) continue;
    seen.push(trimmed);
    out.push((t) => trim(t, has));
  }
  return out;
}

function onlyWhiteSpace(text: string): boolean {
  for (const ch of text) if (!isAnyWhiteSpace(ch)) return false;
  return true;
}

const FOLD_NAMES = Object.keys(NAME_FOLDS) as NameFold[];
const ITEM_KEYS = FOLD_NAMES.map((f) => ITEM_NAMES.map((n) => NAME_FOLDS[f].key(n)));

/**
 * The items the names stand for, compared exactly and by each fold that reads them
 * differently (R8 (e)); undefined for an unknown name. A name longer than 12 units folds to
 * none of the four (no fold shortens a name).
 */
function nameReadings(names: readonly string[]): Array<ReadonlyArray<ItemName | undefined>> {
  const exact = names.map((n) => (isItemName(n) ? n : undefined));
  const out = [exact];
  if (!names.some((n, i) => exact[i] === undefined && n.length >= 3 && n.length <= 12)) return out;
  FOLD_NAMES.forEach((f, k) => {
    const keys = ITEM_KEYS[k] ?? [];
    const read = names.map(
      (n, i) => exact[i] ?? (n.length > 12 ? undefined : ITEM_NAMES[keys.indexOf(NAME_FOLDS[f].key(n))]),
    );
    if (!out.some((o) => o.every((x, i) => x === read[i]))) out.push(read);
  });
  return out;
}

/** The strict rules after the leniency: unknown items ignored, each item once, no empty value. */
function collect(
  names: ReadonlyArray<ItemName | undefined>,
  values: readonly string[],
): AuthorizationItems | undefined {
  const found = new Map<string, string>();
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (name === undefined) continue;
    const value = values[i] ?? '';
    if (value === '' || found.has(name)) return undefined;
    found.set(name, value);
  }
  if (found.size !== ITEM_NAMES.length) return undefined;
  return Object.fromEntries(ITEM_NAMES.map((n) => [n, found.get(n) ?? ''])) as Record<
    (typeof ITEM_NAMES)[number],
    string
  >;
}

function showValue(value: unknown): string {
  if (typeof value !== 'string') return value === undefined ? '(missing)' : (JSON.stringify(value) ?? String(value));
  return quotedAscii(value.length > 70 ? `${value.slice(0, 70)}…` : value);
}
