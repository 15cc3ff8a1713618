/**
 * Where a command writes vector cases (`generate --out`/`--dir`, `run --save`, `fuzz --save`): a
 * .yaml file in an area folder of a vectors folder, checked before anything runs — never inside an
 * installed kit, never an existing file of the kit's own vectors — with each refusal a usage error
 * that names the file and what to do; and what the writing made and refused on, in words.
 * @module
 */
import { basename } from 'node:path';
import { VectorSetError, formatProblem } from '../vectors/errors.js';
import type { VectorLimits } from '../vectors/limits.js';
import { takenIds, vectorTargetProblem, vectorsRootOf } from '../vectors/target.js';
import { refuseInsideInstalledKit } from './_installed.js';
import { UsageError } from './command.js';

/** A vector file to write, its vectors folder and its area. */
export interface VectorFileTarget {
  readonly file: string;
  readonly root: string;
  readonly area: string;
}

/**
 * Checks a file given to an option: a .yaml file directly in one of the area folders, which
 * can be written (what is missing of its folders is made when it is).
 * @param file - the absolute path
 * @param areas - the areas it may be in
 * @param option - the option, for messages (`--save`)
 * @returns the file, its vectors folder and area
 * @throws {UsageError} naming the file and the problem
 * @example vectorFileTarget(`${tmp}/vectors/signature/found.yaml`, ['signature'], '--save').root // `${tmp}/vectors`
 */
export function vectorFileTarget(file: string, areas: readonly string[], option: string): VectorFileTarget {
  for (const area of areas) {
    const root = vectorsRootOf(file, area);
    if (root !== undefined && file.endsWith('.yaml')) return checkedTarget({ file, root, area }, option);
  }
  throw new UsageError(
    `${option} takes a .yaml file in the ${areas.map((a) => `${a}/`).join(', ')} folder of a vectors folder, ` +
      `not ${JSON.stringify(file)}`,
  );
}

/**
 * Checks a target: not inside an installed kit, its folders can be made, and not an existing file
 * of the kit's own vectors.
 * @param target - the file, its vectors folder and area
 * @param option - the option, for messages
 * @returns the target
 * @throws {UsageError} naming the file and the problem
 * @example
 * checkedTarget(
 *   { file: `${tmp}/mine/signature/a.yaml`, root: `${tmp}/mine`, area: 'signature' },
 *   '--dir',
 * ).area // 'signature'
 */
export function checkedTarget(target: VectorFileTarget, option: string): VectorFileTarget {
  refuseInsideInstalledKit(target.file, option);
  const problem = vectorTargetProblem(target.root, target.area, target.file);
  if (problem !== undefined) throw new UsageError(`${option}: ${problem}`);
  return target;
}

/**
 * Checks, before a run or a fuzz that may end by writing there, that the target's vectors folder
 * loads (when it exists): a folder that does not is refused now, every problem named, not after
 * the work is done.
 * @param target - the target
 * @param option - the option, for messages
 * @param limits - the limits its files are read under
 * @returns the target
 * @throws {UsageError} naming every problem of the folder's set
 * @example
 * loadableTarget(
 *   vectorFileTarget(`${tmp}/mine/authorization/found.yaml`, ['authorization'], '--save'),
 *   '--save',
 * ).area // 'authorization'
 */
export function loadableTarget<T extends VectorFileTarget>(target: T, option: string, limits?: VectorLimits): T {
  try {
    takenIds(target.root, limits ? { limits } : {});
  } catch (e) {
    throw new UsageError(`${option}: the vector set in ${target.root} does not load: ${problemsText(e)}`);
  }
  return target;
}

/**
 * What writing made, as a line, or nothing.
 * @param made - the paths made (folders, notes.yaml)
 * @returns e.g. `made /p/vectors/, /p/vectors/signature/ and /p/vectors/notes.yaml\n`
 * @example madeLine(['/p/mine/authorization']) // 'made /p/mine/authorization/\n'
 */
export function madeLine(made: readonly string[]): string {
  if (made.length === 0) return '';
  const names = made.map((p) => (basename(p) === 'notes.yaml' ? p : `${p}/`));
  return `made ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`}\n`;
}

/**
 * Why a vectors folder could not be loaded or written, every problem on a line of its own.
 * @param e - what was thrown
 * @returns the text, e.g. `2 problems in the vector files:\n  signature/a.yaml: at /: title is required\n  …`
 * @example problemsText(new VectorSetError([{ file: 'a.yaml', pointer: '', message: 'bad' }]))
 */
export function problemsText(e: unknown): string {
  if (e instanceof VectorSetError)
    return (
      `${e.problems.length} problem${e.problems.length === 1 ? '' : 's'} in the vector files:\n` +
      `${e.problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`
    );
  return e instanceof Error ? e.message : String(e);
}
