/**
 * Writes generated cases into a vectors folder without ever overwriting a file or a
 * case: a new file (created exclusively), or with `append` new cases after an existing
 * file's. The `Generated` flag is added to notes.yaml when missing. The whole set is
 * then loaded (and so validated); on failure everything written is undone.
 * @module
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parse } from 'yaml';
import { loadVectorSet } from '../vectors/load.js';
import type { VectorLimits } from '../vectors/limits.js';
import type { VectorSet } from '../vectors/types.js';
import { appendCases, type Appended } from '../vectors/write.js';
import { GENERATED_FLAG, GENERATED_NOTE, type GeneratedCase } from './generate.js';

/** The target file exists and appending was not asked for (a usage error). */
export class TargetExistsError extends Error {
  readonly code = 'PGV2_GENERATE_EXISTS';
  override readonly name = 'TargetExistsError';
}

/** What {@link writeCases} did. */
export interface WriteResult {
  readonly file: string;
  readonly appended: boolean;
  readonly ids: readonly string[];
  readonly notesUpdated: boolean;
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
  readonly cases: readonly GeneratedCase[];
  readonly append?: boolean;
  /** The limits the set is loaded under once written (default: the loader's). */
  readonly limits?: VectorLimits;
}

/**
 * The vectors folder a file belongs to: the folder above its area folder.
 * @param file - absolute path of a vector file
 * @param area - the area the file must be in
 * @returns the vectors folder, or undefined when the file is not directly in `<area>/`
 */
export function vectorsRootOf(file: string, area: string): string | undefined {
  const folder = dirname(file);
  return basename(folder) === area ? dirname(folder) : undefined;
}

/**
 * Writes the cases, then loads the whole set; on any failure undoes what it wrote.
 * @param o - {@link WriteOptions}
 * @returns what was written and the set as loaded
 * @throws {TargetExistsError} when the file exists and `append` is not set
 * @throws {VectorSetError} when the written set does not load (everything undone)
 */
export function writeCases(o: WriteOptions): WriteResult {
  const exists = existsSync(o.file);
  if (exists && !o.append) throw new TargetExistsError(`${o.file} exists: it is never overwritten (give --append to add the cases after its own, or another --out)`);
  const notesPath = join(o.root, 'notes.yaml');
  // a folder of one's own cases may have no notes.yaml (the kit's flags apply): one is made for the flag
  const notesBefore = existsSync(notesPath) ? readFileSync(notesPath, 'utf8') : undefined;
  const notes = notesBefore === undefined ? {} : ((parse(notesBefore) as { flags?: Record<string, unknown> } | null)?.flags ?? {});
  const notesUpdated = !(GENERATED_FLAG in notes);
  let written: Appended | undefined;
  try {
    if (notesUpdated) writeFileSync(notesPath, notesBefore === undefined ? `kind: notes\ntitle: Flags of the cases in this folder (the kit's own flags apply too)\nflags:\n${noteText()}` : notesBefore + (notesBefore.endsWith('\n') ? '' : '\n') + noteText());
    written = appendCases(o.file, { kind: o.area, title: o.title }, o.cases);
    const set = loadVectorSet(o.root, o.limits ? { limits: o.limits } : {});
    return { file: o.file, appended: !written.created, ids: o.cases.map((c) => c.id), notesUpdated, set };
  } catch (e) {
    written?.undo();
    if (notesUpdated) {
      if (notesBefore === undefined) rmSync(notesPath, { force: true });
      else writeFileSync(notesPath, notesBefore);
    }
    throw e;
  }
}

function noteText(): string {
  const q = (s: string): string => JSON.stringify(s);
  return `  ${GENERATED_FLAG}:\n    bugType: ${GENERATED_NOTE.bugType}\n    description: ${q(GENERATED_NOTE.description)}\n    effect: ${q(GENERATED_NOTE.effect)}\n`;
}
