/**
 * Saves a fuzz finding as an authorization.parse vector (schema
 * vectors/schema/authorization.schema.json) in the authorization/ folder of a vectors folder: a
 * new file, or appended to a given one after its own text, byte for byte as it was (never a case
 * replaced, never the file rewritten, never a file of the kit's own vectors).
 * @module
 */
import { existsSync } from 'node:fs';
import { headerParseCase } from '../generate/counterexample.js';
import { writeCases } from '../generate/write.js';
import { DEFAULT_VECTOR_LIMITS, type VectorLimits } from '../vectors/limits.js';
import { VectorTargetError, takenIds, vectorsRootOf } from '../vectors/target.js';
import { kitVersion } from '../version.js';
import type { FuzzFinding } from './run.js';

/**
 * The flag of every case `pgv2kit fuzz --save` writes (explained in the kit's vectors/notes.yaml, `writtenBy: pgv2kit
 * fuzz --save`).
 */
export const FUZZ_FLAG = 'FuzzFinding';

/** The case written for a finding. */
export interface SavedCase {
  readonly id: string;
  readonly file: string;
  readonly created: boolean;
  /** What was made for the file: the vectors folder, the authorization folder, notes.yaml (each when missing). */
  readonly made: readonly string[];
}

/**
 * Builds the vector case of a finding.
 * @param finding - the finding
 * @param id - the case id
 * @param date - when (ISO date)
 * @returns the case object, schema-valid
 */
export function findingCase(finding: FuzzFinding, id: string, date: Date = new Date()): Record<string, unknown> {
  const provenance = {
    generator: 'pgv2kit fuzz',
    seed: finding.replay,
    kitVersion: kitVersion(),
    date: date.toISOString().slice(0, 10),
  };
  // the value the implementation parsed: over HTTP, without the SP/HTAB around it (RFC 9110 §5.5), which the oracle
  // judged
  return {
    ...headerParseCase(
      finding.received ?? finding.header,
      { id, comment: `Found by pgv2kit fuzz: ${oneLine(finding.reason)}`, provenance, flags: [FUZZ_FLAG] },
      finding.oracle.answers,
    ),
  };
}

/**
 * Writes the finding as a new case `authorization.fuzz-<n>` (the next free n among the ids of the
 * kit's vectors and of the file's vectors folder) into a file in the authorization/ folder of a
 * vectors folder: created when missing (with the folders it lacks), else the case is appended
 * after the file's own text. The folder's set is loaded before (to know its ids) and after (the
 * case validated); on a problem nothing is kept.
 * @param finding - the finding
 * @param file - the vector file: `<vectors folder>/authorization/<name>.yaml`
 * @param date - when (default now)
 * @param limits - the limits the folder's files are read under
 * @returns the id and file, and what was made for it
 * @throws {VectorTargetError} when the file is not in an authorization/ folder, or may not be written there
 * @throws {VectorSetError} when the folder's set does not load, before or after (every problem in the message)
 */
export function saveFinding(
  finding: FuzzFinding,
  file: string,
  date: Date = new Date(),
  limits: VectorLimits = DEFAULT_VECTOR_LIMITS,
): SavedCase {
  const root = vectorsRootOf(file, 'authorization');
  if (root === undefined || !file.endsWith('.yaml'))
    throw new VectorTargetError(`${file} is not a .yaml file in the authorization/ folder of a vectors folder`);
  const taken = new Set(takenIds(root, { limits }));
  let n = 1;
  while (taken.has(`authorization.fuzz-${n}`)) n += 1;
  const id = `authorization.fuzz-${n}`;
  const created = !existsSync(file);
  const written = writeCases({
    root,
    file,
    area: 'authorization',
    ...FINDINGS_FILE,
    cases: [findingCase(finding, id, date)],
    append: !created,
    limits,
  });
  return { id, file, created, made: written.made };
}

// --- internal ---

const FINDINGS_FILE = {
  title: 'Authorization header parse: findings of pgv2kit fuzz',
  description:
    'Headers on which an implementation broke R8, shrunk by pgv2kit ' +
    'fuzz; the result and expectation are every answer R8 allows.\n',
};

function oneLine(text: string): string {
  const flat = text.replace(/[\r\n\t]+/g, ' ').replace(/[^\x20-\x7e\u00a1-\uffff]/gu, '?');
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
