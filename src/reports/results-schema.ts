/**
 * The published JSON Schema of results.json (`results-v2.schema.json`, draft 2020-12, with ajv) and the check
 * `pgv2kit compare` applies to every file it reads (issue 25, item 4): a wrong type, a verdict the kit does not know,
 * a count out of bounds or a string or array over its limit is a problem naming the field's JSON pointer, never a
 * crash further on.
 * @module
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv } from '../vectors/ajv.js';
import schema from './results-v2.schema.json' with { type: 'json' };

/**
 * The JSON Schema of results.json (layout 2): what compare reads of it, with limits on every count, array and string.
 * @example
 * import { createAjv } from '../vectors/ajv.js';
 * createAjv().compile(RESULTS_SCHEMA)
 */
export const RESULTS_SCHEMA: object = schema;

/**
 * Checks a parsed results.json against {@link RESULTS_SCHEMA}.
 * @param value - the file's parsed JSON
 * @param most - how many problems to name at most
 * @returns the problems, one line each (`<JSON pointer>: <what is wrong>`); none when it is valid
 * @example checkResultsJson({ schemaVersion: 2 })[0] // '/vectorSetHash: is missing'
 * @example checkResultsJson({ schemaVersion: 2, cases: [null] }, 20).includes('/cases/0: must be object') // true
 */
export function checkResultsJson(value: unknown, most = 3): string[] {
  validate ??= createAjv().compile(schema);
  if (validate(value)) return [];
  const byPath = new Map<string, string[]>();
  for (const e of validate.errors ?? []) {
    if (COMPOSITE.has(e.keyword)) continue;
    const [path, message] = describe(e);
    const said = byPath.get(path) ?? [];
    if (!said.includes(message)) said.push(message);
    byPath.set(path, said);
  }
  return [...byPath].slice(0, most).map(([path, messages]) => `${path || '/'}: ${messages.join(' or ')}`);
}

// --- internal ---

let validate: ValidateFunction | undefined;

/** Keywords whose branches' own errors say what is wrong. */
const COMPOSITE = new Set(['oneOf', 'anyOf', 'allOf', 'if', 'then', 'else', 'not']);

function describe(e: ErrorObject): [string, string] {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return [`${e.instancePath}/${String(p['missingProperty'])}`, 'is missing'];
    case 'enum':
      return [e.instancePath, `must be one of ${(p['allowedValues'] as unknown[]).map((v) => String(v)).join(', ')}`];
    case 'const':
      return [e.instancePath, `must be ${JSON.stringify(p['allowedValue'])}`];
    default:
      return [e.instancePath, e.message ?? `breaks ${e.keyword}`];
  }
}
