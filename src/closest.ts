/**
 * "Did you mean …?": the names closest to a mistyped one by edit distance. One closeness for every
 * suggestion the kit makes (a command, an option, a protocol operation in a handshake).
 * @module
 */

/**
 * The names closest to `name` (Levenshtein distance, case ignored), when within a likely typo:
 * at most `max` edits, by default a third of the name's length and never fewer than 2. Every
 * name at the least distance is returned, in the order given.
 * @param name - the name as typed
 * @param names - the known names
 * @param max - the most edits a typo makes (default: max(2, ⌊length / 3⌋))
 * @returns the closest names (empty when none is close)
 * @example closest('onyl', ['only', 'skip', 'json']) // ['only']
 * @example closest('frobnicate', ['only', 'skip']) // []
 */
export function closest(
  name: string,
  names: readonly string[],
  max = Math.max(2, Math.floor(name.length / 3)),
): string[] {
  const scored = names.map((n) => ({ n, d: editDistance(name.toLowerCase(), n.toLowerCase()) }));
  const least = Math.min(...scored.map((s) => s.d));
  return least <= max ? scored.filter((s) => s.d === least).map((s) => s.n) : [];
}

/**
 * Levenshtein distance: insertions, deletions and substitutions of one UTF-16 unit.
 * @param a - a string
 * @param b - a string
 * @returns the number of edits
 * @example editDistance('kitten', 'sitting') // 3
 */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}
