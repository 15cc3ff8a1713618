/**
 * Loads and validates the vector set: every YAML file is parsed, checked against
 * the JSON Schema of its kind (vectors/schema/, draft 2020-12, with ajv), then the
 * set is checked as a whole (unique ids, flags explained in the notes table,
 * superseded cases pointing at existing ones). A bad file is refused with the file,
 * the case id and the JSON pointer of each problem.
 * @module
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { listYamlFiles, readFolderFile, toPosix, type FolderFile } from './files.js';
import { DEFAULT_VECTOR_LIMITS, type VectorLimits } from './limits.js';
import { describeYamlProblem, parseVectorYaml } from './yaml.js';
import { contentKey, readSnapshot } from './snapshot.js';
import {
  type FlagNote,
  type LoadedCase,
  type MerchantCase,
  type RequirementEntry,
  type VectorCase,
  type VectorKind,
  type VectorSet,
} from './types.js';

/**
 * The vectors folder shipped with the kit.
 * @example loadVectorSet(DEFAULT_VECTORS_DIR).cases.length
 */
export const DEFAULT_VECTORS_DIR = fileURLToPath(new URL('../../vectors', import.meta.url));

export { VectorInputError, VectorSchemaError, VectorSetError, formatProblem, type VectorProblem } from './errors.js';
import { VectorInputError, VectorSchemaError, VectorSetError, type VectorProblem } from './errors.js';
import { createAjv } from './ajv.js';
import { SCHEMA_KINDS, isVectorKind } from './kinds.js';

/** How a vectors folder is read. */
export interface LoadOptions {
  /** The ceilings on its files (default {@link DEFAULT_VECTOR_LIMITS}). */
  readonly limits?: VectorLimits;
}

/**
 * Loads and validates every vector file under a folder.
 * @param root - the vectors folder (default: the kit's own)
 * @param options - {@link LoadOptions}
 * @returns the vector set
 * @throws {VectorInputError} listing every file refused (not a regular file in the folder, over a limit), with every
 * other problem
 * @throws {VectorSetError} listing every problem, when any file (or a schema) is bad
 * @example const set = loadVectorSet(); set.cases.length
 */
export function loadVectorSet(root: string = DEFAULT_VECTORS_DIR, options: LoadOptions = {}): VectorSet {
  const limits = options.limits ?? DEFAULT_VECTOR_LIMITS;
  // a folder whose files are byte for byte those of the kit's own, checked when the kit was built, loads from that
  // check
  const snapshot = readSnapshot();
  if (snapshot !== undefined && contentKey(root, limits) === snapshot.key) return { root, ...snapshot.set() };
  return loadVectorSetInFull(root, limits);
}

/**
 * Loads and checks a vector set from its files, every time ({@link loadVectorSet} takes the
 * build's snapshot for a folder whose content is the kit's own).
 * @param root - the vectors folder
 * @param limits - the ceilings on its files
 * @returns the vector set
 * @throws {VectorInputError} when a file is refused (with every other problem)
 * @throws {VectorSetError} listing every problem, when any file (or a schema) is bad
 * @example
 * import { mkdirSync } from 'node:fs';
 * mkdirSync(`${tmp}/mine`);
 * loadVectorSetInFull(`${tmp}/mine`).cases.length // 0 — a folder of one's own, checked against the kit's schemas
 */
