/**
 * The subject the suites run against: the reference by default, or the in-process
 * module named by PGV2KIT_SUBJECT (see src/subjects/module-subject.ts for what it
 * exports).
 *
 *   PGV2KIT_SUBJECT=./my-subject.ts npx vitest run suites
 */
import { loadModuleSubject } from '../../src/subjects/module-subject.js';
import { createReferenceSubject } from '../../src/subjects/reference.js';
import type { Subject } from '../../src/subjects/subject.js';
import { DEFAULT_VECTORS_DIR } from '../../src/vectors/load.js';

/**
 * Loads the subject named by PGV2KIT_SUBJECT, or the reference.
 * @returns the subject
 */
export async function loadSubject(): Promise<Subject> {
  const path = process.env['PGV2KIT_SUBJECT'];
  return path ? loadModuleSubject(path) : createReferenceSubject();
}

/** The vectors folder the suites load: PGV2KIT_VECTORS, or the kit's own. */
export const VECTORS_DIR = process.env['PGV2KIT_VECTORS'] ?? DEFAULT_VECTORS_DIR;
