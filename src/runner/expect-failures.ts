/**
 * Expected-failure lists (`--expect-failures FILE`): the cases an implementation is
 * known to fail, each with a reason. A listed failure does not fail the run; a listed
 * case that passes does, until the list is updated (`--update-expect-failures`) — so a
 * list never goes stale (the model: protobuf's conformance failure lists).
 *
 * The file is YAML:
 *
 *     # pgv2kit expected failures
 *     - id: signature.body-bom-kept
 *       reason: the SDK strips a BOM (ticket 123)
 * @module
 */
import { readFileSync } from 'node:fs';
import { yaml } from '../deps.js';
import { DEFAULT_VECTOR_LIMITS } from '../vectors/limits.js';
import { describeYamlProblem, parseVectorYaml } from '../vectors/yaml.js';
import { writeFileAtomic } from '../atomic-file.js';
import { Pgv2kitError } from '../errors.js';

/** One listed case. */
export interface ExpectedFailure {
  readonly id: string;
  readonly reason: string;
}

/** The file is unreadable or malformed (a configuration error, exit 2). */
export class ExpectFailuresError extends Pgv2kitError {
  override readonly code = 'PGV2_EXPECT_FAILURES';
  /** A usage error (exit 2). */
  override readonly exit = 'usage';
  override readonly name = 'ExpectFailuresError';
}

/**
 * Reads an expected-failure list.
 * @param path - the YAML file
 * @param options - `missingOk`: a missing file is an empty list (for --update-expect-failures)
 * @returns the entries, by id
 * @throws {ExpectFailuresError} naming the file and the entry that is wrong
 * @example
 * writeExpectFailures(`${tmp}/sdk-failures.yaml`, [
 *   { id: 'signature.body-bom-kept', reason: 'our SDK keeps the BOM' },
 * ]);
 * readExpectFailures(`${tmp}/sdk-failures.yaml`).get('signature.body-bom-kept')?.reason // 'our SDK keeps the BOM'
 */
export function readExpectFailures(path: string, options: { missingOk?: boolean } = {}): Map<string, ExpectedFailure> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (options.missingOk && (e as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw new ExpectFailuresError(
      `cannot read the expected-failure list ${path}: ` +
        `${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
  }
  // a file the user gives, read like a vector file: within its nesting, string and alias limits
  const parsed = parseVectorYaml(text, DEFAULT_VECTOR_LIMITS);
  if (!parsed.ok) throw new ExpectFailuresError(`${path} ${describeYamlProblem(parsed)}`);
  const data = parsed.data;
  if (data === null || data === undefined) return new Map();
  if (!Array.isArray(data)) throw new ExpectFailuresError(`${path} must be a YAML list of {id, reason} entries`);
  const out = new Map<string, ExpectedFailure>();
  data.forEach((entry: unknown, i) => {
    const e = entry as { id?: unknown; reason?: unknown } | null;
    if (typeof e !== 'object' || e === null || typeof e.id !== 'string' || e.id === '')
      throw new ExpectFailuresError(`${path}: entry ${i + 1} has no id`);
    if (typeof e.reason !== 'string' || e.reason.trim() === '')
      throw new ExpectFailuresError(`${path}: entry ${i + 1} (${e.id}) has no reason`);
    const extra = Object.keys(e).filter((k) => k !== 'id' && k !== 'reason');
    if (extra.length) throw new ExpectFailuresError(`${path}: entry ${i + 1} (${e.id}) has unknown field ${extra[0]}`);
    if (out.has(e.id)) throw new ExpectFailuresError(`${path}: ${e.id} is listed twice`);
    out.set(e.id, { id: e.id, reason: e.reason });
  });
  return out;
}

/**
 * Writes an expected-failure list atomically, sorted by id.
 * @param path - the YAML file
 * @param entries - the entries
 * @example writeExpectFailures(`${tmp}/sdk-failures.yaml`, [{ id: 'signature.x', reason: 'known' }])
 */
export function writeExpectFailures(path: string, entries: readonly ExpectedFailure[]): void {
  const sorted = [...entries].sort((a, b) => a.id.localeCompare(b.id)).map((e) => ({ id: e.id, reason: e.reason }));
  const body = sorted.length ? yaml().stringify(sorted, { lineWidth: 0 }) : '[]\n';
  writeFileAtomic(
    path,
    '# pgv2kit expected failures: cases this implementation is known to fail, with the reason.\n# ' +
      `A listed case that passes fails the run; update with --update-expect-failures.\n${body}`,
  );
}
