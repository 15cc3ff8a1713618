/**
 * Checks protocol lines against the JSON Schema of testee protocol 1
 * (`protocol-v1.schema.json`, draft 2020-12, with ajv): what the runner's
 * `--validate-protocol` applies to every line a testee writes, and what an adapter
 * author's tests can apply to the runner's lines. Problems are data: one line each,
 * naming the JSON pointer and what is wrong, e.g. `/result/sign: must be string`.
 * @module
 */
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { PROTOCOL_OPERATIONS, type Operation, type ProtocolOperation } from './operations.js';
import schema from './protocol-v1.schema.json' with { type: 'json' };
import { createAjv } from '../vectors/ajv.js';

/**
 * The protocol version these lines follow.
 * @example PROTOCOL_VERSION // 1 — what a testee's hello line says
 */
export const PROTOCOL_VERSION = 1;

/**
 * The JSON Schema of protocol 1 (`$defs`: runnerLine, testeeLine, readyLine, answer-<op>, input-<op>, result-<op> …).
 * @example
 * import { createAjv } from '../vectors/ajv.js';
 * createAjv().compile(PROTOCOL_SCHEMA)
 */
export const PROTOCOL_SCHEMA: object = schema;

/** What the line a testee writes is expected to be: the answer to `start`, or to one `run` request. */
export type LineExpectation =
  { readonly expecting: 'ready' } | { readonly expecting: 'answer'; readonly id: string; readonly op: Operation };

/** The outcome of a line check: ok, or every problem found, one line each (`<pointer>: <what is wrong>`). */
export type LineValidation = { readonly ok: true } | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Checks a line a testee wrote against the protocol: its shape (the schema's
 * `readyLine`, or `answer-<op>` with the result shape of the operation) and, for an
 * answer, that it carries the id of the request.
 * @param line - the line's parsed JSON value
 * @param context - what the runner is waiting for: `{ expecting: 'ready' }` after `start`, or the id and op of the
 * request answered
 * @returns `{ ok: true }`, or the problems, e.g. `/result/sign: must be string`
 * @throws {RangeError} when `context.op` is not an operation of protocol 1 (kit-internal operations are never sent to
 * testees)
 * @example
 * validateTesteeLine(
 *   { id: 'signature.basic', result: { sign: 42 } },
 *   { expecting: 'answer', id: 'signature.basic', op: 'signature.sign' },
 * )
 * // { ok: false, problems: ['/result/sign: must be string'] }
 */
export function validateTesteeLine(line: unknown, context: LineExpectation): LineValidation {
  if (context.expecting === 'ready') return check('readyLine', line);
  if (!isProtocolOperation(context.op))
    throw new RangeError(
      `validateTesteeLine: ${context.op} is not an operation of protocol ${PROTOCOL_VERSION}, so no testee answers it`,
    );
  const outcome = check(`answer-${context.op}`, line);
  const id = isObject(line) ? line['id'] : undefined;
  if (typeof id !== 'string' || id === context.id) return outcome;
  const got = JSON.stringify(id);
  const problem = `/id: must be ${JSON.stringify(context.id)}, the id of the request answered (got ${got})`;
  return { ok: false, problems: [problem, ...(outcome.ok ? [] : outcome.problems)] };
}

/**
 * Checks a line the runner writes (`start`, `run` with the input shape of its
 * operation, `stop`) against the protocol: for adapter authors' own tests.
 * @param line - the line's parsed JSON value
 * @returns `{ ok: true }`, or the problems, e.g. `/input/bodyB64: must be standard padded base64`
 * @example validateRunnerLine({ cmd: 'start', protocol: 1 }) // { ok: true }
 */
export function validateRunnerLine(line: unknown): LineValidation {
  return check('runnerLine', line);
}

// --- internal ---

const SCHEMA_ID = (schema as { $id: string }).$id;

let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

function isProtocolOperation(op: string): op is ProtocolOperation {
  return (PROTOCOL_OPERATIONS as readonly string[]).includes(op);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The validator of one `$defs` entry point, compiled once. */
function validator(def: string): ValidateFunction {
  let fn = validators.get(def);
  if (!fn) {
    if (!ajv) {
      ajv = createAjv({ verbose: true });
      ajv.addSchema(schema);
    }
    fn = ajv.getSchema(`${SCHEMA_ID}#/$defs/${def}`);
    if (!fn) throw new Error(`protocol-v1.schema.json has no $defs/${def}`);
    validators.set(def, fn);
  }
  return fn;
}

function check(def: string, line: unknown): LineValidation {
  const fn = validator(def);
  if (fn(line)) return { ok: true };
  return { ok: false, problems: describeErrors(fn.errors as ErrorObject[]) };
}

const COMPOSITE = new Set(['if', 'then', 'else', 'allOf', 'anyOf', 'not']);

/**
 * One line per error. Left out: the composite keywords, the branches of an explained
 * oneOf, and anything else about a value whose type is wrong (the type error says it all).
 */
function describeErrors(errors: readonly ErrorObject[]): string[] {
  const oneOfs = errors.filter((e) => e.keyword === 'oneOf').map((e) => `${e.schemaPath}/`);
  const wrongType = errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath);
  const explained = (e: ErrorObject): boolean =>
    e.keyword !== 'type' && wrongType.some((p) => e.instancePath === p || e.instancePath.startsWith(`${p}/`));
  const lines = errors
    .filter((e) => !COMPOSITE.has(e.keyword) && !oneOfs.some((p) => e.schemaPath.startsWith(p)) && !explained(e))
    .map(describeError);
  return [...new Set(lines)];
}

function describeError(e: ErrorObject): string {
  const at = (pointer: string, message: string): string => `${pointer || '/'}: ${message}`;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return at(`${e.instancePath}/${escapePointer(String(p['missingProperty']))}`, 'required property is missing');
    case 'additionalProperties':
      return at(
        `${e.instancePath}/${escapePointer(String(p['additionalProperty']))}`,
        'is not a property of this message',
      );
    case 'type':
      return at(e.instancePath, `must be ${String(p['type']).split(',').join(' or ')}`);
    case 'const':
      return at(e.instancePath, `must be ${JSON.stringify(p['allowedValue'])}`);
    case 'enum':
      if (e.schemaPath.startsWith('#/$defs/operation/'))
        return at(e.instancePath, `${JSON.stringify(e.data)} is not an operation of protocol ${PROTOCOL_VERSION}`);
      return at(
        e.instancePath,
        `must be one of ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')} ` +
          `(got ${JSON.stringify(e.data)})`,
      );
    case 'pattern': // the schema's only pattern is $defs/base64 (a test holds it to that)
      return at(e.instancePath, 'must be standard padded base64');
    case 'minLength': // the schema's only minLength is 1 (a test holds it to that)
      return at(e.instancePath, 'must not be empty');
    case 'uniqueItems':
      return at(
        e.instancePath,
        `must not have duplicate items (${JSON.stringify((e.data as unknown[])[Number(p['i'])])} appears twice)`,
      );
    case 'oneOf':
      return at(e.instancePath, describeOneOf(e));
    default:
      return at(e.instancePath, String(e.message));
  }
}

/**
 * The schema's only oneOf, the run answer's: each branch requires one property. Says
 * which of them the answer has (it is an object: a type error would have explained it).
 */
function describeOneOf(e: ErrorObject): string {
  const names = (e.schema as Array<{ required: [string] }>).map((b) => b.required[0]);
  const present = names.filter((n) => n in (e.data as object));
  const has = present.length === 0 ? 'none' : present.join(' and ');
  return `must have exactly one of ${names.join(', ')} (it has ${has})`;
}

function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
