/**
 * What `pgv2kit vectors` does, loaded only when the command runs (vectors.ts declares it:
 * its options and help load without this file's imports).
 * @module
 */
import {
  DEFAULT_VECTORS_DIR,
  VectorInputError,
  VectorSchemaError,
  VectorSetError,
  formatProblem,
  liveCases,
  loadVectorSet,
  type VectorProblem,
} from '../../vectors/load.js';
import { caseCount } from '../../vectors/counts.js';
import { VECTOR_KINDS } from '../../roles/registry.js';
import type { ExpectedResult, VectorKind, VectorSet } from '../../vectors/types.js';
import { fileErrorReason, requireFolder, resolvePath } from '../_files.js';
import { exportTargetProblem, exportVectorsJson } from '../../vectors/export.js';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { signatureCase } from '../../generate/generate.js';
import { writeCases } from '../../generate/write.js';
import { kitVersion } from '../../version.js';
import { refuseInsideInstalledKit } from '../_installed.js';
import { formatTable } from '../_table.js';
import { vectorLimitsOf } from '../vector-limit-options.js';
import { UsageError, type CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { shellQuote } from '../../shell-quote.js';
import type { KindCounts, VectorsProblemReport, VectorsReport, vectorsOptions } from './vectors.js';

/**
 * Runs `pgv2kit vectors`.
 * @param context - the parsed options and the io
 * @returns the exit code
 */
export async function runVectors({ values, positionals, io }: CommandContext<typeof vectorsOptions>): Promise<number> {
  const action = positionals[0];
  if (action !== undefined && action !== 'export' && action !== 'init')
    throw new UsageError(`unknown action ${JSON.stringify(action)}: vectors takes export, init <dir>, or nothing`);
  if (action === 'init') return initFolder(positionals.slice(1), values, io);
  if (positionals.length > 1) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[1])}`);
  let out: string | undefined;
  if (action === 'export') {
    if (values.format === undefined || values.out === undefined)
      throw new UsageError('vectors export needs --format json and --out <dir>');
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
      if (values.json) {
        const report = {
          ok: false,
          dir,
          refused: e instanceof VectorInputError,
          problems: e.problems,
        } satisfies VectorsProblemReport;
        io.stdout(`${JSON.stringify(report, null, 2)}\n`);
      } else io.stdout(formatProblems(dir, e.problems));
      // a file refused as input (not a regular file in the folder, over a limit): the set was not judged
      return e instanceof VectorInputError ? EXIT.usage : EXIT.nonconformance;
    }
    // A folder the user named that cannot be loaded (a schema missing or broken) is a
    // configuration error; the kit's own folder failing is the tool failing (exit 3).
    if (values.dir === undefined) throw e;
    const reason =
      e instanceof VectorSchemaError
        ? e.problems.map(formatProblem).join('; ')
        : (fileErrorReason(e) ?? (e instanceof Error ? e.message : String(e)));
    throw new UsageError(`cannot load the vector set in ${dir}: ${reason}`);
  }
  if (out !== undefined) {
    try {
      const written = exportVectorsJson(set, out);
      io.stdout(
        `exported ${written.numberOfTests} cases of ${written.files.length} vector files ` +
          `(vector set ${set.hash.slice(0, 12)}) to ${out}: ` +
          '<kind>/<file>.json, schema/<kind>.schema.json, index.json\n',
      );
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
 * `vectors init <dir>`: a folder for one's own cases — a README, and one example case, signed by
 * the kit and checked as every case is — that loads with the kit's schemas and flags (no copy of
 * them) and runs beside the kit's (`run --vectors kit,<dir>`).
 */
function initFolder(
  args: readonly string[],
  values: {
    readonly dir?: string | undefined;
    readonly json?: boolean | undefined;
    readonly format?: string | undefined;
    readonly out?: string | undefined;
  },
  io: CommandContext<typeof vectorsOptions>['io'],
): number {
  if (args.length !== 1) throw new UsageError('vectors init takes one folder: pgv2kit vectors init <dir>');
  if (values.dir !== undefined || values.json || values.format !== undefined || values.out !== undefined)
    throw new UsageError('vectors init takes only the folder');
  const root = resolvePath(io.cwd, args[0] ?? '');
  refuseInsideInstalledKit(root, 'the folder');
  if (existsSync(root) && (!statSync(root).isDirectory() || readdirSync(root).length > 0))
    throw new UsageError(`${root} exists and is not an empty folder: vectors init makes a new one`);
  mkdirSync(join(root, 'signature'), { recursive: true });
  writeFileSync(join(root, 'README.md'), OWN_README);
  const parts = {
    appId: 'app_own_example',
    appSecret: 'sk_test_own_example_secret',
    method: 'POST',
    url: 'https://pg.example.com/pg/v2/payment/create',
    timestamp: '1718090412337',
    nonce: 'own-example-nonce-1',
    body: new TextEncoder().encode('{"merchantTradeNo":"OWN-1","amount":"1.00","currency":"EUR"}'),
  };
  const example = signatureCase(
    parts,
    'signature.own-example',
    { generator: 'pgv2kit vectors init', kitVersion: kitVersion() },
    'An example of a case of your own: replace it with yours (the ids of every folder run together must differ).',
  );
  try {
    writeCases({
      root,
      file: join(root, 'signature', 'own.yaml'),
      area: 'signature',
      title: "Cases of our own, beside the kit's",
      cases: [example],
      append: false,
    });
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
  io.stdout(
    `made ${root}: README.md, signature/own.yaml (one example case), notes.yaml\n` +
      `check it:  pgv2kit vectors --dir ${shellQuote(args[0] ?? '')}\n` +
      `run it:    pgv2kit run --vectors ${shellQuote(`kit,${args[0] ?? ''}`)} --testee '<your adapter>'\n`,
  );
  return EXIT.ok;
}

const OWN_README = `# Vector cases of our own

