/**
 * `--name` and `--version` of `run --gateway`, `run --merchant` and `certify`: how the reports
 * and the run's name call a server under test, which, unlike a testee, says nothing of itself.
 * @module
 */
import type { TargetNaming } from '../subjects/subject.js';
import { UsageError } from './command.js';

/**
 * The name and version given, checked.
 * @param values - the parsed options
 * @returns what to name the target with (empty: the default, its host)
 * @throws {UsageError} for a name or version given empty
 * @example targetNaming({ name: 'acme-pay', version: '2.3' }) // { name: 'acme-pay', version: '2.3' }
 */
export function targetNaming(values: { readonly name?: string; readonly version?: string }): TargetNaming {
  for (const k of ['name', 'version'] as const) {
    const v = values[k];
    if (v !== undefined && v.trim() === '')
      throw new UsageError(
        `--${k} needs a value (leave it out for the default: ${k === 'name' ? 'the host' : 'none'})`,
      );
  }
  return {
    ...(values.name !== undefined ? { name: values.name.trim() } : {}),
    ...(values.version !== undefined ? { version: values.version.trim() } : {}),
  };
}
