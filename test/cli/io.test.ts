import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileErrorReason } from '../../src/cli/_files.js';
import { fileSystemReason as reason } from '../../src/file-errors.js';
import { MIN_REDACTED_SECRET_LENGTH, processIo, redactingIo, type CliIo } from '../../src/cli/io.js';

afterEach(() => vi.restoreAllMocks());

describe('processIo', () => {
  it('writes to the process streams and reads its environment and folder', () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const io = processIo();
    io.stdout('to stdout\n');
    io.stderr('to stderr\n');
    expect(out).toHaveBeenCalledWith('to stdout\n');
    expect(err).toHaveBeenCalledWith('to stderr\n');
    expect(io.env).toBe(process.env);
    expect(io.cwd).toBe(process.cwd());
  });

  it('reads all of standard input as bytes', async () => {
    const stdin = Readable.from([Buffer.from([0x7b, 0x0a]), Buffer.from([0xff, 0x7d])]);
    vi.spyOn(process, 'stdin', 'get').mockReturnValue(stdin as unknown as typeof process.stdin);
    expect(await processIo().readStdin?.()).toEqual(Uint8Array.from([0x7b, 0x0a, 0xff, 0x7d]));
  });
});

describe('redactingIo', () => {
  it('masks every secret long enough to be searched for, in both streams', () => {
    let text = '';
    const io: CliIo = { stdout: (s) => void (text += s), stderr: (s) => void (text += s), env: {}, cwd: '/' };
    const secrets = new Set(['abcdef', 'xyz']);
    const r = redactingIo(io, secrets);
    r.stdout('abcdef and xyz\n');
    secrets.add('and xyz');
    r.stderr('abcdef and xyz\n');
    expect(MIN_REDACTED_SECRET_LENGTH).toBe(6);
    expect(text).toBe('ab**** (6 chars) and xyz\nab**** (6 chars) an***** (7 chars)\n');
  });
});

describe('file error reasons', () => {
  it.each([
    [{ code: 'ENOENT' }, 'no such file or folder'],
    [{ code: 'EISDIR' }, 'is a folder, not a file'],
    [{ code: 'ENOTDIR' }, 'a part of the path is not a folder'],
    [{ code: 'EACCES' }, 'permission denied'],
    [{ code: 'EPERM' }, 'permission denied'],
    [{ code: 'ELOOP' }, 'a symlink loop'],
    [Object.assign(new Error('disk on fire'), { code: 'EIO' }), 'disk on fire'],
    ['a string', 'a string'],
  ])('%j', (e, text) => {
    expect(reason(e)).toBe(text);
  });

  it('only file system errors have a reason', () => {
    expect(fileErrorReason(Object.assign(new Error('x'), { code: 'ENOENT', path: '/a' }))).toBe(
      'no such file or folder (/a)',
    );
    expect(fileErrorReason(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe('no such file or folder');
    expect(fileErrorReason(new Error('x'))).toBeUndefined();
    expect(fileErrorReason(null)).toBeUndefined();
    expect(fileErrorReason(Object.assign(new Error('x'), { code: 'ERR_SOMETHING' }))).toBeUndefined();
  });
});
