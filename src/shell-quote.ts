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
