/**
 * A vectors folder as the place a command writes cases (`generate`, `run --save`, `fuzz --save`):
 * a file in an area folder of a vectors folder. What is missing is made — the vectors folder
 * (inside an existing folder), its area folder, and a notes.yaml for flags of one's own, as
 * `vectors init` makes — and the kit's own vector files are never edited: in a clone of the kit a
 * new file may be written into its vectors folder (a contributor's new cases), never into an
 * existing file of it, and never its notes.yaml (the flags those commands write are explained
 * there already, `writtenBy`).
 * @module
 */
import { existsSync, mkdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileSystemReason } from '../file-errors.js';
import { DEFAULT_VECTORS_DIR, loadVectorSet, type LoadOptions } from './load.js';
import { Pgv2kitError } from '../errors.js';

/** The notes.yaml a folder gets when it has none: an empty table for flags of its own (the kit's apply). */
export const OWN_NOTES = [
  'kind: notes',
  "title: Flags of the cases in this folder (the kit's own flags apply too)",
  '# a flag of your own, explained once (the kit\'s vectors/README.md, "notes.yaml"):',
  '#   MyFlag: { bugType: EDGE_CASE, description: "What the cases with it have in common." }',
  'flags: {}',
  '',
].join('\n');

/** A vector file a command may not write where it was asked to (a usage error: nothing was written). */
export class VectorTargetError extends Pgv2kitError {
  /** Stable code for programs. */
  override readonly code = 'PGV2_VECTOR_TARGET';
  /** A usage error (exit 2). */
  override readonly exit = 'usage';
  override readonly name = 'VectorTargetError';
}

/**
 * The vectors folder a file belongs to: the folder above its area folder.
 * @param file - absolute path of a vector file
 * @param area - the area the file must be in
 * @returns the vectors folder, or undefined when the file is not directly in `<area>/`
 * @example vectorsRootOf('/p/mine/signature/a.yaml', 'signature') // '/p/mine'
 */
export function vectorsRootOf(file: string, area: string): string | undefined {
  const folder = dirname(file);
  return basename(folder) === area ? dirname(folder) : undefined;
}

/**
 * Whether a folder is the kit's own vectors folder (the one it ships with, a clone's `vectors/`).
 * @param root - a folder
 * @returns true when it is that folder (through any symlink)
 * @example isKitVectorsFolder(DEFAULT_VECTORS_DIR) // true
 */
export function isKitVectorsFolder(root: string): boolean {
  const real = (p: string): string => (existsSync(p) ? realpathSync(p) : resolve(p));
  return real(root) === real(DEFAULT_VECTORS_DIR);
}

/**
 * What stops a command from writing a vector file, checked before anything is written (and
 * before a run or a fuzz starts, so nothing is lost at the end).
 * @param root - the vectors folder
 * @param area - the area folder the file goes in
 * @param file - the file: `<root>/<area>/<name>.yaml`
 * @returns the problem in words, or undefined when the file can be written
 * @example vectorTargetProblem(`${tmp}/mine`, 'signature', `${tmp}/mine/signature/a.yaml`) // undefined
 */
export function vectorTargetProblem(root: string, area: string, file: string): string | undefined {
  const folders = folderProblem(root, area);
  if (folders !== undefined) return folders;
  const target = kindOf(file);
  if (target === 'folder') return `${file} is a folder`;
  if (target === 'file' && isKitVectorsFolder(root)) {
    return (
      `${file} is a file of the kit's own vectors: a command never edits one. Give a new file ` +
      `(${join(root, area)}/<new name>.yaml), or write to a folder of your own: pgv2kit vectors init my-vectors`
    );
  }
  return undefined;
}

/** What {@link makeVectorFolder} made, and how to take it back. */
export interface MadeFolder {
  /** What was made, in order: the vectors folder, the area folder, notes.yaml (each when it was missing). */
  readonly made: readonly string[];
  /** Removes what was made (nothing that was there before). */
  undo(): void;
}

/**
 * Makes what a vectors folder lacks for a file of an area: the folder itself (its parent must
 * exist), the area folder, and notes.yaml ({@link OWN_NOTES}) — never in the kit's own folder.
 * @param root - the vectors folder
 * @param area - the area folder
 * @returns what was made
 * @throws {VectorTargetError} when {@link vectorTargetProblem} names a problem
 * @example const { made, undo } = makeVectorFolder(`${tmp}/made`, 'authorization'); undo();
 */
export function makeVectorFolder(root: string, area: string): MadeFolder {
  const problem = folderProblem(root, area);
  if (problem !== undefined) throw new VectorTargetError(problem);
  const made: string[] = [];
  const undo = (): void => {
    for (const path of [...made].reverse()) rmSync(path, { recursive: true, force: true });
  };
  try {
    for (const folder of [root, join(root, area)]) {
      if (existsSync(folder)) continue;
      mkdirSync(folder);
      made.push(folder);
    }
    const notes = join(root, 'notes.yaml');
    if (!existsSync(notes) && !isKitVectorsFolder(root)) {
      writeFileSync(notes, OWN_NOTES, { flag: 'wx' });
      made.push(notes);
    }
  } catch (e) {
    undo();
    throw new VectorTargetError(`${root} cannot be written: ${fileSystemReason(e)}`);
  }
  return { made, undo };
}

/**
 * The ids a new case may not take: those of the folder's set (when the folder exists) and the
 * kit's (a folder of one's own runs beside them).
 * @param root - the vectors folder
 * @param options - how its files are read
 * @returns the ids, superseded cases' included
 * @throws {VectorSetError} listing every problem when the folder's set does not load
 * @example takenIds('/p/mine').includes('signature.final-lf-missing') // true
 */
export function takenIds(root: string, options: LoadOptions = {}): string[] {
  const ids = (folder: string, o: LoadOptions): string[] => loadVectorSet(folder, o).cases.map((c) => c.case.id);
  if (isKitVectorsFolder(root)) return ids(root, options);
  return [...ids(DEFAULT_VECTORS_DIR, {}), ...(existsSync(root) ? ids(root, options) : [])];
}

// --- internal ---

/** What a path is: a folder, a file, missing, or why it cannot be read. */
function kindOf(path: string): string {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch (e) {
    return (e as { code?: unknown }).code === 'ENOENT' ? 'missing' : fileSystemReason(e);
  }
}

/**
 * The folders of a vectors folder's area: the one above must exist; the vectors and area folders are folders or
 * missing.
 */
function folderProblem(root: string, area: string): string | undefined {
  const parent = dirname(root);
  const above = kindOf(parent);
  if (above !== 'folder') {
    const problem =
      above === 'missing' ? 'does not exist' : above === 'file' ? 'is a file' : `cannot be read: ${above}`;
    return `the folder the vectors folder goes in, ${parent}, ${problem}`;
  }
  for (const [path, what] of [
    [root, 'the vectors folder'],
    [join(root, area), `the ${area} folder`],
  ] as const) {
    const k = kindOf(path);
    if (k !== 'folder' && k !== 'missing')
      return `${what} ${path} ${k === 'file' ? 'is a file, not a folder' : `cannot be read: ${k}`}`;
  }
  return undefined;
}
