/**
 * The dependencies only some commands need, loaded when first used rather than when the CLI starts: a
 * `pgv2kit run` of an SDK never speaks HTTP (undici, form-data) nor compiles a schema when the vectors'
 * snapshot is fresh (ajv), and every command started loading them all — a tenth of a second of each start.
 * Each is required once, synchronously (the callers stay as they were), and typed as its package declares.
 * @module
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const loaded = new Map<string, unknown>();

function once<T>(name: string): T {
  if (!loaded.has(name)) loaded.set(name, require(name));
  return loaded.get(name) as T;
}

/**
 * undici, loaded on first use.
 * @returns the module
 * @example typeof undici().request // 'function'
 */
export function undici(): typeof import('undici') {
  return once('undici');
}

/**
 * form-data's FormData class, loaded on first use.
 * @returns the class
 * @example new (formData())().getBoundary().length > 0 // true
 */
export function formData(): typeof import('form-data') {
  return once('form-data');
}

/**
 * yaml, loaded on first use (a run of the kit's vectors reads their snapshot, not their YAML).
 * @returns the module
 * @example yaml().stringify({ a: 1 }) // 'a: 1\n'
 */
export function yaml(): typeof import('yaml') {
  return once('yaml');
}

/**
 * ajv's draft 2020-12 class, loaded on first use.
 * @returns the module
 * @example typeof ajv2020().Ajv2020 // 'function'
 */
export function ajv2020(): typeof import('ajv/dist/2020.js') {
  return once('ajv/dist/2020.js');
}
