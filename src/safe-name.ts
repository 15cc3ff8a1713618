/**
 * A name from text the kit does not control (an implementation's name, a run name, a comparison's key) as one
 * safe file or folder name: letters, digits, `.`, `_` and `-` only, no leading or trailing dot or dash, bounded
 * in length (a longer one is cut and its hash added, so two long names never meet). The one rule for run names,
 * report folders and badge files.
 * @module
 */
import { createHash } from 'node:crypto';

/**
 * The safe name of a text.
 * @param text - any text
 * @param fallback - the name when nothing of the text is left
 * @param max - the longest name (at least 16)
 * @returns the name
 * @example safeName('my sdk 2', 'run', 100) // 'my-sdk-2'
 * @example safeName('x/../../victim', 'run', 100) // 'x-..-..-victim'
 * @example safeName('///', 'run', 100) // 'run'
 * @example safeName('a'.repeat(200), 'run', 40).length // 40
 */
export function safeName(text: string, fallback: string, max: number): string {
  const safe = text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '') || fallback;
  if (safe.length <= max) return safe;
  return `${safe.slice(0, max - 9)}-${createHash('sha256').update(text).digest('hex').slice(0, 8)}`;
}
