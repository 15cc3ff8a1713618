/**
 * The files of a vectors folder, read as untrusted input: a folder may come from a download or
 * a merge request, so the kit reads only regular files inside it — a symlink may point within
 * the folder, never out of it, nor back into a folder already read; a device, a FIFO or a socket
 * is refused without being opened for a blocking read — and no file past its size limit
 * ({@link VectorLimits}). Every refusal is data (a path and a reason), never a thrown error.
 * @module
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import { join, relative, sep } from 'node:path';
import { formatBytes } from '../bytes.js';
import { fileSystemReason } from '../file-errors.js';
import { DEFAULT_VECTOR_LIMITS, type VectorLimits } from './limits.js';

/** A file of the folder: the path it was found at (under the folder) and the path it really is. */
export interface FolderFile {
  readonly path: string;
  readonly real: string;
}

/** Something under the folder the kit will not read. */
export interface Refusal {
  /** The path it was found at, under the folder (the folder itself when it cannot be listed). */
  readonly path: string;
  readonly message: string;
}

/** The YAML files of a folder and what was refused while listing them. */
export interface Listing {
  /** In a stable order: sorted by name at every level. */
  readonly files: readonly FolderFile[];
  readonly refusals: readonly Refusal[];
}

/** Folders the kit walks into below the vectors folder (an area folder is one). */
export const MAX_FOLDER_DEPTH = 8;

/**
 * The YAML files of a vectors folder, sorted, its schema/ folder left out.
 * @param root - the vectors folder
 * @param limits - how many files (default {@link DEFAULT_VECTOR_LIMITS})
 * @returns the files and the refusals
 * @example listYamlFiles(DEFAULT_VECTORS_DIR).files[0]?.path // '…/vectors/authorization/format.yaml'
 */
export function listYamlFiles(root: string, limits: VectorLimits = DEFAULT_VECTOR_LIMITS): Listing {
  const files: FolderFile[] = [];
  const refusals: Refusal[] = [];
  const refuse = (path: string, message: string): void => void refusals.push({ path, message });
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch (e) {
    refuse(root, `cannot be read: ${fileSystemReason(e)}`);
    return { files, refusals };
  }
  const visited = new Set([realRoot]);
  let over = 0;
  const walk = (dir: string, realDir: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (e) {
      refuse(dir, `cannot be listed: ${fileSystemReason(e)}`);
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      const yamlName = isYamlName(name);
      let real = join(realDir, name);
      let stats: Stats;
      try {
        stats = lstatSync(path);
        if (stats.isSymbolicLink()) {
          real = realpathSync(path);
          stats = statSync(real);
          if (!stats.isDirectory() && !yamlName) continue;
          if (!within(realRoot, real)) {
            refuse(path, `is a symlink to ${real}, outside the vectors folder`);
            continue;
          }
        }
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (yamlName || code === 'ELOOP')
          refuse(
            path,
            code === 'ELOOP'
              ? 'is a symlink loop'
              : code === 'ENOENT'
                ? 'is a symlink to nothing'
                : `cannot be read: ${fileSystemReason(e)}`,
          );
        continue;
      }
      if (stats.isDirectory()) {
        if (name === 'schema' && dir === root) continue;
        if (visited.has(real)) refuse(path, 'leads back to a folder already read (a symlink loop)');
        else if (depth >= MAX_FOLDER_DEPTH) refuse(path, `is nested more than ${MAX_FOLDER_DEPTH} folders deep`);
        else {
          visited.add(real);
          walk(path, real, depth + 1);
        }
      } else if (yamlName) {
        if (!stats.isFile()) refuse(path, `is ${fileKind(stats)}, not a regular file`);
        else if (files.length >= limits.files) over += 1;
        else files.push({ path, real });
      }
    }
  };
  walk(root, realRoot, 0);
  if (over > 0) refuse(root, `holds more than ${limits.files} YAML files (${over} more were not read)`);
  return { files, refusals };
}

/** What reading one file gave: its bytes, or why not. */
export type FileRead =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly message: string; readonly missing?: true };

/**
 * Reads one file of the folder, at most `maxBytes`: a FIFO or device is found by the open itself
 * (non-blocking) and refused unread; a file over the limit is refused by its size, or once the
 * read crosses it (a file that grows while it is read).
 * @param path - the file (its real path, from {@link listYamlFiles})
 * @param maxBytes - the most bytes read
 * @param limitName - what sets the limit, for the message
 * @returns the bytes, or the reason they were not read
 * @example readFolderFile(`${DEFAULT_VECTORS_DIR}/notes.yaml`, 1 << 24).ok // true
 */
export function readFolderFile(path: string, maxBytes: number, limitName = '--max-vector-file'): FileRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    return {
      ok: false,
      message: `cannot be read: ${fileSystemReason(e)}`,
      ...((e as NodeJS.ErrnoException).code === 'ENOENT' ? { missing: true as const } : {}),
    };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { ok: false, message: `is ${fileKind(stats)}, not a regular file` };
    const over = (size: number): FileRead => ({
      ok: false,
      message: `is ${formatBytes(size)}, over the limit of ${formatBytes(maxBytes)} per file (${limitName})`,
    });
    if (stats.size > maxBytes) return over(stats.size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(stats.size - total, 0) + 1, 1 << 20));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) return over(total);
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    }
    return { ok: true, bytes: Buffer.concat(chunks, total) };
  } catch (e) {
    return { ok: false, message: `cannot be read: ${fileSystemReason(e)}` };
  } finally {
    closeSync(fd);
  }
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
 * @param limits - the limits the loader reads it under
 * @returns the key, or undefined when a file is refused or cannot be read (the loader then says which)
 * @example
 * import { cpSync } from 'node:fs';
 * cpSync(DEFAULT_VECTORS_DIR, `${tmp}/copy`, { recursive: true });
 * contentKey(DEFAULT_VECTORS_DIR) === contentKey(`${tmp}/copy`) // true
 */
export function contentKey(root: string, limits: VectorLimits = DEFAULT_VECTOR_LIMITS): string | undefined {
  const hash = createHash('sha256');
  const listing = listYamlFiles(root, limits);
  if (listing.refusals.length > 0) return undefined;
  let schemas: FolderFile[];
  try {
    const schemaDir = join(root, 'schema');
    schemas = readdirSync(schemaDir)
      .sort()
      .map((name) => ({ path: join(schemaDir, name), real: join(schemaDir, name) }));
  } catch {
    return undefined;
  }
  for (const file of [...schemas, ...listing.files]) {
    const read = readFolderFile(file.real, limits.fileBytes);
    if (!read.ok) return undefined;
    hash
      .update(`${toPosix(relative(root, file.path))}\0`)
      .update(read.bytes)
      .update('\0');
  }
  return hash.digest('hex');
}

// --- internal ---

function isYamlName(name: string): boolean {
  return name.endsWith('.yaml') || name.endsWith('.yml');
}

function within(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function fileKind(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a folder';
  return 'a special file';
}