export function loadVectorSetInFull(root: string, limits: VectorLimits = DEFAULT_VECTOR_LIMITS): VectorSet {
  // a folder of one's own cases (pgv2kit vectors init) needs no copy of the kit's schemas or notes:
  // without schema/ it is checked against the kit's; its notes.yaml, if any, adds to the kit's flags
  const own = resolve(root) !== resolve(DEFAULT_VECTORS_DIR);
  const validators = compileSchemas(own && !existsSync(join(root, 'schema')) ? DEFAULT_VECTORS_DIR : root, limits);
  const listing = listYamlFiles(root, limits);
  const problems: VectorProblem[] = listing.refusals.map((r) => ({
    file: toPosix(relative(root, r.path)) || '.',
    pointer: '',
    message: r.message,
    refused: true,
  }));
  const hash = createHash('sha256');
  const files: Array<VectorSet['files'][number]> = [];
  const cases: LoadedCase[] = [];
  let notes: Record<string, FlagNote> = {};
  const requirements: Record<string, RequirementEntry> = {};

  const notesPath = join(root, 'notes.yaml');
  const ownNotes = !own || existsSync(notesPath);
  const notesData = ownNotes ? readYaml(root, { path: notesPath, real: notesPath }, limits, problems, hash) : undefined;
  if (notesData !== undefined) {
    if (validate(validators.notes, notesData, 'notes.yaml', problems))
      notes = (notesData as { flags: Record<string, FlagNote> }).flags;
  }
  // the flags a folder explains itself are the ones whose use it answers for (an unused one is a
  // warning), but for those a command writes cases with (writtenBy): explained ahead of their cases
  const explainedHere = new Set(Object.keys(notes).filter((flag) => notes[flag]?.writtenBy === undefined));
  if (own) notes = { ...kitSet().notes, ...notes };

  for (const listed of listing.files) {
    const file = toPosix(relative(root, listed.path));
    if (file === 'notes.yaml') continue;
    const folder = file.split('/')[0] ?? '';
    if (!isVectorKind(folder) || file.split('/').length !== 2) {
      problems.push({ file, pointer: '', message: `not in a vector kind folder (${SCHEMA_KINDS.join(', ')})` });
      continue;
    }
    const data = readYaml(root, listed, limits, problems, hash);
    if (data === undefined) continue;
    const kind = (data as { kind?: unknown }).kind;
    if (kind !== folder) {
      problems.push({
        file,
        pointer: '/kind',
        message: `kind is ${JSON.stringify(kind)}, but the file is in the ${folder}/ folder`,
      });
      continue;
    }
    if (!validate(validators[folder], data, file, problems)) continue;
    const doc = data as { title: string; cases: VectorCase[]; requirements?: Record<string, RequirementEntry> };
    for (const [id, entry] of Object.entries(doc.requirements ?? {})) {
      if (id in requirements)
        problems.push({
          file,
          pointer: `/requirements/${id}`,
          message: `requirement ${id} is already defined in another file`,
        });
      else requirements[id] = entry;
    }
    files.push({ file, kind: folder, title: doc.title, cases: doc.cases.length });
    for (const c of doc.cases) cases.push({ case: { ...c, kind: folder } as VectorCase, file });
  }

  const warnings = [...checkSet(cases, notes, problems, explainedHere), ...checkRoles(cases, requirements, problems)];
  if (own) {
    // run beside the kit's (--vectors kit,<folder>), an id the kit has would be refused: said now
    const kitIds = new Map(kitSet().cases.map((c) => [c.case.id, c.file]));
    for (const c of cases) {
      const kitFile = kitIds.get(c.case.id);
      if (kitFile !== undefined)
        warnings.push(
          `${c.file}: case ${c.case.id} has the id of a case of the kit's vectors (${kitFile}): ` +
            'run beside them (--vectors kit,…) it is refused; give it an id of its own',
        );
    }
  }
  if (problems.some((p) => p.refused)) throw new VectorInputError(problems);
  if (problems.length > 0) throw new VectorSetError(problems);
  return { root, files, cases, notes, requirements, warnings, hash: hash.digest('hex') };
}

/**
 * Loads several vector folders as one set — the kit's own and a folder of one's own cases
 * (`run --vectors kit,./my-vectors`): each folder checked as {@link loadVectorSet} checks it, then
 * the ids unique across them all. The files of every folder but the first are named with the
 * folder as given (`my-vectors/signature/extra.yaml`).
 * @param folders - the folders, each with the label its files are named by (the first's: none)
 * @param options - {@link LoadOptions}
 * @returns one set: the first folder's root, every file and case, the notes of all, one hash over all
 * @throws {VectorInputError} / {@link VectorSetError} as {@link loadVectorSet}, and for an id in two folders
 * @example
 * import { mkdirSync } from 'node:fs';
 * mkdirSync(`${tmp}/mine`);
 * const both = loadVectorSets([{ root: DEFAULT_VECTORS_DIR }, { root: `${tmp}/mine`, label: 'mine' }]);
 * both.cases.length === set.cases.length // true
 */