Made by \`pgv2kit vectors init\`. Put cases in the area folders the kit uses (signature/,
authorization/, request/, response/, webhook/, redirect/, upload/, client/, gateway/, merchant/),
one YAML file or more each, in the kit's format (its docs/guide/own-vectors.md, "Reading a
vector", and vectors/README.md, kind by kind). They are checked
against the kit's schemas and flags — no copy of them here; a notes.yaml here may add flags of
your own. Ids must differ from the kit's (prefix them, e.g. signature.acme-…).

    pgv2kit vectors --dir .                          # check them
    pgv2kit run --vectors kit,. --testee "<adapter>"  # run them with the kit's
    pgv2kit generate --seed 1 --count 5 --area signature --dir .   # generated cases, here
`;

/**
 * Counts a loaded set per area and result.
 * @param set - the loaded set
 * @returns the report `--json` prints
 * @example summarise(loadVectorSet()).total.cases
 */
export function summarise(set: VectorSet): VectorsReport {
  const zero = (): Record<keyof KindCounts, number> => ({
    files: 0,
    cases: 0,
    valid: 0,
    invalid: 0,
    acceptable: 0,
    superseded: 0,
  });
  const areas = Object.fromEntries(VECTOR_KINDS.map((k) => [k, zero()])) as Record<
    VectorKind,
    Record<keyof KindCounts, number>
  >;
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
  return {
    ok: true,
    dir: set.root,
    hash: set.hash,
    areas,
    total,
    files: set.files,
    flags: Object.keys(set.notes).length,
    warnings: set.warnings,
  };
}

// --- internal ---

function formatReport(r: VectorsReport): string {
  const row = (name: string, c: KindCounts): Array<string | number> => [
    name,
    c.files,
    c.cases,
    c.valid,
    c.invalid,
    c.acceptable,
    c.superseded,
  ];
  const table = formatTable(
    ['kind', 'files', 'cases', 'valid', 'invalid', 'acceptable', 'superseded'],
    [...VECTOR_KINDS.map((k) => row(k, r.areas[k])), row('total', r.total)],
    '  ',
  );
  const warnings =
    r.warnings.length === 0
      ? 'warnings: none\n'
      : `warnings (${r.warnings.length}):\n${r.warnings.map((w) => `  ${w}\n`).join('')}`;
  const counts = { cases: r.total.cases + r.total.superseded, superseded: r.total.superseded, live: r.total.cases };
  const notes =
    resolve(r.dir) === resolve(DEFAULT_VECTORS_DIR) ? ' in notes.yaml' : " (the kit's and this folder's notes.yaml)";
  return [
    `vector set ${r.dir}\n`,
    `hash (SHA-256 of the files) ${r.hash}\n`,
    '\n',
    table,
    '\n',
    `${caseCount(counts)} (the cases column: valid + invalid + acceptable, the cases that run; ` +
      'superseded cases stay in their files and never run)\n',
    // a folder of one's own has the kit's flags as well as those of its own notes.yaml
    `flags explained${notes}: ${r.flags}\n`,
    warnings,
    `OK: ${r.total.files} vector file${r.total.files === 1 ? '' : 's'} and notes.yaml are valid\n`,
  ].join('');
}

function formatProblems(dir: string, problems: readonly VectorProblem[]): string {
  const refused = problems.filter((p) => p.refused).length;
  const plural = problems.length === 1 ? '' : 's';
  const legend = '(file: case <id> at <JSON pointer>: message)\n';
  return [
    `vector set ${dir}\n`,
    problems.some((p) => p.refused)
      ? `REFUSED: ${refused} of the ${problems.length} problem${plural} below ` +
        `${refused === 1 ? 'is a file' : 'are files'} the kit does not read ${legend}`
      : `INVALID: ${problems.length} problem${plural} in the vector files ${legend}`,
    ...problems.map((p) => `  ${formatProblem(p)}\n`),
  ].join('');
}
