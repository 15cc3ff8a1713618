/**
 * The files of a vectors folder: its YAML files in a stable order, and a key to its whole
 * content (schemas included), which two folders share only when every file is the same.
 * @module
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * The YAML files of a vectors folder, sorted, its schema/ folder left out.
 * @param root - the vectors folder
 * @returns absolute paths
 * @example listYamlFiles('vectors')[0] // '…/vectors/authorization/format.yaml'
 */
export function listYamlFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'schema' || dir !== root) walk(path);
      } else if (name.endsWith('.yaml') || name.endsWith('.yml')) out.push(path);
    }
  };
  walk(root);
  return out;
}

/**
 * A path with "/" between its parts, whatever the platform.
 * @param path - a relative path
 * @returns the path with "/" separators
 * @example toPosix('a\\b') // 'a/b' on Windows
 */
export function toPosix(path: string): string {
  return path.split(sep).join('/');
}

/**
 * A key to the whole content of a vectors folder: SHA-256 over the name and bytes of every
 * schema file and every YAML file. Equal keys, equal folders (as the loader reads them).
 * @param root - the vectors folder
 * @returns the key, or undefined when a file cannot be read (the loader then says which)
 * @example contentKey('vectors') === contentKey(copyOfVectors) // true
 */
export function contentKey(root: string): string | undefined {
  const hash = createHash('sha256');
  try {
    const schemaDir = join(root, 'schema');
    const schemas = readdirSync(schemaDir).sort().map((name) => join(schemaDir, name));
    for (const path of [...schemas, ...listYamlFiles(root)]) hash.update(`${toPosix(relative(root, path))}\0`).update(readFileSync(path)).update('\0');
  } catch {
    return undefined;
  }
  return hash.digest('hex');
}
