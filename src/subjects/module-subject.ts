/**
 * A subject from a JS/TS module, run in process (`pgv2kit run --module <path>`,
 * `PGV2KIT_SUBJECT=<path>` for the suites). The module exports one of:
 * - `subject`: a {@link Subject};
 * - `createSubject()`: returning a Subject (or a promise of one);
 * - `operations`: an object mapping operation names to functions `(input) => result`
 *   (a thrown error becomes `rejected`), with an optional `implementation`.
 * @module
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isOperation, type Operation } from '../protocol/operations.js';
import type { Implementation, Json, OperationInput, Subject } from './subject.js';
import { Pgv2kitError } from '../errors.js';

/**
 * The module could not be loaded or exports nothing usable (a usage error, exit 2).
 * @example await loadModuleSubject(`${tmp}/none.mjs`) // throws ModuleSubjectError
 */
export class ModuleSubjectError extends Pgv2kitError {
  override readonly code = 'PGV2_MODULE_SUBJECT';
  /** A usage error (exit 2). */
  override readonly exit = 'usage';
  override readonly name = 'ModuleSubjectError';
}

type OperationFn = (input: OperationInput) => unknown;

/**
 * Loads a subject module.
 * @param path - the module's path (relative to `cwd`)
 * @param cwd - the folder relative paths start from
 * @returns the subject
 * @throws {ModuleSubjectError} when the module cannot be imported or exports no subject
 * @example
 * import { writeFileSync } from 'node:fs';
 * writeFileSync(
 *   `${tmp}/my-sdk-subject.mjs`,
 *   "export const operations = { 'signature.sign': () => ({ sign: '00' }) };",
 * );
 * const subject = await loadModuleSubject('./my-sdk-subject.mjs', tmp);
 * subject.operations // ['signature.sign']
 */
export async function loadModuleSubject(path: string, cwd: string = process.cwd()): Promise<Subject> {
  const full = resolve(cwd, path);
  if (/\.[cm]?ts$/.test(full)) await registerTypeScript(path);
  let mod: {
    subject?: Subject;
    createSubject?: () => Subject | Promise<Subject>;
    operations?: Record<string, OperationFn>;
    implementation?: Implementation;
  };
  try {
    mod = (await import(pathToFileURL(full).href)) as typeof mod;
  } catch (e) {
    throw new ModuleSubjectError(`cannot import the module ${path}: ${(e as Error).message}`);
  }
  if (mod.subject) return mod.subject;
  if (typeof mod.createSubject === 'function') return await mod.createSubject();
  if (mod.operations && typeof mod.operations === 'object')
    return fromOperations(mod.operations, mod.implementation, path);
  throw new ModuleSubjectError(`the module ${path} exports none of subject, createSubject() or operations`);
}

// --- internal ---

function fromOperations(
  table: Record<string, OperationFn>,
  implementation: Implementation | undefined,
  path: string,
): Subject {
  const operations = Object.keys(table).filter(isOperation) as Operation[];
  return {
    implementation: implementation ?? { name: path, version: 'unknown', language: 'javascript' },
    operations,
    async call(op, input) {
      const fn = table[op];
      if (typeof fn !== 'function') return { unsupported: { reason: `the module does not export ${op}` } };
      try {
        const result = await fn(input);
        if (typeof result !== 'object' || result === null || Array.isArray(result))
          return { failed: { reason: `${op} returned ${JSON.stringify(result)}, not an object` } };
        return { result: result as { [key: string]: Json } };
      } catch (e) {
        return { rejected: { reason: e instanceof Error ? e.message : String(e) } };
      }
    },
  };
}

async function registerTypeScript(path: string): Promise<void> {
  try {
    const api = (await import('tsx/esm/api' as string)) as { register: () => unknown };
    api.register();
  } catch {
    throw new ModuleSubjectError(
      `${path} is TypeScript: compile it to JavaScript first, or install tsx (npm i -D tsx) so pgv2kit can load it`,
    );
  }
}
