/**
 * Small helpers the kit's own tests share: fresh folders under one temporary root (removed after
 * the file's tests), a copy of a folder made of hard links, and whether a process is alive.
 */
import { linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A maker of fresh folders under one temporary root, removed after the calling file's tests.
 * @param prefix - the root's name prefix, e.g. `pgv2kit-stop-`
 * @returns a function that makes and returns a new empty folder
 */
export function tempFolders(prefix: string): () => string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let n = 0;
  return () => {
    const d = join(root, String(n++));
    mkdirSync(d);
    return d;
  };
}

/**
 * A copy of a folder whose files are hard links to the original's (a symbolic link is linked as itself): the same
 * bytes at a path of the copy's own, made in a tenth of a second. Never write a linked file in place: the original
 * changes with it.
 * @param from - the folder
 * @param to - where the copy goes (made)
 * @param skip - names of folders, at any depth, left out of the copy
 * @throws {Error} EXDEV when the two are on different file systems
 */
export function linkTree(from: string, to: string, skip: ReadonlySet<string> = new Set()): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!skip.has(entry.name)) linkTree(join(from, entry.name), join(to, entry.name), skip);
    } else linkSync(join(from, entry.name), join(to, entry.name));
  }
}

/**
 * Whether a process is alive (signal 0: nothing is sent).
 * @param pid - the process id
 * @returns true while it runs
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
