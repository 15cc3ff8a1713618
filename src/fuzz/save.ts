/**
 * Saves a fuzz finding as an authorization.parse vector (schema
 * vectors/schema/authorization.schema.json): a new file, or appended to a given one after its
 * own text, byte for byte as it was (never a case replaced, never the file rewritten).
 * @module
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { headerParseCase } from '../generate/counterexample.js';
import { readFolderFile } from '../vectors/files.js';
import { DEFAULT_VECTOR_LIMITS, type VectorLimits } from '../vectors/limits.js';
import { DEFAULT_VECTORS_DIR } from '../vectors/load.js';
import { describeYamlProblem, parseVectorYaml } from '../vectors/yaml.js';
import { appendCases } from '../vectors/write.js';
import { kitVersion } from '../version.js';
import type { FuzzFinding } from './run.js';

/** The flag of every case `pgv2kit fuzz --save` writes (explained in vectors/notes.yaml). */
export const FUZZ_FLAG = 'FuzzFinding';


/** The case written for a finding. */
export interface SavedCase {
  readonly id: string;
  readonly file: string;
  readonly created: boolean;
}

/**
 * Builds the vector case of a finding.
 * @param finding - the finding
 * @param id - the case id
 * @param date - when (ISO date)
 * @returns the case object, schema-valid
 */
export function findingCase(finding: FuzzFinding, id: string, date: Date = new Date()): Record<string, unknown> {
  const provenance = { generator: 'pgv2kit fuzz', seed: finding.replay, kitVersion: kitVersion(), date: date.toISOString().slice(0, 10) };
  return { ...headerParseCase(finding.header, { id, comment: `Found by pgv2kit fuzz: ${oneLine(finding.reason)}`, provenance, flags: [FUZZ_FLAG] }, finding.oracle.answers) };
}

/**
 * Writes the finding as a new case `authorization.fuzz-<n>` (the next free n among the
 * kit's vectors, the file's folder and the file).
 * @param finding - the finding
 * @param file - the vector file: created when missing, else the case is appended
 * @param date - when (default now)
 * @returns the id and file
 * @throws {Error} when the file exists but is not an authorization vector file
 */
export function saveFinding(finding: FuzzFinding, file: string, date: Date = new Date(), limits: VectorLimits = DEFAULT_VECTOR_LIMITS): SavedCase {
  const data = existsSync(file) ? (readYaml(file, limits) as { kind?: unknown; cases?: unknown } | null) : { kind: 'authorization', cases: [] };
  if (data === null || typeof data !== 'object' || data.kind !== 'authorization' || !Array.isArray(data.cases)) {
    throw new Error(`${file} is not an authorization vector file (kind: authorization, cases: […])`);
  }
  const used = usedFuzzNumbers([join(DEFAULT_VECTORS_DIR, 'authorization'), dirname(file)], data.cases, limits);
  let n = 1;
  while (used.has(n)) n += 1;
  const id = `authorization.fuzz-${n}`;
  const { created } = appendCases(file, FINDINGS_FILE, [findingCase(finding, id, date)]);
  return { id, file, created };
}

// --- internal ---

const FINDINGS_FILE = { kind: 'authorization', title: 'Authorization header parse: findings of pgv2kit fuzz', description: 'Headers on which an implementation broke R8, shrunk by pgv2kit fuzz; the result and expectation are every answer R8 allows.\n' };

/** A vector file's data, read as untrusted input (a regular file, within the limits). */
function readYaml(file: string, limits: VectorLimits): unknown {
  const read = readFolderFile(file, limits.fileBytes);
  if (!read.ok) throw new Error(`${file} ${read.message}`);
  const parsed = parseVectorYaml(read.bytes.toString('utf8'), limits);
  if (!parsed.ok) throw new Error(`${file} ${describeYamlProblem(parsed)}`);
  return parsed.data;
}

function usedFuzzNumbers(dirs: readonly string[], cases: readonly unknown[], limits: VectorLimits): Set<number> {
  const used = new Set<number>();
  const note = (text: string): void => {
    for (const m of text.matchAll(/authorization\.fuzz-(\d+)/g)) used.add(Number(m[1]));
  };
  for (const c of cases) note(JSON.stringify(c));
  for (const dir of dirs) {
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
    } catch {
      continue;
    }
    for (const name of names) {
      const read = readFolderFile(join(dir, name), limits.fileBytes);
      if (!read.ok) throw new Error(`${join(dir, name)} ${read.message}: the fuzz-<n> ids it uses cannot be known`);
      note(read.bytes.toString('utf8'));
    }
  }
  return used;
}

function oneLine(text: string): string {
  const flat = text.replace(/[\r\n\t]+/g, ' ').replace(/[^\x20-\x7e\u00a1-\uffff]/gu, '?');
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
