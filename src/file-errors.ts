/**
 * File system errors in words: what a user is told when a file or folder cannot be read.
 * @module
 */

/**
 * A short reason for a file system error.
 * @param e - the error
 * @returns e.g. `no such file or folder`
 * @example fileSystemReason(Object.assign(new Error('x'), { code: 'EACCES' })) // 'permission denied'
 */
export function fileSystemReason(e: unknown): string {
  switch ((e as { code?: unknown } | null)?.code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'EISDIR':
      return 'is a folder, not a file';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'a symlink loop';
    default:
      return e instanceof Error ? e.message : String(e);
  }
}
