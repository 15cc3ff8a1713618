/**
 * The subject the suites run against: the reference by default, or an in-process
 * module named by PGV2KIT_SUBJECT (a path to a JS/TS module exporting `subject` or
 * `createSubject()` that returns a Subject).
 *
 *   PGV2KIT_SUBJECT=./my-subject.ts npx vitest run suites
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createReferenceSubject } from '../../src/subjects/reference.js';
import type { Subject } from '../../src/subjects/subject.js';
import { DEFAULT_VECTORS_DIR } from '../../src/vectors/load.js';

/**
 * Loads the subject named by PGV2KIT_SUBJECT, or the reference.
 * @returns the subject
 */
export async function loadSubject(): Promise<Subject> {
  const path = process.env['PGV2KIT_SUBJECT'];
  if (!path) return createReferenceSubject();
  const mod = (await import(pathToFileURL(resolve(path)).href)) as { subject?: Subject; createSubject?: () => Subject | Promise<Subject> };
  const subject = mod.subject ?? (await mod.createSubject?.());
  if (!subject) throw new Error(`PGV2KIT_SUBJECT=${path} exports neither subject nor createSubject()`);
  return subject;
}

/** The vectors folder the suites load: PGV2KIT_VECTORS, or the kit's own. */
export const VECTORS_DIR = process.env['PGV2KIT_VECTORS'] ?? DEFAULT_VECTORS_DIR;
