/**
 * One file written whole or not at all, for every layer that writes a file a user keeps.
 * @module
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file so that readers see the old or the new content, never a part:
 * a temporary file beside it, then a rename.
 * @param path - the file
 * @param content - its new content
 */
export function writeFileAtomic(path: string, content: string): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, content);
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}
