/**
 * What goes wrong loading a vector set, as data and as errors (a module of its own: the CLI
 * reports these without loading the loader, its YAML parser or its schema compiler).
 * @module
 */
import { Pgv2kitError } from '../errors.js';

/** One thing wrong with a vector file. */
export interface VectorProblem {
  /** The file, relative to the vectors folder. */
  readonly file: string;
  /** The id of the case the problem is in, when it is in a case. */
  readonly caseId?: string;
  /** JSON pointer of the problem inside the file's data, e.g. `/cases/3/expected/sign`. */
  readonly pointer: string;
  /** What is wrong; a problem of the file's text says its line and column in it too. */
  readonly message: string;
  /** The line in the file, when the problem has one (a YAML error, a refused string or nesting). */
  readonly line?: number;
  /** True when the file was refused as input (not read, or over a limit) rather than found wrong. */
  readonly refused?: boolean;
}

/**
 * The vector set could not be loaded: every problem found, each naming file, case and pointer.
 * @example
 * import { loadVectorSets } from './load.js';
 * loadVectorSets([]) // throws VectorSetError — no vectors folder given
 */
export class VectorSetError extends Pgv2kitError {
  /** Stable code for programs. */
  override readonly code: string = 'PGV2_VECTORS_INVALID';
  /** A usage error (exit 2). */
  override readonly exit = 'usage';
  override readonly name: string = 'VectorSetError';
  constructor(readonly problems: readonly VectorProblem[]) {
    super(
      `${problems.length} problem${problems.length === 1 ? '' : 's'} ` +
        `in the vector files:\n${problems.map(formatProblem).join('\n')}`,
    );
  }
}

/**
 * The schemas of a vectors folder are missing or broken: a configuration error, not a bad vector.
 * @example
 * new VectorSchemaError([
 *   { file: 'schema/signature.schema.json', pointer: '', message: 'bad' },
 * ]) instanceof VectorSetError // true
 */
export class VectorSchemaError extends VectorSetError {
  override readonly code: string = 'PGV2_VECTOR_SCHEMA';
  override readonly name: string = 'VectorSchemaError';
}

/**
 * A vectors folder the kit refuses to read as it is: a file that is not a regular file inside the
 * folder, or one over a limit (size, string, nesting, aliases). An input error, like a missing
 * schema: the set was not judged.
 * @example loadVectorSet(`${tmp}/missing`) // throws VectorInputError — a folder that cannot be read
 */
export class VectorInputError extends VectorSetError {
  override readonly code: string = 'PGV2_VECTORS_REFUSED';
  override readonly name: string = 'VectorInputError';
}

/**
 * One line naming a problem: `file: case <id> at <pointer>: <message>`.
 * @param p - the problem
 * @returns the line
 * @example formatProblem({ file: 'a.yaml', pointer: '/cases/0/id', message: 'bad' }) // 'a.yaml: at /cases/0/id: bad'
 */
export function formatProblem(p: VectorProblem): string {
  return `${p.file}: ${p.caseId ? `case ${p.caseId} ` : ''}at ${p.pointer || '/'}: ${p.message}`;
}
