/**
 * The vectors as JSON any language's unit tests can load without the kit (issue 13, item 1), as
 * Wycheproof's are: one file per vector file, self-describing — its schema, the kit's version,
 * the vector-set hash, `numberOfTests`, the notes of every flag its cases use and the text of
 * every reading they cite — and every byte string as hex (`bodyHex`, `contentHex`, …), with the
 * text beside it where the bytes are valid UTF-8. A JSON Schema per file kind, and an index.
 * @module
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readingTexts } from '../docs/readings.js';
import { fromBase64, utf8 } from '../scheme/bytes.js';
import { KIT_NAME, kitVersion } from '../version.js';
import { liveCases } from './load.js';
import { SCHEMA_KINDS } from './kinds.js';
import type { VectorKind, VectorSet } from './types.js';

/** What the export's files say they are: `schema` names the file's JSON Schema (in `schema/`). */
export const EXPORT_FORMAT = 'pgv2kit-vectors-json/1';

/** The keys whose values are bytes: given as text (UTF-8) or, with `B64`, as base64 in the YAML. */
const BYTE_KEYS = new Set(['body', 'content', 'file', 'data']);

/** One exported vector file. */
export interface ExportedFile {
  readonly schema: string;
  readonly format: typeof EXPORT_FORMAT;
  readonly kit: { readonly name: string; readonly version: string };
  readonly vectorSetHash: string;
  readonly kind: VectorKind;
  /** The YAML file it comes from, relative to the vectors folder. */
  readonly source: string;
  readonly title: string;
  readonly numberOfTests: number;
  /** Every flag its cases use: bug type, description, effect, readings. */
  readonly notes: Readonly<Record<string, unknown>>;
  /** Every reading its cases or notes cite: the point the spec leaves open, and the kit's reading. */
  readonly readings: Readonly<Record<string, { readonly point: string; readonly reading: string }>>;
  readonly tests: readonly unknown[];
}

/** What {@link exportVectorsJson} wrote. */
export interface ExportSummary {
  readonly dir: string;
  readonly files: ReadonlyArray<{ readonly file: string; readonly kind: VectorKind; readonly numberOfTests: number }>;
  readonly numberOfTests: number;
}

/**
 * Writes the JSON export of a vector set into `out` (emptied first): `<kind>/<name>.json` per
 * vector file, `schema/<kind>.schema.json` per kind, and `index.json`.
 * @param set - the loaded vector set
 * @param out - the folder (created; what was in it is replaced)
 * @returns what was written
 * @example exportVectorsJson(set, `${tmp}/vectors-json`)
 */
export function exportVectorsJson(set: VectorSet, out: string): ExportSummary {
  const done = join(dirname(out), `.${basename(out)}.${process.pid}.tmp`);
  rmSync(done, { recursive: true, force: true });
  try {
    const summary = writeExport(set, done);
    // whole or not at all: the earlier export goes only once the new one is complete
    rmSync(out, { recursive: true, force: true });
    renameSync(done, out);
    return { ...summary, dir: out };
  } catch (e) {
    rmSync(done, { recursive: true, force: true });
    throw e;
  }
}

/**
 * Whether a folder may be replaced by an export: it does not exist, is empty, or holds an
 * earlier export (its index.json says so) — never a folder of anything else.
 * @param dir - the folder
 * @returns undefined when it may, else why not
 * @example
 * exportTargetProblem(
 *   DEFAULT_VECTORS_DIR,
 * ) // 'it is not empty and holds no earlier export (give a new or empty folder)'
 */
export function exportTargetProblem(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  if (!statSync(dir).isDirectory()) return 'it is not a folder';
  if (readdirSync(dir).length === 0) return undefined;
  let index: { format?: unknown; files?: unknown };
  try {
    index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as typeof index;
  } catch {
    index = {};
  }
  if (index.format !== EXPORT_FORMAT) return 'it is not empty and holds no earlier export (give a new or empty folder)';
  // an export replaces only what an export wrote: a file added to it since is never removed (issue 25, item 3)
  const listed = new Set<string>(['index.json', ...SCHEMA_KINDS.map((k) => `schema/${k}.schema.json`)]);
  if (Array.isArray(index.files))
    for (const f of index.files as Array<{ file?: unknown }>) if (typeof f?.file === 'string') listed.add(f.file);
  const added = filesUnder(dir)
    .filter((f) => !listed.has(f))
    .sort();
  if (added.length === 0) return undefined;
  const shown = `${added.slice(0, 3).join(', ')}${added.length > 3 ? ', …' : ''}`;
  return (
    `it holds files the earlier export did not write (${shown}): ` +
    'they are never removed; give a new or empty folder'
  );
}

/** The files under a folder, as paths relative to it with `/` (folders themselves not listed). */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(dir, `${prefix}${d.name}/`) : [`${prefix}${d.name}`],
  );
}

