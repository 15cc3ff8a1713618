/**
 * How much of a vectors folder the kit reads: a vectors folder is untrusted input (a
 * downloaded set, a merge request), so every file and every string has a ceiling and the
 * YAML parser is kept from expanding or nesting without end. The sizes are overridable
 * (`--max-vector-file`, `--max-vector-string`); the structure limits are not.
 * @module
 */

/** The ceilings the loader applies to a vectors folder. */
export interface VectorLimits {
  /** Bytes of one file (a YAML vector file, notes.yaml or a schema). */
  readonly fileBytes: number;
  /** Bytes of one string as written in a YAML file (a scalar's source text). */
  readonly stringBytes: number;
  /** Collections nested in one another in a YAML file (the kit's own files nest 7 deep). */
  readonly depth: number;
  /** YAML alias expansions in one file (the `maxAliasCount` of the yaml package). */
  readonly aliases: number;
  /** YAML files in the folder. */
  readonly files: number;
}

/**
 * The defaults: far above the kit's own set (its largest file is under 100 KB, its longest
 * string about 4 KiB) and far below what would hurt (a file held twice while it is parsed).
 */
export const DEFAULT_VECTOR_LIMITS: VectorLimits = Object.freeze({
  fileBytes: 16 * 1024 * 1024,
  stringBytes: 1024 * 1024,
  depth: 64,
  aliases: 100,
  files: 10_000,
});

/**
 * The defaults with some sizes replaced.
 * @param given - the sizes to replace
 * @returns the limits
 * @example vectorLimits({ fileBytes: 1 << 20 }).stringBytes // 1048576
 */
export function vectorLimits(given: Partial<Pick<VectorLimits, 'fileBytes' | 'stringBytes'>> = {}): VectorLimits {
  return Object.freeze({ ...DEFAULT_VECTOR_LIMITS, ...given });
}
