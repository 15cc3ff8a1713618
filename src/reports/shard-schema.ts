/**
 * The published JSON Schema of a shard file (`shard.schema.json`, draft 2020-12, with ajv): what
 * `pgv2kit merge` checks a shard.json against before it trusts any of it. Every count, array and
 * string is bounded; a problem is one line naming the field's JSON pointer, e.g.
 * `/model/shard/count: must be an integer from 1 to 1000`, and never quotes more than a few
 * characters of what the file holds.
 * @module
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import schema from './shard.schema.json' with { type: 'json' };
import { createAjv } from '../vectors/ajv.js';

/**
 * The JSON Schema of a shard file (shipped as `dist/reports/shard.schema.json`).
 * @example
 * import { createAjv } from '../vectors/ajv.js';
 * createAjv().compile(SHARD_SCHEMA)({ format: 'pgv2kit-shard/1' }) // false: no model
 */
export const SHARD_SCHEMA: object = schema;

/** How deep a shard file's JSON may nest (the kit's own nest a dozen levels deep). */
export const SHARD_MAX_DEPTH = 64;

/**
 * The problems of a parsed shard file against {@link SHARD_SCHEMA}: none when it fits.
 * @param value - the file's parsed JSON
 * @param max - how many problems to say at most
 * @returns one line per problem (`<pointer>: <what is wrong>`), the first `max`
 * @example shardFileProblems({ format: 'pgv2kit-shard/1' }) // ['/model: required property is missing']
 */
export function shardFileProblems(value: unknown, max = 3): string[] {
  const deep = tooDeep(value);
  if (deep !== undefined) return [`${deep}: nests more than ${SHARD_MAX_DEPTH} levels deep`];
  const fn = validator();
  if (fn(value)) return [];
  return [...new Set((fn.errors ?? []).filter((e) => !QUIET.has(e.keyword)).map(describe))].slice(0, max);
}

// --- internal ---

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  compiled ??= createAjv({ verbose: true }).compile(schema);
  return compiled;
}

/** Keywords whose errors another error says better (a wrong type says it all). */
const QUIET = new Set(['if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not']);

function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const parent = (e.parentSchema ?? {}) as { type?: unknown; minimum?: number; maximum?: number };
  const at = (pointer: string, message: string): string => `${bound(pointer) || '/'}: ${message}`;
  if (parent.type === 'integer' && ['type', 'minimum', 'maximum'].includes(e.keyword)) {
    const { minimum: lo, maximum: hi } = parent;
    const range = lo !== undefined && hi !== undefined ? `from ${lo} to ${hi}` : lo !== undefined ? `≥ ${lo}` : '';
    return at(e.instancePath, `must be an integer ${range}`.trimEnd());
  }
  switch (e.keyword) {
    case 'required':
      return at(`${e.instancePath}/${escape(String(p['missingProperty']))}`, 'required property is missing');
    case 'additionalProperties':
      return at(`${e.instancePath}/${escape(String(p['additionalProperty']))}`, 'is not a field of a shard file');
    case 'type':
      return at(e.instancePath, `must be ${String(p['type']).split(',').join(' or ')}`);
    case 'const':
      return at(e.instancePath, `must be ${JSON.stringify(p['allowedValue'])}`);
    case 'enum':
      return at(
        e.instancePath,
        `must be one of ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')} ` +
          `(got ${bound(JSON.stringify(e.data) ?? 'undefined')})`,
      );
    case 'maxLength':
      return at(e.instancePath, `must be at most ${String(p['limit'])} characters`);
    case 'minLength':
      return at(e.instancePath, 'must not be empty');
    case 'maxItems':
      return at(e.instancePath, `must have at most ${String(p['limit'])} items`);
    case 'maxProperties':
      return at(e.instancePath, `must have at most ${String(p['limit'])} fields`);
    case 'propertyNames':
      return at(e.instancePath, 'has a field name longer than 1000 characters');
    case 'pattern':
      return at(e.instancePath, `must match ${String(p['pattern'])}`);
    default:
      return at(e.instancePath, String(e.message));
  }
}

/** A pointer or a value quoted in a message: at most 200 characters (a hostile field name can be megabytes). */
function bound(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 200)}…`;
}

function escape(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The pointer of the first value nested deeper than {@link SHARD_MAX_DEPTH}, walked without recursion. */
function tooDeep(value: unknown): string | undefined {
  type Node = { readonly v: unknown; readonly key: string; readonly up: Node | undefined; readonly depth: number };
  const stack: Node[] = [{ v: value, key: '', up: undefined, depth: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (top.depth > SHARD_MAX_DEPTH) {
      const keys: string[] = [];
      for (let n: Node | undefined = top; n?.up !== undefined; n = n.up) keys.unshift(bound(escape(n.key)));
      return `/${keys.join('/')}`;
    }
    if (typeof top.v !== 'object' || top.v === null) continue;
    const entries = Array.isArray(top.v) ? top.v.entries() : Object.entries(top.v as object);
    for (const [k, v] of entries)
      if (typeof v === 'object' && v !== null) stack.push({ v, key: String(k), up: top, depth: top.depth + 1 });
  }
  return undefined;
}
