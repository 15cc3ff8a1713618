/**
 * `pgv2kit vectors`: loads and validates every vector file and counts the cases
 * per kind and expected result.
 * @module
 */
import type { VectorProblem } from '../../vectors/load.js';
import type { VectorKind, VectorSet } from '../../vectors/types.js';
import { defineCommand, type OptionSpecs } from '../command.js';
import { vectorLimitOptions } from '../vector-limit-options.js';

/** Counts of one area (or of the whole set). */
export interface KindCounts {
  readonly files: number;
  /** Live cases (not superseded): valid + invalid + acceptable. */
  readonly cases: number;
  readonly valid: number;
  readonly invalid: number;
  readonly acceptable: number;
  /** Superseded cases, counted apart: kept in their files, never run. */
  readonly superseded: number;
}

/** The `--json` output of a valid set. */
export interface VectorsReport {
  readonly ok: true;
  readonly dir: string;
  readonly hash: string;
  readonly areas: Readonly<Record<VectorKind, KindCounts>>;
  readonly total: KindCounts;
  readonly files: VectorSet['files'];
  readonly flags: number;
  readonly warnings: readonly string[];
}

/** The `--json` output of a bad set. */
export interface VectorsProblemReport {
  readonly ok: false;
  readonly dir: string;
  /** True when files were refused unread (exit 2): the set was not judged. */
  readonly refused: boolean;
  readonly problems: readonly VectorProblem[];
}

/** The options of `pgv2kit vectors`. */
export const vectorsOptions = {
  dir: { type: 'string', valueName: '<dir>', description: 'The vectors folder', default: { shown: "the kit's own" } },
  json: { type: 'boolean', description: 'Print one JSON object instead of text' },
  format: { type: 'string', valueName: '<format>', description: 'export: the format (json, the only one)' },
  out: {
    type: 'string',
    valueName: '<dir>',
    description: 'export: the folder to write (new, empty, or an earlier export, replaced whole)',
  },
  ...vectorLimitOptions,
} as const satisfies OptionSpecs;

export const vectorsCommand = defineCommand({
  name: 'vectors',
  summary: 'Validate every vector file and count the cases per kind and result',
  usage:
    'pgv2kit vectors [--dir <vectors dir>] [--json]\n' +
    '       pgv2kit vectors export --format json --out <dir> [--dir <vectors dir>]\n' +
    '       pgv2kit vectors init <dir>',
  arguments: [
    { name: 'export', description: 'Write the set as JSON files any language can load without the kit (--out)' },
    {
      name: 'init <dir>',
      description: "Make a folder for cases of one's own, checked with the kit's schemas and flags",
    },
  ],
  description: [
    'Loads every YAML file of the vectors folder, checks each against the JSON Schema of',
    'its kind (vectors/schema/) and the set as a whole (unique ids, flags explained in',
    'notes.yaml, superseded cases pointing at existing ones), then prints the number of',
    'files and cases per kind and expected result (valid, invalid, acceptable), the',
    'superseded cases apart, the vector-set hash and the warnings. A bad set prints',
    'every problem with its file, case id and JSON pointer.',
    '',
    'vectors export --format json --out <dir> writes one JSON file per vector file, as',
    "Wycheproof's: schema, kit version, vector-set hash, numberOfTests, the notes of every",
    'flag used and the text of every reading cited, inline; every byte string as hex',
    '(bodyHex, contentHex, …) with its text beside it where it is valid UTF-8; a JSON',
    "Schema per kind in schema/ and an index.json. The kit's own export ships prebuilt in",
    'the package: vectors-json/.',
    '',
    "vectors init <dir> makes a folder for cases of one's own (a README and one example",
    "case): it needs no copy of the kit's schemas or notes — a folder without schema/ is",
    "checked against the kit's, and its notes.yaml adds to the kit's flags — and runs beside",
    "the kit's with pgv2kit run --vectors kit,<dir>.",
  ].join('\n'),
  options: vectorsOptions,
  exitCodes: {
    0: 'every vector file is valid (warnings do not fail)',
    1: 'a vector file is bad: every problem is printed',
    2:
      'usage or configuration error, or a file refused unread: a symlink out of the folder, a FIFO or device, ' +
      'a file or string over its limit, nesting or aliases past theirs (every one printed)',
  },
  examples: [
    'pgv2kit vectors',
    'pgv2kit vectors --dir ./my-vectors --json',
    'pgv2kit vectors export --format json --out ./pgv2kit-vectors',
    'pgv2kit vectors init ./my-vectors',
  ],
  run: async (context) => (await import('./vectors.run.js')).runVectors(context),
});