export function loadVectorSets(
  folders: ReadonlyArray<{ readonly root: string; readonly label?: string }>,
  options: LoadOptions = {},
): VectorSet {
  const [first, ...rest] = folders;
  if (!first) throw new VectorSetError([{ file: '.', pointer: '', message: 'no vectors folder given' }]);
  if (rest.length === 0) return loadVectorSet(first.root, options);
  const sets = folders.map((f) => ({
    label: f.label,
    kit: resolve(f.root) === resolve(DEFAULT_VECTORS_DIR),
    set: loadVectorSet(f.root, options),
  }));
  const name = (label: string | undefined, file: string): string => (label ? `${label}/${file}` : file);
  const cases = sets.flatMap(({ label, set }) => set.cases.map((c) => ({ ...c, file: name(label, c.file) })));
  const problems: VectorProblem[] = [];
  const seen = new Map<string, string>();
  for (const { label, kit, set } of sets) {
    for (const c of set.cases) {
      const file = name(label, c.file);
      const where = seen.get(c.case.id);
      if (where !== undefined)
        problems.push({
          file,
          caseId: c.case.id,
          pointer: '',
          message: `id ${c.case.id} is already used in ${where}: the ids of every folder run together must differ`,
        });
      else seen.set(c.case.id, kit ? `${file} of the kit's vectors` : file);
    }
  }
  const requirements: Record<string, RequirementEntry> = {};
  for (const { set } of sets) Object.assign(requirements, set.requirements);
  if (problems.length > 0) throw new VectorSetError(problems);
  const hash = createHash('sha256');
  for (const { set } of sets) hash.update(set.hash);
  return {
    root: first.root,
    files: sets.flatMap(({ label, set }) => set.files.map((f) => ({ ...f, file: name(label, f.file) }))),
    cases,
    notes: Object.assign({}, ...sets.map(({ set }) => set.notes)) as Record<string, FlagNote>,
    requirements,
    warnings: sets.flatMap(({ label, set }) => set.warnings.map((w) => name(label, w))),
    hash: hash.digest('hex'),
  };
}

/**
 * The cases that run: every case not superseded.
 * @param set - a loaded set
 * @returns the live cases
 * @example liveCases(loadVectorSet()).length
 */
export function liveCases(set: Pick<VectorSet, 'cases'>): LoadedCase[] {
  return set.cases.filter((c) => c.case.supersededBy === undefined);
}

// --- internal ---

/** The kit's own set, loaded once a process for what a folder of one's own borrows from it (its flags, its ids). */
let kitCache: VectorSet | undefined;
function kitSet(): VectorSet {
  kitCache ??= loadVectorSet(DEFAULT_VECTORS_DIR);
  return kitCache;
}

type Validators = Record<VectorKind | 'notes', ValidateFunction>;

/**
 * Compiled validators by the content of the schemas they came from (copies of a folder share them; a changed schema
 * does not).
 */
const compiled = new Map<string, Validators>();

/**
 * Compiles the schemas of a vectors folder, once per distinct content of its schema files.
 * @throws {VectorSetError} when a schema is missing, is not JSON or does not compile
 */
