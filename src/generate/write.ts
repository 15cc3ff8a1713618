/**
 * Writes generated cases into a vectors folder without ever overwriting a file or a
 * case: a new file (created exclusively), or with `append` new cases after an existing
 * file's. What the folder lacks is made (src/vectors/target.ts: the folder, the area
 * folder, notes.yaml); a file of the kit's own vectors is never edited. The whole set is
 * then loaded (and so validated); on failure everything written or made is undone.
 * @module
 */
import { existsSync } from 'node:fs';
import { loadVectorSet } from '../vectors/load.js';
import type { VectorLimits } from '../vectors/limits.js';
import { makeVectorFolder, vectorTargetProblem, VectorTargetError, type MadeFolder } from '../vectors/target.js';
import type { VectorSet } from '../vectors/types.js';
import { appendCases, type Appended } from '../vectors/write.js';
import type { GeneratedCase } from './generate.js';
import { Pgv2kitError } from '../errors.js';

export { vectorsRootOf } from '../vectors/target.js';

/** The target file exists and appending was not asked for (a usage error). */
export class TargetExistsError extends Pgv2kitError {
  override readonly code = 'PGV2_GENERATE_EXISTS';
  /** A usage error (exit 2). */
  override readonly exit = 'usage';
  override readonly name = 'TargetExistsError';
}

/** What {@link writeCases} did. */
export interface WriteResult {
  readonly file: string;
  readonly appended: boolean;
  readonly ids: readonly string[];
  /** What was made for the file: the vectors folder, the area folder, notes.yaml (each when missing). */
  readonly made: readonly string[];
  readonly set: VectorSet;
}

/** Options of {@link writeCases}. */
export interface WriteOptions {
  /** The vectors folder (holds notes.yaml, schema/ and the area folders). */
  readonly root: string;
  /** The file to write: `<root>/<area>/<name>.yaml`. */
  readonly file: string;
  readonly area: string;
  readonly title: string;
  /** The description of a new file. */
  readonly description?: string;
  readonly cases: readonly object[] | readonly GeneratedCase[];
  readonly append?: boolean;
  /** The limits the set is loaded under once written (default: the loader's). */
  readonly limits?: VectorLimits;
}

/**
 * Writes the cases, then loads the whole set; on any failure undoes what it wrote and made.
 * @param o - {@link WriteOptions}
 * @returns what was written and the set as loaded
 * @throws {TargetExistsError} when the file exists and `append` is not set
 * @throws {VectorTargetError} when the file may not be written there (a file of the kit's own vectors, a folder missing
 * above the vectors folder)
 * @throws {VectorSetError} when the written set does not load (everything undone)
 */
export function writeCases(o: WriteOptions): WriteResult {
  if (existsSync(o.file) && !o.append)
    throw new TargetExistsError(
      `${o.file} exists: it is never overwritten (give --append to add the cases after its own, or another --out)`,
    );
  const problem = vectorTargetProblem(o.root, o.area, o.file);
  if (problem !== undefined) throw new VectorTargetError(problem);
  let folder: MadeFolder | undefined;
  let written: Appended | undefined;
  try {
    folder = makeVectorFolder(o.root, o.area);
    written = appendCases(
      o.file,
      { kind: o.area, title: o.title, ...(o.description !== undefined ? { description: o.description } : {}) },
      o.cases,
    );
    const set = loadVectorSet(o.root, o.limits ? { limits: o.limits } : {});
    return {
      file: o.file,
      appended: !written.created,
      ids: o.cases.map((c) => (c as { id: string }).id),
      made: folder.made,
      set,
    };
  } catch (e) {
    written?.undo();
    folder?.undo();
    throw e;
  }
}
