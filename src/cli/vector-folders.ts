/**
 * `--vectors` as typed: one folder, or several run together, comma-separated, the word `kit`
 * naming the kit's own (`--vectors kit,./my-vectors`: the kit's cases and one's own).
 * @module
 */
import { DEFAULT_VECTORS_DIR } from '../vectors/load.js';
import { requireFolder, resolvePath } from './_files.js';
import { UsageError } from './command.js';

/**
 * The folders a `--vectors` value names, each with the label its files are reported under.
 * @param value - the option's value (absent: the kit's own folder)
 * @param cwd - the folder paths are relative to
 * @returns the folders, in the order given (the first's files keep their own names)
 * @throws {UsageError} for an empty entry, a folder that cannot be read, or one named twice
 * @example vectorFolders('kit', tmp) // [{ root: DEFAULT_VECTORS_DIR }]
 */
export function vectorFolders(value: string | undefined, cwd: string): Array<{ root: string; label?: string }> {
  if (value === undefined) return [{ root: DEFAULT_VECTORS_DIR }];
  const parts = value.split(',').map((p) => p.trim());
  if (parts.some((p) => p === ''))
    throw new UsageError(
      `--vectors takes folders separated by commas (kit for the kit's own), not ${JSON.stringify(value)}`,
    );
  const folders = parts.map((p, i) => {
    const root = p === 'kit' ? DEFAULT_VECTORS_DIR : resolvePath(cwd, p);
    const label = i === 0 || p === 'kit' ? undefined : p.replace(/^\.\//, '').replace(/\/+$/, '') || p;
    return { root, ...(label !== undefined ? { label } : {}) };
  });
  for (const f of folders) requireFolder(f.root, `the vectors folder ${f.root}`);
  const roots = folders.map((f) => f.root);
  const twice = roots.find((r, i) => roots.indexOf(r) !== i);
  if (twice !== undefined) throw new UsageError(`--vectors names ${twice} twice`);
  return folders;
}