function compileSchemas(root: string, limits: VectorLimits): Validators {
  const schemaDir = join(root, 'schema');
  const names = ['common', ...SCHEMA_KINDS, 'notes'] as const;
  const texts = new Map<string, string>();
  const key = createHash('sha256');
  for (const name of names) {
    const file = `schema/${name}.schema.json`;
    const read = readFolderFile(join(schemaDir, `${name}.schema.json`), limits.fileBytes);
    if (!read.ok)
      throw new VectorSchemaError([{ file, pointer: '', message: read.missing ? 'is missing' : read.message }]);
    const text = read.bytes.toString('utf8');
    texts.set(name, text);
    key.update(`${name}\0${text}\0`);
  }
  const digest = key.digest('hex');
  const cached = compiled.get(digest);
  if (cached) return cached;
  const ajv = createAjv();
  const load = (name: string): object => {
    try {
      return JSON.parse(texts.get(name) ?? '') as object;
    } catch (e) {
      throw new VectorSchemaError([
        { file: `schema/${name}.schema.json`, pointer: '', message: `is not JSON: ${(e as Error).message}` },
      ]);
    }
  };
  const compile = (name: string): ValidateFunction => {
    const schema = load(name);
    try {
      return ajv.compile(schema);
    } catch (e) {
      throw new VectorSchemaError([
        { file: `schema/${name}.schema.json`, pointer: '', message: `does not compile: ${(e as Error).message}` },
      ]);
    }
  };
  ajv.addSchema(load('common'));
  const validators = Object.fromEntries(
    [...SCHEMA_KINDS, 'notes' as const].map((k) => [k, compile(k)] as const),
  ) as Validators;
  compiled.set(digest, validators);
  return validators;
}

function readYaml(
  root: string,
  listed: FolderFile,
  limits: VectorLimits,
  problems: VectorProblem[],
  hash: ReturnType<typeof createHash>,
): unknown {
  const file = toPosix(relative(root, listed.path));
  const read = readFolderFile(listed.real, limits.fileBytes);
  if (!read.ok) {
    problems.push({ file, pointer: '', message: read.message, refused: true });
    return undefined;
  }
  const bytes = read.bytes;
  hash.update(`${file}\0`).update(bytes).update('\0');
  const text = bytes.toString('utf8');
  if (Buffer.from(text, 'utf8').compare(bytes) !== 0) {
    problems.push({ file, pointer: '', message: 'is not valid UTF-8' });
    return undefined;
  }
  // a file parsed before (byte for byte the same, under the same limits) is not parsed again: a
  // copy of a vectors folder with one file changed parses that file only
  const key = createHash('sha256').update(JSON.stringify(limits)).update(bytes).digest('hex');
  const known = parsed.get(key);
  if (known !== undefined) return structuredClone(known);
  const result = parseVectorYaml(text, limits);
  if (!result.ok) {
    problems.push({
      file,
      pointer: '',
      message: describeYamlProblem(result),
      ...(result.line !== undefined ? { line: result.line } : {}),
      ...(result.refused ? { refused: true } : {}),
    });
    return undefined;
  }
  if (parsed.size >= PARSED_LIMIT) parsed.delete(parsed.keys().next().value ?? '');
  parsed.set(key, structuredClone(result.data));
  return result.data;
}

/** Parsed YAML files by the SHA-256 of their bytes (the oldest dropped past {@link PARSED_LIMIT}). */
const parsed = new Map<string, unknown>();
const PARSED_LIMIT = 512;

function validate(fn: ValidateFunction, data: unknown, file: string, problems: VectorProblem[]): boolean {
  if (fn(data)) return true;
  for (const err of pickErrors(fn.errors ?? [])) {
    const caseIndex = /^\/cases\/(\d+)/.exec(err.instancePath)?.[1];
    const caseId = caseIndex === undefined ? undefined : idAt(data, Number(caseIndex));
    problems.push({ file, ...(caseId ? { caseId } : {}), pointer: err.instancePath, message: describeError(err) });
  }
  return false;
}

