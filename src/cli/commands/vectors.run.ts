/**
 * What `pgv2kit vectors` does, loaded only when the command runs (vectors.ts declares it:
 * its options and help load without this file's imports).
 * @module
 */
import { DEFAULT_VECTORS_DIR, VectorInputError, VectorSchemaError, VectorSetError, formatProblem, liveCases, loadVectorSet, type VectorProblem } from '../../vectors/load.js';
import { VECTOR_KINDS, type ExpectedResult, type VectorKind, type VectorSet } from '../../vectors/types.js';
import { fileErrorReason, requireFolder, resolvePath } from '../_files.js';
import { exportTargetProblem, exportVectorsJson } from '../../vectors/export.js';
import { formatTable } from '../_table.js';
import { vectorLimitsOf } from '../vector-limit-options.js';
import { UsageError, type CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { AreaCounts, VectorsProblemReport, VectorsReport, vectorsOptions } from './vectors.js';


/**
 * Runs `pgv2kit vectors`.
 * @param context - the parsed options and the io
 * @returns the exit code
 */
export async function runVectors({ values, positionals, io }: CommandContext<typeof vectorsOptions>): Promise<number> {
  const action = positionals[0];
  if (action !== undefined && action !== 'export') throw new UsageError(`unknown action ${JSON.stringify(action)}: vectors takes export, or nothing`);
  if (positionals.length > 1) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[1])}`);
  let out: string | undefined;
  if (action === 'export') {
    if (values.format === undefined || values.out === undefined) throw new UsageError('vectors export needs --format json and --out <dir>');
    if (values.format !== 'json') throw new UsageError(`--format must be json, not ${JSON.stringify(values.format)}`);
    if (values.json) throw new UsageError('--json prints the validation report: leave it out of vectors export');
    out = resolvePath(io.cwd, values.out);
    const problem = exportTargetProblem(out);
    if (problem) throw new UsageError(`--out ${out} cannot be written: ${problem}`);
  } else if (values.format !== undefined || values.out !== undefined) {
    throw new UsageError('--format and --out go with vectors export');
  }
  const dir = resolvePath(io.cwd, values.dir ?? DEFAULT_VECTORS_DIR);
  requireFolder(dir, `the vectors folder ${dir}`);
  const limits = vectorLimitsOf(values, io.env);
  let set: VectorSet;
  try {
    set = loadVectorSet(dir, { limits });
  } catch (e) {
    if (e instanceof VectorSetError && !(e instanceof VectorSchemaError)) {
      if (values.json) io.stdout(`${JSON.stringify({ ok: false, dir, refused: e instanceof VectorInputError, problems: e.problems } satisfies VectorsProblemReport, null, 2)}\n`);
      else io.stdout(formatProblems(dir, e.problems));
      // a file refused as input (not a regular file in the folder, over a limit): the set was not judged
      return e instanceof VectorInputError ? EXIT.usage : EXIT.nonconformance;
    }
    // A folder the user named that cannot be loaded (a schema missing or broken) is a
    // configuration error; the kit's own folder failing is the tool failing (exit 3).
    if (values.dir === undefined) throw e;
    const reason = e instanceof VectorSchemaError ? e.problems.map(formatProblem).join('; ') : (fileErrorReason(e) ?? (e instanceof Error ? e.message : String(e)));
    throw new UsageError(`cannot load the vector set in ${dir}: ${reason}`);
  }
  if (out !== undefined) {
    try {
      const written = exportVectorsJson(set, out);
      io.stdout(`exported ${written.numberOfTests} cases of ${written.files.length} vector files (vector set ${set.hash.slice(0, 12)}) to ${out}: <kind>/<file>.json, schema/<kind>.schema.json, index.json\n`);
    } catch (e) {
      const reason = fileErrorReason(e);
      if (reason === undefined) throw e;
      throw new UsageError(`--out ${out} cannot be written: ${reason}`);
    }
    return EXIT.ok;
  }
  const report = summarise(set);
  io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return EXIT.ok;
}

/**
 * Counts a loaded set per area and result.
 * @param set - the loaded set
 * @returns the report `--json` prints
 * @example summarise(loadVectorSet()).total.cases
 */
export function summarise(set: VectorSet): VectorsReport {
  const zero = (): Record<keyof AreaCounts, number> => ({ files: 0, cases: 0, valid: 0, invalid: 0, acceptable: 0, superseded: 0 });
  const areas = Object.fromEntries(VECTOR_KINDS.map((k) => [k, zero()])) as Record<VectorKind, Record<keyof AreaCounts, number>>;
  const total = zero();
  for (const f of set.files) {
    areas[f.kind].files++;
    total.files++;
  }
  const live = new Set(liveCases(set));
  for (const lc of set.cases) {
    const area = areas[lc.case.kind];
    if (!live.has(lc)) {
      area.superseded++;
      total.superseded++;
      continue;
    }
    const result: ExpectedResult = lc.case.result;
    area[result]++;
    area.cases++;
    total[result]++;
    total.cases++;
  }
  return { ok: true, dir: set.root, hash: set.hash, areas, total, files: set.files, flags: Object.keys(set.notes).length, warnings: set.warnings };
}

// --- internal ---

function formatReport(r: VectorsReport): string {
  const row = (name: string, c: AreaCounts): Array<string | number> => [name, c.files, c.cases, c.valid, c.invalid, c.acceptable, c.superseded];
  const table = formatTable(
    ['area', 'files', 'cases', 'valid', 'invalid', 'acceptable', 'superseded'],
    [...VECTOR_KINDS.map((k) => row(k, r.areas[k])), row('total', r.total)],
    '  ',
  );
  const warnings = r.warnings.length === 0 ? 'warnings: none\n' : `warnings (${r.warnings.length}):\n${r.warnings.map((w) => `  ${w}\n`).join('')}`;
  return [
    `vector set ${r.dir}\n`,
    `hash (SHA-256 of the files) ${r.hash}\n`,
    '\n',
    table,
    '\n',
    `cases counts the cases that run (valid + invalid + acceptable); superseded cases are kept in their files and never run\n`,
    `flags explained in notes.yaml: ${r.flags}\n`,
    warnings,
    `OK: ${r.total.files} vector file${r.total.files === 1 ? '' : 's'} and notes.yaml are valid\n`,
  ].join('');
}

function formatProblems(dir: string, problems: readonly VectorProblem[]): string {
  return [
    `vector set ${dir}\n`,
    problems.some((p) => p.refused)
      ? `REFUSED: ${problems.filter((p) => p.refused).length} of the ${problems.length} problem${problems.length === 1 ? '' : 's'} below ${problems.filter((p) => p.refused).length === 1 ? 'is a file' : 'are files'} the kit does not read (file: case <id> at <JSON pointer>: message)\n`
      : `INVALID: ${problems.length} problem${problems.length === 1 ? '' : 's'} in the vector files (file: case <id> at <JSON pointer>: message)\n`,
    ...problems.map((p) => `  ${formatProblem(p)}\n`),
  ].join('');
}
