/**
 * The kit's own vector set as it was loaded and checked when the kit was built (`npm run
 * build` writes it, {@link SNAPSHOT_FILE}): parsing every YAML file and compiling the
 * schemas takes half a second, and every `pgv2kit run` and most of the kit's tests load
 * the same files. A folder is loaded from the snapshot only when its content key
 * (`contentKey`: every schema and YAML file, byte for byte) is the snapshot's; any other
 * folder, or a changed file, is loaded and checked in full.
 * @module
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { VectorSet } from './types.js';

/** Where the build writes the snapshot: in dist/, beside the compiled loader's folder, for src and dist alike. */
export const SNAPSHOT_FILE = fileURLToPath(new URL('../../dist/vectors/set-snapshot.json', import.meta.url));

export { contentKey } from './files.js';

/** A loaded set without its folder, and the content key it was loaded from. */
export interface SetSnapshot {
  readonly key: string;
  /** A fresh copy of the set on each call (callers may change what they get). */
  set(): Omit<VectorSet, 'root'>;
}

let cached: { readonly key: string; readonly text: string } | null | undefined;

/**
 * The snapshot written by the build, if there is one.
 * @returns the snapshot, or undefined (no build, or an unreadable file: the loader loads in full)
 * @example readSnapshot()?.key
 */
export function readSnapshot(): SetSnapshot | undefined {
  if (cached === undefined) {
    try {
      const text = readFileSync(SNAPSHOT_FILE, 'utf8');
      const key = (JSON.parse(text) as { key?: unknown }).key;
      cached = typeof key === 'string' ? { key, text } : null;
    } catch {
      cached = null;
    }
  }
  const found = cached;
  if (found === null) return undefined;
  return { key: found.key, set: () => (JSON.parse(found.text) as { set: Omit<VectorSet, 'root'> }).set };
}
