/**
 * The common ways of comparing Authorization item names without regard to letter case that
 * reading R8 (e) allows (RFC 9110 §11.2: auth-param names are case-insensitive). They agree on
 * ASCII letters and differ on the few non-ASCII letters that fold to an ASCII one.
 * @module
 */

/** A common way of comparing item names without regard to letter case (R8 (e)). */
export type NameFold = 'ascii' | 'upper' | 'lower' | 'java' | 'go' | 'casefold';

/**
 * What each name comparison of R8 (e) treats as the same, as a key: two names are the same
 * when their keys are equal. They differ only on the few non-ASCII letters that fold to an
 * ASCII one (ſ, ı, İ, the Kelvin sign, the ligatures ﬀ–ﬆ).
 * @example NAME_FOLDS.java.key('app\u0130d') === NAME_FOLDS.java.key('appId') // true — NAME_FOLDS.go's: false
 */
export const NAME_FOLDS: Readonly<
  Record<NameFold, { readonly title: string; readonly key: (name: string) => string }>
> = {
  ascii: {
    title: 'ASCII letters only (C strcasecmp, .NET OrdinalIgnoreCase on ASCII names)',
    key: (n) => n.replace(/[A-Z]/g, (c) => c.toLowerCase()),
  },
  upper: {
    title: 'both upper-cased (JavaScript, Java and Python toUpperCase / upper: ſ, ı, ﬆ match)',
    key: (n) => n.toUpperCase(),
  },
  lower: {
    title: 'both lower-cased (JavaScript, Java and Python toLowerCase / lower: the Kelvin sign matches k)',
    key: (n) => n.toLowerCase(),
  },
  java: {
    title: 'Java String#equalsIgnoreCase (per char: upper case, then lower case; ſ, ı, İ match)',
    key: (n) => mapChars(n, (c) => simpleLower(simpleUpper(c))),
  },
  go: {
    title: 'Go strings.EqualFold (simple case folding: ſ matches s, the Kelvin sign k)',
    key: (n) => mapChars(n, (c) => (c === '\u0131' || c === '\u0130' ? c : simpleLower(simpleUpper(c)))),
  },
  casefold: {
    title: 'Python str.casefold (full case folding: ſ and ﬆ match, ı does not)',
    key: (n) => mapChars(n, (c) => (c === '\u0131' ? c : c.toUpperCase().toLowerCase())),
  },
};

// --- internal ---

/** A text with each code point mapped. */
function mapChars(text: string, map: (ch: string) => string): string {
  let out = '';
  for (const ch of text) out += map(ch);
  return out;
}

/**
 * A code point's simple upper case (one for one, as Java's Character.toUpperCase): itself when the full mapping is
 * longer.
 */
function simpleUpper(ch: string): string {
  const up = ch.toUpperCase();
  return up.length === ch.length ? up : ch;
}

/** A code point's simple lower case (U+0130 to "i", as Java's Character.toLowerCase). */
function simpleLower(ch: string): string {
  if (ch === '\u0130') return 'i';
  const low = ch.toLowerCase();
  return low.length === ch.length ? low : ch;
}
