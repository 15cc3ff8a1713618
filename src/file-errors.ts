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

/**
 * Why a file is not JSON, in words that never quote the file: the parser's own message quotes the text around the
 * error (`Unexpected token 'r', "root:x:0:0"... is not valid JSON`), and a file given by mistake may hold a secret.
 * @param e - what JSON.parse threw
 * @returns where the syntax breaks, when the parser says, e.g. `a syntax error at line 3, column 7`
 * @example jsonSyntaxProblem(new SyntaxError('Unexpected end of JSON input')) // 'it ends before its JSON does'
 * @example
 * jsonSyntaxProblem(new SyntaxError(`Unexpected token 'r', "root:x:0"... is not valid JSON`)) // 'a syntax error'
 */
export function jsonSyntaxProblem(e: unknown): string {
  const message = e instanceof Error ? e.message : '';
  const at = /at position (\d+)(?: \(line (\d+) column (\d+)\))?/.exec(message);
  if (at?.[2] !== undefined) return `a syntax error at line ${at[2]}, column ${at[3] ?? ''}`;
  if (at) return `a syntax error at character ${at[1] ?? ''}`;
  if (/Unexpected end of JSON input/.test(message)) return 'it ends before its JSON does';
  return 'a syntax error';
}
