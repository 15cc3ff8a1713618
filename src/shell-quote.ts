/**
 * Words for a POSIX shell: every printed command that carries a user's value (a replay line, a
 * suggestion in a message, a curl line in a report) quotes it, so that pasting it runs what it says.
 * @module
 */

/**
 * A word for a POSIX shell: as it is when it is plain (letters, digits and `@%+=:,./_-`), else
 * in single quotes (a `'` inside written `'\''`).
 * @param word - any text
 * @returns the word, quoted when it needs to be
 * @example shellQuote('a,b') // 'a,b'
 * @example shellQuote('python3 x.py') // "'python3 x.py'"
 * @example shellQuote("it's") // "'it'\\''s'"
 */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/**
 * Whether a text goes into a shell command as it is, in single quotes: printable ASCII only
 * (no LF, CR, tab or other control, no byte above 0x7E), so that what is pasted is what is sent.
 * @param text - any text
 * @returns true when every character is in U+0020–U+007E
 * @example isPrintableAscii('{"a":1}') // true
 * @example isPrintableAscii('a\nb') // false
 */
export function isPrintableAscii(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text);
}

/**
 * Whether a word is shown as it is, in single quotes, on a printed line that a reader copies from a page, a
 * Markdown file or a terminal: no control character (C0 and C1, LF, CR and tab included), no format character (the
 * bidi controls, a zero-width space, a BOM), no line or paragraph separator, no space other than U+0020, no lone
 * surrogate, no private-use, unassigned or non-character code point. What a writer would escape, a renderer drop or
 * a copy change.
 * @param word - any text
 * @returns true when the word can be printed as itself
 * @example isShowable('café über') // true
 * @example isShowable('a\x1b[31m') // false
 */
export function isShowable(word: string): boolean {
  return !UNSHOWABLE.test(word);
}

/** A piece of a printed command that is the kit's own text, written as it is (a placeholder: `<as in this run>`). */
export interface RawText {
  readonly raw: string;
}

/**
 * A command as one line to print and to paste into any POSIX shell, exact for any argv: each word as
 * {@link shellQuote} writes it when it {@link isShowable} is; else its bytes by {@link shellPrintf} in a command
 * substitution, `"$(printf '…')"` (printable ASCII only, whatever the bytes); and a word that ends with a line feed,
 * which a command substitution drops, through a variable set first on the same line with a mark after the bytes,
 * `pgv2kit_1="$(printf 'a\nx')"; cmd "${pgv2kit_1%x}"` (the shell sets that variable). POSIX sh has no `$'…'`.
 * @param words - the argv, or the kit's own text as {@link RawText}
 * @returns the line
 * @example shellLine(['npx', 'pgv2kit', 'run', '--testee', 'node a.mjs']) // "npx pgv2kit run --testee 'node a.mjs'"
 * @example shellLine(['echo', 'a\tb']) // `echo "$(printf 'a\\tb')"`
 * @example shellLine(['echo', 'a\n']) // `pgv2kit_1="$(printf 'a\\nx')"; echo "\${pgv2kit_1%x}"`
 */
export function shellLine(words: ReadonlyArray<string | RawText>): string {
  const set: string[] = [];
  const line = words.map((w) => {
    if (typeof w !== 'string') return w.raw;
    if (isShowable(w)) return shellQuote(w);
    if (!w.endsWith('\n')) return `"$(${shellPrintf(w)})"`;
    const name = `pgv2kit_${set.length + 1}`;
    set.push(`${name}="$(${shellPrintf(`${w}x`)})"; `);
    return `"\${${name}%x}"`;
  });
  return `${set.join('')}${line.join(' ')}`;
}

/**
 * A `printf` command for any POSIX shell (dash, bash, zsh, busybox) that writes exactly these
 * bytes: LF, CR and tab as `\n`, `\r`, `\t`; every other byte outside printable ASCII, and `'`,
 * as a 3-digit octal escape (`\303\251` for é, `\047` for `'`); `\` as `\\`, `%` as `%%`.
 * `$'…'` would be shorter, but dash (Debian's and Ubuntu's `sh`, 0.5.12) does not know it; and
 * `$(printf …)` drops trailing LFs — so a body goes into a pipe: `printf '…' | curl --data-binary @- …`.
 * @param bytes - the bytes (a string is taken as its UTF-8)
 * @returns e.g. `printf 'a\nb'`
 * @example shellPrintf('a\nb') // "printf 'a\\nb'"
 * @example shellPrintf("it's 100%") // "printf 'it\\047s 100%%'"
 */
export function shellPrintf(bytes: Uint8Array | string): string {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  let format = '';
  for (const [i, b] of data.entries()) {
    if (b === 0x25) format += '%%';
    else if (b === 0x5c) format += '\\\\';
    else if (ESCAPES[b] !== undefined) format += ESCAPES[b];
    // a format starting with `-` would be read as an option
    else if (b >= 0x20 && b < 0x7f && b !== 0x27 && !(i === 0 && b === 0x2d)) format += String.fromCharCode(b);
    else format += `\\${b.toString(8).padStart(3, '0')}`;
  }
  return `printf '${format}'`;
}

/** What {@link isShowable} refuses: controls, format characters, separators, unusual spaces, surrogates, … */
const UNSHOWABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/u;

/** The bytes {@link shellPrintf} writes as a letter escape. */
const ESCAPES: Readonly<Record<number, string>> = { 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t' };