/** The most specific errors: composite keywords are dropped when a deeper error explains them. */
function pickErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const composite = new Set(['oneOf', 'anyOf', 'allOf', 'if', 'then', 'else', 'not']);
  const specific = errors.filter((e) => !composite.has(e.keyword));
  const chosen = specific.length > 0 ? specific : [...errors];
  const seen = new Set<string>();
  return chosen.filter((e) => {
    const key = `${e.instancePath} ${describeError(e)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function describeError(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${String(p['missingProperty'])} is required`;
    case 'additionalProperties':
      return `${String(p['additionalProperty'])} is not allowed here`;
    case 'unevaluatedProperties':
      return `${String(p['unevaluatedProperty'])} is not allowed here`;
    case 'const':
      return `must be ${JSON.stringify(p['allowedValue'])}`;
    case 'enum':
      return `must be one of ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return e.message ?? e.keyword;
  }
}

function idAt(data: unknown, index: number): string | undefined {
  const c = (data as { cases?: unknown[] }).cases?.[index] as { id?: unknown } | undefined;
  return typeof c?.id === 'string' ? c.id : undefined;
}

function checkSet(
  cases: readonly LoadedCase[],
  notes: Record<string, FlagNote>,
  problems: VectorProblem[],
  explainedHere: ReadonlySet<string>,
): string[] {
  const byId = new Map<string, LoadedCase>();
  const used = new Set<string>();
  cases.forEach((lc) => {
    const { id } = lc.case;
    const index = cases.filter((o) => o.file === lc.file).indexOf(lc);
    const at = (rest: string): string => `/cases/${index}${rest}`;
    const first = byId.get(id);
    if (first)
      problems.push({
        file: lc.file,
        caseId: id,
        pointer: at('/id'),
        message: `id ${id} is already used in ${first.file}`,
      });
    else byId.set(id, lc);
    lc.case.flags.forEach((flag, i) => {
      used.add(flag);
      if (!(flag in notes))
        problems.push({
          file: lc.file,
          caseId: id,
          pointer: at(`/flags/${i}`),
          message: `flag ${flag} is not explained in notes.yaml`,
        });
    });
  });
  for (const lc of cases) {
    const target = lc.case.supersededBy;
    if (target !== undefined && (target === lc.case.id || !byId.has(target))) {
      const index = cases.filter((o) => o.file === lc.file).indexOf(lc);
      problems.push({
        file: lc.file,
        caseId: lc.case.id,
        pointer: `/cases/${index}/supersededBy`,
        message: `supersededBy names ${target}, which is not another case`,
      });
    }
  }
  return [...explainedHere]
    .filter((flag) => !used.has(flag))
    .map((flag) => `notes.yaml: flag ${flag} is explained but no case uses it`);
}

/** Merchant cases: each serves a requirement of the table; a replay names an earlier case of the same operation. */
function checkRoles(
  cases: readonly LoadedCase[],
  requirements: Record<string, RequirementEntry>,
  problems: VectorProblem[],
): string[] {
  const served = new Set<string>();
  const seen = new Map<string, MerchantCase>();
  for (const lc of cases) {
    const c = lc.case;
    if (c.kind !== 'merchant') continue;
    const at = `/cases/${cases.filter((o) => o.file === lc.file).indexOf(lc)}`;
    served.add(c.requirement);
    if (!(c.requirement in requirements))
      problems.push({
        file: lc.file,
        caseId: c.id,
        pointer: `${at}/requirement`,
        message: `requirement ${c.requirement} is not in a requirements table`,
      });
    if (c.advisory && c.result !== 'acceptable')
      problems.push({
        file: lc.file,
        caseId: c.id,
        pointer: `${at}/result`,
        message: 'an advisory case has the result acceptable',
      });
    const replayed = c.inputs.replayOf;
    if (replayed !== undefined) {
      const earlier = seen.get(replayed);
      if (!earlier || earlier.op !== c.op)
        problems.push({
          file: lc.file,
          caseId: c.id,
          pointer: `${at}/inputs/replayOf`,
          message: `replayOf names ${replayed}, which is not an earlier ${c.op} case`,
        });
      else if (!c.advisory)
        problems.push({
          file: lc.file,
          caseId: c.id,
          pointer: `${at}/advisory`,
          message: 'a replay is advisory (R12): set advisory: true',
        });
    }
    seen.set(c.id, c);
  }
  return Object.keys(requirements)
    .filter((id) => !served.has(id))
    .map((id) => `requirement ${id} is defined but no case serves it`);
}
