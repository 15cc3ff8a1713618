/**
 * Reading files named on the command line, with failures as one-line usage errors.
 * @module
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './command.js';
import { fileSystemReason } from '../file-errors.js';

/**
 * Resolves a path given on the command line against the working folder.
 * @param cwd - the working folder
 * @param path - the path as given
 * @returns the absolute path
 * @example resolvePath('/work', 'vectors') // '/work/vectors'
 */
export function resolvePath(cwd: string, path: string): string {
  return resolve(cwd, path);
}

/**
 * Checks that a file can be written (replaced atomically: a file beside it, then a rename):
 * it is not a folder, and its folder exists and may be written to.
 * @param absolute - the absolute path
 * @param label - what the file is, for the message, e.g. `--expect-failures`
 * @throws {UsageError} naming the file and the problem
 */
export function checkWritableFile(absolute: string, label: string): void {
  let isFolder = false;
  try {
    isFolder = statSync(absolute).isDirectory();
  } catch {
    // missing: written new
  }
  if (isFolder) throw new UsageError(`${label} ${absolute} is a folder, not a file`);
  const folder = dirname(absolute);
  try {
    if (!statSync(folder).isDirectory()) throw new Error('not a folder');
    accessSync(folder, constants.W_OK);
  } catch (e) {
    throw new UsageError(
      `${label} ${absolute} cannot be written: its folder ${folder} ` +
        `${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'cannot be written to'}`,
    );
  }
}

/**
 * Reads a file's exact bytes.
 * @param absolute - the absolute path
 * @param label - what the file is, for the message, e.g. `--body-file x.json`
 * @returns the bytes, as read
 * @throws {UsageError} when the file cannot be read, naming it and why
 */
export function readBytes(absolute: string, label: string): Uint8Array {
  try {
    const b = readFileSync(absolute);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  } catch (e) {
    throw new UsageError(`cannot read ${label}: ${fileSystemReason(e)}`);
  }
}

/**
 * Checks that a folder exists.
 * @param absolute - the absolute path
 * @param label - what the folder is, for the message
 * @throws {UsageError} when it does not exist or is not a folder
 */
export function requireFolder(absolute: string, label: string): void {
  let isDir: boolean;
  try {
    isDir = statSync(absolute).isDirectory();
  } catch (e) {
    throw new UsageError(`cannot read ${label}: ${fileSystemReason(e)}`);
  }
  if (!isDir) throw new UsageError(`cannot read ${label}: not a folder`);
}

/**
 * The reason of a file system error, or undefined for any other error.
 * @param e - an error
 * @returns the reason, when e is a file system error (it has a code such as ENOENT)
 */
export function fileErrorReason(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code)
    ? `${fileSystemReason(e)}` +
        `${typeof (e as { path?: unknown }).path === 'string' ? ` (${(e as { path: string }).path})` : ''}`
    : undefined;
}
