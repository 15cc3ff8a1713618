/**
 * The options that set how much of a vectors folder is read (`--max-vector-file`,
 * `--max-vector-string`), shared by every command that reads one, and their reading.
 * @module
 */
import { formatBytes, parseBytes } from '../bytes.js';
import { DEFAULT_VECTOR_LIMITS, vectorLimits, type VectorLimits } from '../vectors/limits.js';
import { optionLabel, standIn } from './_args.js';
import { UsageError, type OptionSpecs, type OptionValues } from './command.js';

/** --max-vector-file, --max-vector-string. */
export const vectorLimitOptions = {
  'max-vector-file': {
    type: 'string',
    valueName: '<bytes>',
    description:
      `Largest vector file read (${formatBytes(DEFAULT_VECTOR_LIMITS.fileBytes).replace(' ', '')} unless set): ` +
      'bytes, or K, M, G (1024-based)',
    env: 'PGV2KIT_MAX_VECTOR_FILE',
  },
  'max-vector-string': {
    type: 'string',
    valueName: '<bytes>',
    description:
      'Longest string a vector file may hold ' +
      `(${formatBytes(DEFAULT_VECTOR_LIMITS.stringBytes).replace(' ', '')} unless set)`,
    env: 'PGV2KIT_MAX_VECTOR_STRING',
  },
} as const satisfies OptionSpecs;

/**
 * The limits the options (or their environment variables) set.
 * @param values - the command's option values
 * @param env - the environment
 * @returns the limits
 * @throws {UsageError} when a value is not a byte count
 * @example vectorLimitsOf({ 'max-vector-file': '64MiB' }, {}).fileBytes // 67108864
 */
export function vectorLimitsOf(
  values: OptionValues<typeof vectorLimitOptions>,
  env: Readonly<Record<string, string | undefined>>,
): VectorLimits {
  const bytes = (name: keyof typeof vectorLimitOptions): number | undefined => {
    const given = standIn(values[name], name, vectorLimitOptions, env);
    if (given === undefined) return undefined;
    const n = parseBytes(given.text);
    if (n === undefined)
      throw new UsageError(
        `${optionLabel(given.name)} must be a byte count such as 1048576, 512K or 16MiB, ` +
          `not ${JSON.stringify(given.text)}`,
      );
    return n;
  };
  const fileBytes = bytes('max-vector-file');
  const stringBytes = bytes('max-vector-string');
  return vectorLimits({
    ...(fileBytes !== undefined ? { fileBytes } : {}),
    ...(stringBytes !== undefined ? { stringBytes } : {}),
  });
}
