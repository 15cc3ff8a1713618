/**
 * The kit's name and version, read from its package.json (one folder up from both
 * `src/` and `dist/`).
 * @module
 */
import { readFileSync } from 'node:fs';

/**
 * The `version` field of the kit's package.json.
 * @returns the version, e.g. `0.1.0`
 * @throws {Error} when package.json cannot be read (a broken installation)
 * @example kitVersion() // '0.1.0'
 */
export function kitVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string') throw new Error('package.json has no version');
  return pkg.version;
}

/**
 * The kit's package name.
 * @example KIT_NAME // 'pgv2kit'
 */
export const KIT_NAME = 'pgv2kit';
