/**
 * The ajv instance the gateway's body schemas share (draft 2020-12, every error
 * reported, strict schema checking), and what is said about a JSON value in messages.
 * @module
 */
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv } from '../vectors/ajv.js';

let ajv: Ajv2020 | undefined;

/**
 * Compiles one of the gateway's schemas (once per schema object).
 * @param schema - a draft 2020-12 schema with an `$id`
 * @returns the validate function; its `errors` are every error found
 * @example compileSchema({ $id: 'pgv2kit:example', type: 'object', required: ['a'] })({ a: 1 }) // true
 */
export function compileSchema(schema: { readonly $id: string }): ValidateFunction {
  ajv ??= createAjv({ verbose: true, ownSchemas: true });
  return ajv.getSchema(schema.$id) ?? ajv.compile(schema);
}

/**
 * A JSON value described in a few words for a message (strings clipped to 60 code points).
 * @param value - the value
 * @returns e.g. `the number 10`, `the string "x"`, `an object`
 * @example describeJson(10) // 'the number 10'
 */
export function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return `the number ${String(value)}`;
  if (typeof value === 'string') return `the string ${quoteText(value)}`;
  if (typeof value === 'boolean') return `the boolean ${String(value)}`;
  return 'an object';
}

/**
 * A text quoted for a message, clipped to 60 code points.
 * @param text - the text
 * @returns the JSON-quoted text
 * @example quoteText('a') // '"a"'
 */
export function quoteText(text: string): string {
  const chars = [...text];
  return JSON.stringify(chars.length > 60 ? `${chars.slice(0, 60).join('')}…` : text);
}
