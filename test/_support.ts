/**
 * Small helpers the kit's own tests share: fresh folders under one temporary root (removed after
 * the file's tests), and whether a process is alive.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
