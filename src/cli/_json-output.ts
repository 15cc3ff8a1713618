/**
 * `--json` on run, certify and fuzz: standard output carries exactly one JSON line, the command's
 * summary; every line meant for people goes to standard error instead.
 * @module
 */
import { Masker } from '../scheme/mask.js';
import type { CliIo } from './io.js';

/** The io a command writes through, and how it prints its one JSON summary. */
export interface JsonOutput {
  /** The command's io: with --json, its stdout writes to stderr. */
  readonly io: CliIo;
  /**
   * Prints the summary as one line on the real stdout (nothing without --json), every string in it with `secrets`
   * masked.
   */
  readonly emit: (summary: object, secrets?: readonly string[]) => void;
}

/**
 * The output of a command that may be asked for --json.
 * @param json - whether --json was given
 * @param io - the process's io
 * @returns the io to write through, and the summary's printer
 * @example const { emit } = jsonOutput(true, io); emit({ exitCode: 0 }); io.out // '{"exitCode":0}\n'
 */
export function jsonOutput(json: boolean, io: CliIo): JsonOutput {
  if (!json) return { io, emit: () => undefined };
  return {
    io: { ...io, stdout: io.stderr },
    // masked as data, then encoded (src/scheme/mask.ts): never the JSON text, whose escapes a secret holding `"` or
    // `\\` would change
    emit: (summary, secrets = []) => io.stdout(`${JSON.stringify(new Masker(secrets).data(summary))}\n`),
  };
}
