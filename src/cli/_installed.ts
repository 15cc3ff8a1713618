/**
 * The kit installed as a dependency (`node_modules/pgv2kit`) is not a place to write: a file
 * written there is lost at the next install and changes the kit's own vector set (its hash in
 * every report). Commands that write vector files refuse a path inside it and say where to write.
 * @module
 */
import { relative, sep, isAbsolute } from 'node:path';
import { PACKAGE_ROOT } from '../docs/refs.js';
import { UsageError } from './command.js';

/**
 * Whether the kit runs from an installed package (its folder is inside a node_modules folder).
 * @param root - the kit's folder (default: this one)
 * @returns true in a project that installed the kit, false in a clone of it
 */
export function installedKit(root: string = PACKAGE_ROOT): boolean {
  return root.split(/[\\/]/).includes('node_modules');
}

/**
 * Refuses a path inside the installed kit.
 * @param path - the absolute path to be written
 * @param what - the option it came from, for the message (`--out`, `--save`)
 * @param root - the kit's folder (default: this one)
 * @throws {UsageError} naming the path and where to write instead
 * @example
 * refuseInsideInstalledKit(
 *   '/usr/lib/node_modules/pgv2kit/vectors/a.yaml',
 *   '--out',
 *   '/usr/lib/node_modules/pgv2kit',
 * ) // throws UsageError
 */
export function refuseInsideInstalledKit(path: string, what: string, root: string = PACKAGE_ROOT): void {
  if (!installedKit(root)) return;
  const rel = relative(root, path);
  if (rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))) {
    throw new UsageError(
      `${what} ${path} is inside the installed pgv2kit package: ` +
        "it would be lost at the next install and change the kit's vector set. " +
        'Write to a folder of your own: pgv2kit vectors init my-vectors, then write there ' +
        '(generate … --dir my-vectors, or --save my-vectors/<area>/<file>.yaml) ' +
        "and run it with the kit's: run --vectors kit,my-vectors",
    );
  }
}