function writeExport(set: VectorSet, out: string): ExportSummary {
  const readings = readingTexts();
  const live = liveCases(set);
  mkdirSync(join(out, 'schema'), { recursive: true });
  const files: Array<{ file: string; kind: VectorKind; numberOfTests: number }> = [];
  for (const f of set.files) {
    const cases = live.filter((l) => l.file === f.file).map((l) => l.case);
    const flags = [...new Set(cases.flatMap((c) => c.flags))].sort();
    const notes = Object.fromEntries(flags.filter((flag) => set.notes[flag]).map((flag) => [flag, set.notes[flag]]));
    const cited = new Set<string>([
      ...cases.flatMap((c) => c.readings),
      ...flags.flatMap((flag) => set.notes[flag]?.readings ?? []),
    ]);
    const quoted = Object.fromEntries(
      [...cited].sort(byNumber).flatMap((id) => {
        const r = readings.get(id);
        return r ? [[id, { point: r.point, reading: r.reading }]] : [];
      }),
    );
    const exported: ExportedFile = {
      schema: `schema/${f.kind}.schema.json`,
      format: EXPORT_FORMAT,
      kit: { name: KIT_NAME, version: kitVersion() },
      vectorSetHash: set.hash,
      kind: f.kind,
      source: f.file,
      title: f.title,
      numberOfTests: cases.length,
      notes,
      readings: quoted,
      tests: cases.map((c) => withHex(c)),
    };
    const file = f.file.replace(/\.ya?ml$/, '.json');
    mkdirSync(dirname(join(out, file)), { recursive: true });
    writeFileSync(join(out, file), `${JSON.stringify(exported, null, 2)}\n`);
    files.push({ file, kind: f.kind, numberOfTests: cases.length });
  }
  for (const kind of SCHEMA_KINDS)
    writeFileSync(join(out, 'schema', `${kind}.schema.json`), `${JSON.stringify(exportSchema(kind), null, 2)}\n`);
  const numberOfTests = files.reduce((n, f) => n + f.numberOfTests, 0);
  const index = {
    format: EXPORT_FORMAT,
    kit: { name: KIT_NAME, version: kitVersion() },
    vectorSetHash: set.hash,
    numberOfTests,
    files,
  };
  writeFileSync(join(out, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);
  return { dir: out, files, numberOfTests };
}

/**
 * A value with every byte string given as hex: `bodyB64` becomes `bodyHex` (and `body`, when its
 * bytes are valid UTF-8), a text `body` gains `bodyHex` (the hex of its UTF-8).
 * @param value - a case, or any part of one
 * @returns the value for the export
 * @example withHex({ body: 'a' }) // { body: 'a', bodyHex: '61' }
 */
export function withHex(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withHex);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const base = key.endsWith('B64') ? key.slice(0, -3) : key;
    if (key.endsWith('B64') && BYTE_KEYS.has(base) && typeof v === 'string') {
      const bytes = fromBase64(v);
      const text = asUtf8(bytes);
      if (text !== undefined) out[base] = text;
      out[`${base}Hex`] = Buffer.from(bytes).toString('hex');
    } else if (BYTE_KEYS.has(key) && typeof v === 'string') {
      out[key] = v;
      out[`${key}Hex`] = Buffer.from(utf8(v)).toString('hex');
    } else {
      out[key] = withHex(v);
    }
  }
  return out;
}

/**
 * The JSON Schema of an exported file of one kind: the header strictly; the tests with the fields
 * every case has, and for signature files every input and expected value.
 * @param kind - the vector kind
 * @returns the schema
 */
export function exportSchema(kind: VectorKind): Record<string, unknown> {
  const hex = { type: 'string', pattern: '^([0-9a-f]{2})*$' };
  const sign = { type: 'string', pattern: '^[0-9a-fA-F]{64}$' };
  const text = { type: 'string' };
  const content = { content: text, contentHex: hex, sign };
  const signatureTest = {
    properties: {
      inputs: {
        type: 'object',
        required: ['appId', 'appSecret', 'method', 'url', 'timestamp', 'nonce', 'bodyHex'],
        properties: {
          appId: text,
          appSecret: text,
          method: text,
          url: text,
          timestamp: text,
          nonce: text,
          body: text,
          bodyHex: hex,
        },
      },
      expected: { type: 'object', required: ['contentHex', 'sign'], properties: content },
      // a mistaken signer's sign, and its content when the mistake is in the content (not for upper-case hex or an
      // HMAC)
      candidate: { type: 'object', required: ['sign'], properties: content },
    },
    required: ['expected'],
  };
  const test = {
    type: 'object',
    required: [
      'id',
      'comment',
      'spec',
      'readings',
      'flags',
      'result',
      'inputs',
      ...(kind === 'signature' ? signatureTest.required : []),
    ],
    properties: {
      id: { type: 'string', pattern: `^${kind}\\.` },
      comment: text,
      spec: { type: 'array', items: text },
      readings: { type: 'array', items: { type: 'string', pattern: '^R[0-9]+$' } },
      flags: { type: 'array', items: text },
      result: { enum: ['valid', 'invalid', 'acceptable'] },
      inputs: { type: 'object' },
      ...(kind === 'signature' ? signatureTest.properties : {}),
    },
  };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${kind}.schema.json`,
    title: `pgv2kit ${kind} vectors, as JSON`,
    description:
      'Byte strings are hex (…Hex), with the text beside them (body, content, …) where ' +
      'the bytes are valid UTF-8; every other string is text, to be encoded as UTF-8.',
    type: 'object',
    additionalProperties: false,
    required: [
      'schema',
      'format',
      'kit',
      'vectorSetHash',
      'kind',
      'source',
      'title',
      'numberOfTests',
      'notes',
      'readings',
      'tests',
    ],
    properties: {
      schema: { const: `schema/${kind}.schema.json` },
      format: { const: EXPORT_FORMAT },
      kit: { type: 'object', required: ['name', 'version'], properties: { name: text, version: text } },
      vectorSetHash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      kind: { const: kind },
      source: text,
      title: text,
      numberOfTests: { type: 'integer', minimum: 0 },
      notes: { type: 'object', additionalProperties: { type: 'object', required: ['bugType', 'description'] } },
      readings: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          required: ['point', 'reading'],
          properties: { point: text, reading: text },
        },
      },
      tests: { type: 'array', items: test },
    },
  };
}

// --- internal ---

function asUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function byNumber(a: string, b: string): number {
  return Number(a.slice(1)) - Number(b.slice(1)) || a.localeCompare(b);
}
